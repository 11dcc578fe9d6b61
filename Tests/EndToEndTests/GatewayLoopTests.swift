import Foundation
import Glibc
import PushCore
import PushGateway
import PushStore
import Testing
import TestSupport
@testable import PushServer
@testable import pushdeck

/// The gateway inside the server's loop (attached as the executable attaches it), turn by turn, with a manual clock for its timeouts.
@Suite struct GatewayLoopTests {
    struct Loop {
        let server: Server
        let gateway: Gateway
        let clock: ManualClock
        let folder: TempFolder
        var port: Int { Int(gateway.address.port) }
    }

    func loop(_ change: (inout GatewayLimits) -> Void = { _ in }) throws -> Loop {
        let folder = TempFolder()
        let clock = ManualClock()
        let material = try TLSMaterial.local(in: folder.file("tls"))
        var configuration = GatewayConfiguration(
            address: GatewayAddress(host: "127.0.0.1", port: 0), certificatePath: material.certificatePath,
            keyPath: material.keyPath, caPath: material.caPath)
        change(&configuration.limits)
        let server = try Server(store: try Store.inMemory(), listener: nil, signals: nil, time: clock)
        let gateway = try Gateway(configuration: configuration, routes: APNsRoutes(), time: clock)
        ServerBuilder.attach(gateway, to: server)
        return Loop(server: server, gateway: gateway, clock: clock, folder: folder)
    }

    @Test func connectionsBeyondTheCapAreClosedAtOnceAndTheOthersStay() throws {
        let loop = try loop { $0.maxConnections = 2 }
        let first = try RawTCP(port: loop.port)
        let second = try RawTCP(port: loop.port)
        let third = try RawTCP(port: loop.port)
        loop.server.turn(host: nil)
        #expect(loop.gateway.connectionCount == 2)
        #expect(third.readUntilClosed(timeout: 2).closed)
        // The two within the cap are served.
        first.send("GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
        second.send("GET /y HTTP/1.1\r\nHost: a\r\n\r\n")
        for _ in 0..<4 where loop.gateway.connectionCount == 2 { loop.server.turn(host: nil) }
        #expect(String(decoding: first.readUntilClosed(timeout: 0.5).bytes, as: UTF8.self).hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(String(decoding: second.readUntilClosed(timeout: 0.5).bytes, as: UTF8.self).hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheHandshakeTimeout() throws {
        let loop = try loop()
        let silent = try RawTCP(port: loop.port)
        loop.server.turn(host: nil)
        #expect(loop.gateway.connectionCount == 1)
        loop.clock.advance(by: 9)
        loop.server.turn(host: nil)
        #expect(loop.gateway.connectionCount == 1, "closed before its 10 s")
        loop.clock.advance(by: 2)
        loop.server.turn(host: nil)
        #expect(loop.gateway.connectionCount == 0)
        #expect(silent.readUntilClosed(timeout: 2).closed)
    }

    @Test func aRequestThatArrivesTooSlowlyIsClosedButAnIdleOneStays() throws {
        let loop = try loop()
        let slow = try RawTCP(port: loop.port)
        let idle = try RawTCP(port: loop.port)
        slow.send("POST /3/device/00ff HTTP/1.1\r\nHost: a\r\n")
        idle.send("GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
        for _ in 0..<6 { loop.server.turn(host: nil) }
        #expect(String(decoding: idle.readUntilClosed(timeout: 0.5).bytes, as: UTF8.self).hasPrefix("HTTP/1.1 404"))
        loop.clock.advance(by: 31)
        loop.server.turn(host: nil)
        #expect(slow.readUntilClosed(timeout: 2).closed, "a half request is kept past 30 s")
        #expect(loop.gateway.connectionCount == 1, "the idle keep-alive connection was closed too")
    }

    @Test func aBodyTrickledInIsClosedThirtySecondsAfterItsFirstByte() throws {
        let loop = try loop()
        let slow = try RawTCP(port: loop.port)
        slow.send("POST /3/device/00ff HTTP/1.1\r\nHost: a\r\ncontent-length: 1000\r\n\r\n")
        for _ in 0..<3 { loop.server.turn(host: nil) }
        // A byte every 20 s: each comes well within 30 s of the one before, never within 30 s of the first.
        for second in [20, 40] {
            loop.clock.advance(by: 20)
            slow.send("x")
            // (With no connection left, a turn would sleep in poll for good.)
            for _ in 0..<3 where loop.gateway.connectionCount == 1 { loop.server.turn(host: nil) }
            if second == 20 { #expect(loop.gateway.connectionCount == 1, "closed before its 30 s") }
        }
        #expect(loop.gateway.connectionCount == 0, "a request trickling in is kept 40 s after its first byte")
        #expect(slow.readUntilClosed(timeout: 2).closed)
    }

    @Test func aGatewayPushIsStoredAndAnsweredAtTheEndOfItsTurn() throws {
        let loop = try loop()
        let client = try RawTCP(port: loop.port)
        let body = #"{"aps":{"alert":"after commit"}}"#
        client.send("POST /3/device/00ff HTTP/1.1\r\nHost: a\r\napns-topic: com.example.commit\r\nauthorization: \(APNsKeys.wellFormedAuthorization)\r\ncontent-length: \(body.utf8.count)\r\n\r\n\(body)")
        var answer = ""
        for _ in 0..<6 where answer.isEmpty {
            loop.server.turn(host: nil)
            answer = String(decoding: client.readUntilClosed(timeout: 0.2).bytes, as: UTF8.self)
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
        // By the time the answer is out, the push is in the store (read back, not from memory).
        let stored = try loop.server.store.page(ListQuery(limit: 10))
        #expect(stored.map(\.app) == ["com.example.commit"])
    }

    /// While the server commits a large turn it lets the gateway read ahead: a request that
    /// comes whole then is parsed but not routed (the server cannot take a request into a turn
    /// it is committing) — nothing of it is stored, logged or answered — and the next turn
    /// routes it first, before what that turn's poll finds, in the order it came.
    @Test func aRequestReadWhileTheServerCommitsIsRoutedFirstNextTurnInOrder() throws {
        let loop = try loop()
        let client = try RawTCP(port: loop.port)
        func push(_ text: String) -> String {
            let body = #"{"aps":{"alert":"\#(text)"}}"#
            return "POST /3/device/00ff HTTP/1.1\r\nHost: a\r\napns-topic: com.example.ahead\r\n"
                + "authorization: \(APNsKeys.wellFormedAuthorization)\r\ncontent-length: \(body.utf8.count)\r\n\r\n\(body)"
        }
        func stored() throws -> [String?] { Array(try loop.server.store.page(ListQuery(limit: 10)).map(\.body).reversed()) }
        client.send(push("first"))
        var answers = ""
        for _ in 0..<6 where answers.isEmpty {
            loop.server.turn(host: nil)
            answers = String(decoding: client.readUntilClosed(timeout: 0.2).bytes, as: UTF8.self)
        }
        #expect(answers.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answers)")

        client.send(push("second"))
        loop.gateway.readAhead()
        #expect(loop.gateway.hasAhead)
        #expect(try stored() == ["first"])
        #expect(loop.server.inbox.requestLog.select(RequestLogQuery()).count == 1)
        #expect(client.readUntilClosed(timeout: 0.2).bytes.isEmpty, "answered before it was routed")

        client.send(push("third"))
        loop.server.turn(host: nil)
        #expect(!loop.gateway.hasAhead)
        #expect(try stored() == ["first", "second", "third"])
        let log = loop.server.inbox.requestLog.select(RequestLogQuery())
        #expect(log.map(\.seq) == [1, 2, 3])
        #expect(log.map(\.status) == [200, 200, 200])
        // The digest taken ahead is the one the summary takes itself.
        let second = Array(#"{"aps":{"alert":"second"}}"#.utf8)
        #expect(log[1].notificationKey == "token:00ff:\(RequestSummary.digest(second))")
        answers = ""
        for _ in 0..<6 where answers.components(separatedBy: "HTTP/1.1 200 OK").count < 3 {
            answers += String(decoding: client.readUntilClosed(timeout: 0.2).bytes, as: UTF8.self)
            loop.server.turn(host: nil)
        }
        #expect(answers.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(answers)")
    }

    /// Reading ahead reads only the connections that were readable or had requests routed since
    /// it last ran or the time before: with many open connections and one busy, the idle ones
    /// cost it nothing. A connection it skipped is read by the next turn's poll, as before.
    @Test func readingAheadSkipsConnectionsIdleSinceItLastRan() throws {
        let loop = try loop()
        let clients = try (0..<2).map { _ in try RawTCP(port: loop.port) }
        func push(_ text: String) -> String {
            let body = #"{"aps":{"alert":"\#(text)"}}"#
            return "POST /3/device/00ff HTTP/1.1\r\nHost: a\r\napns-topic: com.example.idle\r\n"
                + "authorization: \(APNsKeys.wellFormedAuthorization)\r\ncontent-length: \(body.utf8.count)\r\n\r\n\(body)"
        }
        for (index, client) in clients.enumerated() { client.send(push("first \(index)")) }
        for _ in 0..<6 where (try loop.server.store.page(ListQuery(limit: 10))).count < 2 { loop.server.turn(host: nil) }
        #expect(try loop.server.store.page(ListQuery(limit: 10)).count == 2)

        loop.gateway.readAhead()
        loop.gateway.readAhead()
        #expect(!loop.gateway.hasAhead)
        // Both were idle since: what they send now waits for the next turn's poll.
        for (index, client) in clients.enumerated() { client.send(push("second \(index)")) }
        loop.gateway.readAhead()
        #expect(!loop.gateway.hasAhead)
        for _ in 0..<6 where (try loop.server.store.page(ListQuery(limit: 10))).count < 4 { loop.server.turn(host: nil) }
        #expect(try loop.server.store.page(ListQuery(limit: 10)).count == 4)
    }
}
