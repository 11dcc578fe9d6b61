import Foundation
import PushCore
import PushClient
import Testing
import TestSupport
import PushJSON

/// The wire protocol (JSON objects back to back, one reply line each, in order) through a raw
/// socket to the real server.
@Suite struct ProtocolTests {
    @Test func prettyAndCompactObjectsBackToBackGetOneReplyEachInOrder() throws {
        let server = try ServerProcess()
        let client = try SocketClient(path: server.socket)
        try client.send(Array("""
            {"op":"ping"}{"aps":{"alert":"compact"}}
            {
              "aps" : {
                "alert" : { "title" : "pretty", "body" : "brace } and quote \\" inside" },
              },
            }

            {"op":"list","limit":10}
            """.utf8))
        let ping = try client.readReply()
        #expect(ping["version"] == .string(Version.current))
        #expect(try client.readReply()["id"] == 1)
        #expect(try client.readReply()["id"] == 2)
        let list = try client.readReply()
        let messages = try #require(list["messages"]?.arrayValue)
        #expect(messages.count == 2)
        #expect(messages.first?.objectValue?["body"] == "brace } and quote \" inside")
    }

    @Test func subscribersComingAndGoingKeepGettingEvents() throws {
        let server = try ServerProcess()
        let pusher = try SocketClient(path: server.socket)
        // A client that subscribes twice and leaves must not take the bus down with it.
        do {
            let leaving = try SocketClient(path: server.socket)
            #expect(try leaving.request(["op": "subscribe"])["ok"] == true)
            #expect(try leaving.request(["op": "subscribe", "topics": ["feedback"]])["ok"] == true)
            leaving.finishSending()
            #expect(try leaving.readLine() == nil)
        }
        #expect(try pusher.request(["aps": ["alert": "nobody listens"]])["ok"] == true)
        for round in 1...2 {
            let watcher = try SocketClient(path: server.socket)
            #expect(try watcher.request(["op": "subscribe", "topics": ["remote.received"]])["ok"] == true)
            #expect(try pusher.request(["aps": ["alert": .string("round \(round)")]])["ok"] == true)
            let event = try watcher.readReply()
            #expect(event["topic"] == "remote.received")
            #expect(event["message"]?.objectValue?["body"] == .string("round \(round)"))
        }
    }

    @Test func everyOpAnswers() throws {
        let server = try ServerProcess()
        let client = try SocketClient(path: server.socket)
        let push = try client.request(["op": "push", "payload": ["aps": ["alert": "hi", "badge": 4]], "app": "x"])
        #expect(push["ok"] == true)
        #expect(push["badge"] == 4)
        #expect(try client.request(["op": "badge", "app": "x"])["serverBadge"] == 4)
        #expect(try client.request(["op": "read", "id": 1])["badge"] == 3)
        #expect(try client.request(["op": "delete", "ids": [1]])["ok"] == true)
        #expect(try client.request(["op": "mode", "set": "off"])["mode"] == "off")
        let dropped = try client.request(["aps": ["alert": "dropped"]])
        #expect(dropped["delivered"] == false)
        #expect(dropped["reason"] == "push mode off")
        #expect(try client.request(["op": "mode", "set": "on"])["mode"] == "on")
        #expect(try client.request(["op": "app", "state": "terminated"])["state"] == "terminated")
        let held = try client.request(["op": "push", "payload": ["taskId": "t", "msgId": "m", "payload": "later"]])
        #expect(held["delivered"] == false)
        #expect(held["held"] == true)
        #expect(try client.request(["op": "list"])["messages"] == .array([]))
        #expect(try client.request(["op": "app", "state": "foreground"])["state"] == "foreground")
        let listed = try #require(try client.request(["op": "list"])["messages"]?.arrayValue)
        #expect(listed.count == 1)
        #expect(listed.first?.objectValue?["offline"] == true)
        // App x keeps the 3 its aps.badge left (no unread there); the released message is read.
        #expect(try client.request(["op": "read", "all": true])["badge"] == 3)
        #expect(try client.request(["op": "subscribe", "topics": []])["ok"] == true)
    }

    @Test(arguments: [
        (#"{"op":"fly"}"#, "op"),
        (#"{"op":"push"}"#, "payload"),
        (#"{"op":"push","payload":[1]}"#, "payload"),
        (#"{"op":"push","payload":{"aps":"x"}}"#, "aps"),
        (#"{"op":"push","payload":{"aps":{"alert":5}}}"#, "alert"),
        (#"{"op":"push","payload":{"aps":{"badge":-1}}}"#, "badge"),
        (#"{"op":"push","payload":{"aps":{"badge":"3"}}}"#, "badge"),
        (#"{"op":"read"}"#, "id"),
        (#"{"op":"read","ids":["a"]}"#, "ids"),
        (#"{"op":"read","id":-4}"#, "id"),
        (#"{"op":"badge","set":-2}"#, "set"),
        (#"{"op":"badge","set":1.5}"#, "set"),
        (#"{"op":"badge","set":99999999999999999999999}"#, "set"),
        (#"{"op":"mode","set":"maybe"}"#, "set"),
        (#"{"op":"app","state":"asleep"}"#, "state"),
        (#"{"op":"list","limit":-1}"#, "limit"),
        (#"{"op":"list","limit":"ten"}"#, "limit"),
        (#"{"op":"subscribe","topics":["nope"]}"#, "nope"),
        (#"{"op":"push","payload":{"aps":{"alert":"x"}},"channel":"pigeon"}"#, "channel"),
        (#"{"op":1}"#, "op"),
    ])
    func malformedRequestsGetAUsefulErrorAndTheConnectionStaysUsable(request: String, field: String) throws {
        let server = try ServerProcess()
        let client = try SocketClient(path: server.socket)
        try client.send(Array((request + "\n").utf8))
        let reply = try client.readReply()
        #expect(reply["ok"] == false)
        let message = try #require(reply["error"]?.stringValue)
        #expect(message.contains(field), "\(message)")
        #expect(try client.request(["op": "ping"])["ok"] == true)
        #expect(try client.request(["op": "list"])["messages"] == .array([]))
    }

    @Test func junkBetweenObjectsIsReportedAndSkipped() throws {
        let server = try ServerProcess()
        let client = try SocketClient(path: server.socket)
        try client.send(Array("hello {\"op\":\"ping\"}\n".utf8))
        #expect(try client.readReply()["ok"] == false)
        #expect(try client.readReply()["ok"] == true)
    }

    @Test func anObjectOverTheLimitGetsAnErrorAndTheConnectionCloses() throws {
        let server = try ServerProcess()
        let client = try SocketClient(path: server.socket)
        let big = "{\"op\":\"ping\",\"pad\":\"" + String(repeating: "x", count: 70_000) + "\"}"
        try? client.send(Array(big.utf8))
        let reply = try client.readReply()
        #expect(reply["ok"] == false)
        #expect(reply["error"]?.stringValue?.contains("65536") == true)
        #expect(try client.readLine() == nil)
        #expect(try server.run(["ping"]).status == 0)
    }

    @Test func aPayloadOverTheAPNsLimitIsRefusedWithSizeAndLimit() throws {
        let server = try ServerProcess()
        let client = try SocketClient(path: server.socket)
        let body = String(repeating: "長", count: 1500)
        let reply = try client.request(["aps": ["alert": .string(body)]])
        #expect(reply["ok"] == false)
        let message = reply["error"]?.stringValue ?? ""
        #expect(message.contains("4096"))
        #expect(try client.request(["op": "list"])["messages"] == .array([]))
    }

    @Test func aStalledHalfObjectAndANonReadingClientDelayNobody() throws {
        let server = try ServerProcess()
        let stalled = try SocketClient(path: server.socket)
        try stalled.send(Array(#"{"op":"push","payload":{"aps":{"alert":"#.utf8))
        // A client that floods requests and never reads a reply.
        let ping = Array(#"{"op":"ping"}"#.utf8)
        let flood = [UInt8]((0..<200_000).flatMap { _ in ping })
        let path = server.socket
        // It blocks once the server stops reading it, and ends when the server goes away.
        let flooder = Thread { try? SocketClient(path: path).send(flood) }
        flooder.start()
        let started = Date()
        for index in 0..<20 {
            let result = try server.run(["send", "--body", "n\(index)"])
            #expect(result.status == 0)
        }
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try server.run(["badge"]).output == "20")
    }

    @Test func aBurstOfRequestsThenAHalfCloseGetsEveryReplyInOrderThenTheClose() throws {
        let server = try ServerProcess()
        let client = try RawClient(path: server.socket, timeout: 30)
        // 5000 requests in one write: the server reads them faster than its per-turn limit
        // (1024 a client) lets it answer, so most wait a few turns, read but not handled.
        let count = 5000
        var burst: [UInt8] = []
        for index in 0..<count {
            burst += Array(#"{"op":"push","payload":{"aps":{"alert":"burst \#(index)"}},"app":"com.example.burst"}"#.utf8)
        }
        try client.send(burst)
        client.finishSending()
        // Meanwhile another client is answered.
        let other = try RawClient(path: server.socket)
        #expect(try other.request(#"{"op":"ping"}"#)["ok"] == true)
        let replies = try client.readRepliesUntilClosed()
        #expect(replies.count == count)
        #expect(replies.map { $0["id"] } == (1...count).map { .number(JSONNumber($0)) })
        #expect(try server.run(["badge", "--app", "com.example.burst"]).output == "\(count)")

        // Small enough to be read whole, end of stream included, in the first turn: the
        // connection must stay open until the last of them is answered.
        let pinger = try RawClient(path: server.socket, timeout: 30)
        try pinger.send(Array(String(repeating: #"{"op":"ping"}"#, count: count).utf8))
        pinger.finishSending()
        let pongs = try pinger.readRepliesUntilClosed()
        #expect(pongs.count == count)
        #expect(pongs.allSatisfy { $0["ok"] == true })
    }

    @Test func twoHundredConcurrentClientsEachPushFiftyAllAcknowledgedAndStored() throws {
        let server = try ServerProcess()
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 200) { clientIndex in
            do {
                let client = try SocketClient(path: server.socket)
                var batch: [UInt8] = []
                for index in 0..<50 {
                    batch += Array(#"{"aps":{"alert":"c\#(clientIndex) m\#(index)"},"Simulator Target Bundle":"app\#(clientIndex % 7)"}"#.utf8)
                }
                try client.send(batch)
                for _ in 0..<50 where try client.readReply()["ok"] != true { failures.add() }
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
        #expect(try server.run(["badge"]).output == "10000")
        let newest = try JSON.parse(try server.run(["list", "--limit", "1", "--json"]).output).arrayValue
        #expect(newest?.first?.objectValue?["id"] == 10_000)
    }
}

/// A thread-safe count for concurrent tests.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
