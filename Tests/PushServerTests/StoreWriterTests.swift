import Foundation
import Glibc
import PushCore
import PushStore
import Testing
import TestSupport
@testable import PushServer

/// A large turn's writes go to the writer's thread while the loop handles the rest of the turn:
/// a lookup still sees every write before it, a failed commit still refuses the whole turn, and
/// what is acknowledged is in the file.
/// A server on a SQLite file in `folder` (the test's own, removed when it ends), its one client
/// the far end of the socket; with `overlapping`, a large turn's commit overlaps the next turn
/// (as in `run`).
func serverWithClient(in folder: TempFolder, overlapping: Bool = false) throws -> (server: Server, client: Int32, database: String) {
    let database = folder.file("inbox.sqlite")
    let server = try Server(store: try Store(path: database), listener: nil, signals: nil)
    server.overlapsCommits = overlapping
    return (server, attachClient(to: server).fd, database)
}

/// A ~130-byte APNs push for com.example.shop, numbered by its title and badge.
func shopPush(_ index: Int) -> String {
    #"{"aps":{"alert":{"title":"order \#(index)","body":"shipped"},"badge":\#(index)},"Simulator Target Bundle":"com.example.shop"}"#
}

@Suite struct StoreWriterTests {

    /// Sends `lines` in one write and runs one turn; returns the replies, parsed.
    func turn(_ server: Server, _ client: Int32, _ lines: [String]) throws -> [[String: Any]] {
        let bytes = lines.map { $0 + "\n" }.joined()
        #expect(send(client, bytes, bytes.utf8.count, 0) == bytes.utf8.count)
        server.turn(host: nil)
        return try replies(on: client).map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }


    @Test func aLargeTurnIsWrittenByTheThreadAndIsInTheFileWhenAcknowledged() throws {
        let folder = TempFolder()
        let (server, client, database) = try serverWithClient(in: folder)
        defer { close(client) }
        let replies = try turn(server, client, (1...300).map { shopPush($0) })
        #expect(replies.count == 300)
        #expect(replies.allSatisfy { $0["ok"] as? Bool == true && $0["delivered"] as? Bool == true })
        #expect(server.writer.handOffs > 0, "the turn never used the writer's thread")

        // What a second connection to the file reads, the moment the replies are out.
        let reader = try Store(path: database)
        defer { reader.close() }
        let inbox = try reader.loadInbox(bannerSeconds: 5)
        #expect(inbox.nextId == 301)
        #expect(inbox.unread["com.example.shop"] == 300)
        #expect(inbox.badge(of: "com.example.shop").icon == 300)
        #expect(try reader.page(ListQuery(limit: 1000)).count == 300)
    }

    /// A push with a collapse id looks up the message it replaces: the one written a moment
    /// ago in the same turn, perhaps still in the writer's hands, after a hundred that went there.
    @Test func aLookupInALargeTurnSeesEveryWriteBeforeIt() throws {
        let folder = TempFolder()
        let (server, client, _) = try serverWithClient(in: folder)
        defer { close(client) }
        let plain = (1...100).map { shopPush($0) }
        let collapsing = (101...200).map { #"{"op":"push","collapseId":"order","payload":\#(shopPush($0))}"# }
        let replies = try turn(server, client, plain + collapsing + [#"{"op":"read","ids":[1,101]}"#])
        #expect(replies.count == 201)
        #expect(replies[100]["delivered"] as? Bool == true && replies[100]["id"] as? Int == 101, "\(replies[100])")
        #expect(replies[101..<200].allSatisfy { $0["replaced"] as? Bool == true && $0["id"] as? Int == 101 }, "\(replies[101])")
        #expect(replies[200]["ok"] as? Bool == true, "\(replies[200])")
        #expect(server.writer.handOffs > 0, "the turn never used the writer's thread")
        let listed = try server.store.page(ListQuery(limit: 1000))
        #expect(listed.count == 101)
        #expect(listed.first?.id == 101 && listed.first?.title == "order 200" && listed.first?.read == true)
        #expect(listed.last?.id == 1 && listed.last?.read == true)
        #expect(server.inbox.unread["com.example.shop"] == 99)
    }

    /// The file removed under the server: the large turn's commit, on the writer's thread,
    /// fails, and every push of the turn is refused — none is acknowledged, none is counted.
    @Test func aFailedCommitOfALargeTurnRefusesEveryRequestOfIt() throws {
        let folder = TempFolder()
        let (server, client, database) = try serverWithClient(in: folder)
        defer { close(client) }
        #expect(try turn(server, client, [shopPush(1)]).first?["ok"] as? Bool == true)
        try FileManager.default.removeItem(atPath: database)

        let replies = try turn(server, client, (2...301).map { shopPush($0) })
        #expect(replies.count == 300)
        #expect(replies.allSatisfy { ($0["error"] as? String)?.contains("deleted or moved") == true }, "\(replies.first ?? [:])")
        #expect(server.writer.handOffs > 0)
        #expect(server.inbox.nextId == 2)
        #expect(server.inbox.unread["com.example.shop"] == 1)
        #expect(try server.store.page(ListQuery(limit: 1000)).map(\.title) == ["order 1"])
    }
}

/// While the writer's thread commits a large turn, the loop reads and decodes what the client
/// sent since; the next turn handles it first, in order, with what was wrong in it refused in
/// its place.
@Suite struct ReadAheadTests {
    @Test func requestsReadWhileATurnCommitsAreAnsweredNextTurnInOrder() throws {
        let folder = TempFolder()
        var options = ServerOptions()
        // One 64 KiB read a turn: 600 pushes take several turns, each large enough for the thread.
        options.readChunk = 64 * 1024
        let server = try Server(store: try Store(path: folder.file("inbox.sqlite")), listener: nil, signals: nil, options: options)
        let (connection, client) = attachClient(to: server)
        defer { close(client) }

        // Pushes of ~300 bytes, with a line that is not JSON and a request with a bad field among
        // them, past the first turn's read.
        let pad = String(repeating: "x", count: 200)
        var lines = (1...600).map { #"{"aps":{"alert":{"title":"n\#($0)","body":"\#(pad)"}},"Simulator Target Bundle":"com.example.shop"}"# }
        lines.insert(#"{"op":"read","ids":"seven"}"#, at: 400)
        lines.insert("{not json}", at: 300)
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        // The socket takes it all at once from a thread of its own (it may not fit its buffer).
        let writer = Thread { bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(client, raw.baseAddress! + sent, raw.count - sent, 0)
                if count <= 0 { break }
                sent += count
            }
        } }
        writer.start()

        var output: [UInt8] = []
        var answered: [Substring] = []
        var readAheadSeen = false
        var turns = 0
        while answered.count < lines.count && turns < 200 {
            server.turn(host: nil)
            turns += 1
            readAheadSeen = readAheadSeen || !connection.ahead.isEmpty
            // A line may come in two reads: split what came so far.
            output += received(on: client)
            answered = String(decoding: output, as: UTF8.self).split(separator: "\n")
        }
        #expect(readAheadSeen, "no turn read ahead")
        #expect(server.writer.handOffs > 0)
        #expect(answered.count == lines.count)
        var expectedId = 1
        for (index, reply) in answered.enumerated() {
            if index == 300 {
                #expect(reply.contains(#""ok":false"#), "\(reply)")
            } else if index == 401 {
                #expect(reply.contains(#""ok":false"#) && reply.contains("ids"), "\(reply)")
            } else {
                #expect(reply.hasPrefix(#"{"ok":true,"id":\#(expectedId),"#), "reply \(index): \(reply)")
                expectedId += 1
            }
        }
        #expect(try server.store.page(ListQuery(limit: 1000)).count == 600)
    }
}

/// A large turn's commit, written by the writer's thread, overlaps the next turn: the loop
/// reads and reduces what came since while the turn's replies wait for their commit. What a
/// client is told keeps its order, is on disk when it is told, and a failed commit fails the
/// turns reduced on top of it too.
@Suite struct OverlappedCommitTests {
    func overlappingServer(in folder: TempFolder) throws -> (server: Server, client: Int32, database: String) {
        try serverWithClient(in: folder, overlapping: true)
    }

    func send(_ lines: [String], to client: Int32) {
        let bytes = lines.map { $0 + "\n" }.joined()
        #expect(Glibc.send(client, bytes, bytes.utf8.count, 0) == bytes.utf8.count)
    }


    func parsed(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func aTurnsRepliesWaitForItsCommitWhileTheNextTurnIsReducedAndComeInOrder() throws {
        let folder = TempFolder()
        let (server, client, database) = try overlappingServer(in: folder)
        defer { close(client) }
        send((1...300).map { shopPush($0) }, to: client)
        server.turn(host: nil)
        #expect(replies(on: client).isEmpty, "a turn's replies went out before its commit was known")
        #expect(server.committing.count == 1)

        // The next turn is read and reduced while the first commits; its end sends the first's.
        send((301...600).map { shopPush($0) }, to: client)
        server.turn(host: nil)
        var answered = try parsed(replies(on: client))
        #expect(answered.count == 300)
        #expect(server.committing.count == 1)
        // Nothing more came: the loop waits for the second commit and sends its replies.
        server.turn(host: nil)
        answered += try parsed(replies(on: client))
        #expect(server.committing.count == 0)
        #expect(answered.map { $0["id"] as? Int } == (1...600).map { $0 })
        #expect(answered.allSatisfy { $0["ok"] as? Bool == true })

        // What a second connection to the file reads, the moment the replies are out.
        let reader = try Store(path: database)
        defer { reader.close() }
        let inbox = try reader.loadInbox(bannerSeconds: 5)
        #expect(inbox.nextId == 601)
        #expect(inbox.unread["com.example.shop"] == 600)
        #expect(try reader.page(ListQuery(limit: 1000)).count == 600)
    }

    @Test func aSmallRequestAfterALargeTurnIsAnsweredAfterIt() throws {
        let folder = TempFolder()
        let (server, client, _) = try overlappingServer(in: folder)
        defer { close(client) }
        send((1...300).map { shopPush($0) }, to: client)
        server.turn(host: nil)
        send([#"{"op":"read","ids":[1]}"#], to: client)
        server.turn(host: nil)
        let answered = try parsed(replies(on: client))
        #expect(answered.count == 301)
        #expect(answered.prefix(300).map { $0["id"] as? Int } == (1...300).map { $0 })
        #expect(answered.last?["ok"] as? Bool == true && answered.last?["id"] == nil, "\(answered.last ?? [:])")
        #expect(server.inbox.unread["com.example.shop"] == 299)
    }

    /// The file removed under the server: the first large turn's commit fails on the writer's
    /// thread, and the turn reduced on top of it meanwhile fails with it — none of the 600 is
    /// acknowledged, none is counted.
    @Test func aFailedCommitFailsTheTurnReducedOnTopOfIt() throws {
        let folder = TempFolder()
        let (server, client, database) = try overlappingServer(in: folder)
        defer { close(client) }
        send([shopPush(1)], to: client)
        server.turn(host: nil)
        #expect(try parsed(replies(on: client)).first?["ok"] as? Bool == true)
        try FileManager.default.removeItem(atPath: database)

        send((2...301).map { shopPush($0) }, to: client)
        server.turn(host: nil)
        send((302...601).map { shopPush($0) }, to: client)
        server.turn(host: nil)
        server.turn(host: nil)
        let answered = try parsed(replies(on: client))
        #expect(answered.count == 600)
        #expect(answered.allSatisfy { ($0["error"] as? String)?.contains("deleted or moved") == true }, "\(answered.first ?? [:])")
        #expect(server.committing.count == 0)
        #expect(server.inbox.nextId == 2)
        #expect(server.inbox.unread["com.example.shop"] == 1)
        #expect(try server.store.page(ListQuery(limit: 1000)).map(\.title) == ["order 1"])
    }

    /// Gateway answers are not held past their turn: an HTTP client sends its next requests
    /// only as answers come.
    @Test func aLargeTurnOfGatewayRequestsIsAnsweredAtItsEnd() throws {
        let folder = TempFolder()
        let (server, client, _) = try overlappingServer(in: folder)
        defer { close(client) }
        var answers: [Reply] = []
        for index in 1...100 {
            server.submit(try Request.decode(frame: Array(shopPush(index).utf8))) { answers.append($0) }
        }
        #expect(server.writer.handOffs > 0, "the turn never used the writer's thread")
        server.endTurn()
        #expect(answers.count == 100)
        #expect(server.committing.count == 0)
        #expect(try server.store.page(ListQuery(limit: 1000)).count == 100)
    }

    /// An in-process watcher (the control API's long-polls) judges a turn's events when the turn
    /// ends: that turn ends with its commit.
    @Test func aTurnWhoseEventsAWatcherHeardEndsWithItsCommit() throws {
        let folder = TempFolder()
        let (server, client, _) = try overlappingServer(in: folder)
        defer { close(client) }
        var heard = 0
        server.busTap = { _ in heard += 1 }
        send((1...300).map { shopPush($0) }, to: client)
        server.turn(host: nil)
        #expect(heard >= 300)
        #expect(server.committing.count == 0)
        #expect(replies(on: client).count == 300)
    }

    /// A connection closed while its turn's replies wait for the commit: they are not sent to
    /// the next client, which may get the same descriptor number.
    @Test func repliesHeldForAClosedConnectionGoNowhere() throws {
        let folder = TempFolder()
        let (server, first, _) = try overlappingServer(in: folder)
        defer { close(first) }
        send((1...300).map { shopPush($0) }, to: first)
        server.turn(host: nil)
        let closed = try #require(server.clients.values.first)
        server.close(closed)
        let (_, second) = attachClient(to: server)
        defer { close(second) }
        server.turn(host: nil)
        #expect(server.committing.count == 0)
        #expect(replies(on: second).isEmpty)
        #expect(server.inbox.nextId == 301)
    }

    /// A client that sends a large turn and closes its end gets every reply before the server
    /// closes the connection, though the turn ended before its commit did.
    @Test func aClientThatHungUpGetsItsRepliesBeforeItIsClosed() throws {
        let folder = TempFolder()
        let (server, client, _) = try overlappingServer(in: folder)
        defer { close(client) }
        send((1...300).map { shopPush($0) }, to: client)
        shutdown(client, Int32(SHUT_WR))
        var output: [UInt8] = []
        var closed = false
        for _ in 0..<10 where !closed {
            server.turn(host: nil)
            output += received(on: client)
            closed = server.clients.isEmpty
        }
        output += received(on: client)
        #expect(closed)
        let answered = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(answered.count == 300)
        #expect(closesByItsPeer(client), "the connection was not closed after its replies")
    }
}

/// The writer's thread on its own: each commit has its outcome, in order, and what was handed
/// off behind a failed commit fails with it until the failure is cleared.
@Suite struct StoreWriterQueueTests {
    func message(_ id: Int64) -> Message {
        Message(id: id, app: "com.example.shop", channel: .apns, title: "order \(id)", body: "shipped",
                receivedAt: Date(timeIntervalSince1970: 1_800_000_000), payload: #"{"aps":{}}"#)
    }

    @Test func whatFollowsAFailedCommitFailsWithItUntilTheFailureIsCleared() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        defer { store.close() }
        let writer = StoreWriter(store: store)
        defer { writer.stop() }

        writer.handOff([.change(.insert(message(1)))], commit: true)
        // The same id again: the insert fails, and so does its commit.
        writer.handOff([.change(.insert(message(1)))], commit: true)
        // A turn reduced on top of the failed one: it must not reach the file.
        writer.handOff([.change(.insert(message(2)))], commit: true)
        #expect(writer.waitForCommit() == nil)
        let failed = try #require(writer.waitForCommit())
        let behind = try #require(writer.waitForCommit())
        #expect("\(behind)" == "\(failed)")

        writer.settle()
        try store.rollback()
        writer.clearFailure()
        writer.handOff([.change(.insert(message(3)))], commit: true)
        #expect(writer.waitForCommit() == nil)
        writer.settle()
        #expect(try store.page(ListQuery(limit: 10)).map(\.id) == [3, 1])
    }
}
