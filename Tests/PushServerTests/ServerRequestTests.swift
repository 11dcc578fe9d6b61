import Foundation
import PushCore
import PushServer
import PushStore
import Testing
import TestSupport

/// Request handling against a real (in-memory SQLite) store, without sockets: the path a key in
/// the UI takes, and the same code a socket request runs.
@Suite struct ServerRequestTests {
    func makeServer() throws -> (Server, ManualClock) {
        let clock = ManualClock()
        let server = try Server(store: try Store.inMemory(), listener: nil, signals: nil, time: clock)
        return (server, clock)
    }

    @Test func aPushIsStoredAndListed() throws {
        let (server, _) = try makeServer()
        let reply = server.perform(.push(PushRequest(payloadText: #"{"aps":{"alert":"hi"},"Simulator Target Bundle":"com.x"}"#)))
        #expect(reply["ok"] == true)
        #expect(reply["id"] == 1)
        let list = server.perform(.list(ListQuery()))
        let message = try #require(list["messages"]?.arrayValue?.first?.objectValue)
        #expect(message["app"] == "com.x")
        #expect(message["body"] == "hi")
        #expect(server.inbox.badge(of: "com.x").icon == 1)
    }

    @Test func readingAnUnknownIdChangesNothing() throws {
        let (server, _) = try makeServer()
        _ = server.perform(.push(PushRequest(payloadText: #"{"aps":{"alert":"hi"}}"#)))
        let reply = server.perform(.read(.ids([1, 42])))
        #expect(reply["ok"] == false)
        #expect(reply["error"]?.stringValue?.contains("42") == true)
        #expect(server.inbox.totalBadge == 1)
        #expect(server.inbox.totalUnread == 1)
    }

    @Test func aRefusedPayloadStoresNothing() throws {
        let (server, _) = try makeServer()
        let reply = server.perform(.push(PushRequest(payloadText: #"{"aps":{"badge":"seven"}}"#)))
        #expect(reply["ok"] == false)
        #expect(server.perform(.list(ListQuery()))["messages"] == .array([]))
        #expect(server.inbox.nextId == 1)
    }

    @Test func modeAndAppWithoutAValueReportTheCurrentOne() throws {
        let (server, _) = try makeServer()
        #expect(server.perform(.mode(nil))["mode"] == "on")
        #expect(server.perform(.app(nil))["state"] == "foreground")
        _ = server.perform(.mode(.off))
        #expect(server.perform(.mode(nil))["mode"] == "off")
    }

    @Test func theSystemClockIsToldButNeverMoved() throws {
        let server = try Server(store: try Store.inMemory(), listener: nil, signals: nil)
        #expect(server.reply(to: .clock(advance: nil)) == .clock(elapsed: nil))
        guard case .error(let message) = server.reply(to: .clock(advance: 5)) else { Issue.record("a system clock was moved"); return }
        #expect(message.contains("--clock manual"))
    }

    /// Moved on past a banner's stay, the manual clock meets the banner's deadlines on the way:
    /// the banner has left, as five seconds of waiting would have had it.
    @Test func aManualClockMovedOnRunsTheBannerOut() throws {
        let (server, clock) = try makeServer()
        _ = server.perform(.push(PushRequest(payloadText: #"{"aps":{"alert":{"title":"Hello"}}}"#)))
        #expect(server.reply(to: .clock(advance: 0.5)) == .clock(elapsed: 0.5))
        guard case .state(let shown) = server.reply(to: .state(app: nil, message: nil)) else { Issue.record("no state"); return }
        #expect(shown.banner == "Hello")
        #expect(server.reply(to: .clock(advance: 5.5)) == .clock(elapsed: 6))
        guard case .state(let gone) = server.reply(to: .state(app: nil, message: nil)) else { Issue.record("no state"); return }
        #expect(gone.banner == nil)
        #expect(clock.elapsed == 6)
    }
}

