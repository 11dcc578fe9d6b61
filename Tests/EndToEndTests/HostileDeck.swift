import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// A real server with a few messages, badges on two apps and one read message: state a hostile
/// request could damage.
final class HostileDeck {
    let server: ServerProcess
    private var baseline: StoredState

    init() throws {
        server = try ServerProcess()
        let client = try RawClient(path: server.socket)
        for (app, title) in [("com.example.a", "one"), ("com.example.b", "two"), ("com.example.a", "three")] {
            let reply = try client.request(#"{"aps":{"alert":{"title":"\#(title)","body":"b"}},"Simulator Target Bundle":"\#(app)"}"#)
            guard reply["ok"] == true else { throw RawClientError("seeding failed: \(reply)") }
        }
        _ = try client.request(#"{"op":"read","id":2}"#)
        _ = try client.request(#"{"op":"badge","app":"com.example.b","set":7}"#)
        baseline = try StoredState(server)
    }

    /// After a hostile case: the process is alive, a fresh connection's `ping` is answered within
    /// 2 s, and — when every reply was a refusal — nothing stored changed.
    func expectSurvived(_ name: String, replies: [JSONObject], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectPingAtOnce(name, sourceLocation: sourceLocation)
        let now = try StoredState(server)
        if replies.allSatisfy({ $0["ok"] == false }) {
            #expect(now == baseline, "\(name) changed stored state:\n\(now)\nwas\n\(baseline)", sourceLocation: sourceLocation)
        }
        baseline = now
    }

    /// `ping` on a fresh connection, answered within 2 s.
    func expectPingAtOnce(_ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(server.process.isRunning, "\(name): the server died\n\(server.serverLog)", sourceLocation: sourceLocation)
        let started = Date()
        let reply = try RawClient(path: server.socket, timeout: 2).request(#"{"op":"ping"}"#)
        let elapsed = Date().timeIntervalSince(started)
        #expect(reply["ok"] == true, "\(name): \(reply)", sourceLocation: sourceLocation)
        #expect(elapsed < 2, "\(name): ping took \(elapsed) s", sourceLocation: sourceLocation)
    }

    /// A case changed state on purpose: it becomes the new baseline.
    func acceptChanges() throws { baseline = try StoredState(server) }
}

/// What `list --json`, `badge`, `mode` and `app` show — everything a refused request must leave
/// alone — read through the socket.
struct StoredState: Equatable, CustomStringConvertible {
    var replies: [JSONObject]

    static let requests = [
        #"{"op":"list","limit":1000}"#, #"{"op":"badge"}"#, #"{"op":"badge","app":"com.example.a"}"#,
        #"{"op":"badge","app":"com.example.b"}"#, #"{"op":"badge","app":"default"}"#, #"{"op":"mode"}"#,
        #"{"op":"app"}"#,
    ]

    init(_ server: ServerProcess) throws {
        let client = try RawClient(path: server.socket)
        replies = try Self.requests.map { try client.request($0) }
    }

    var description: String { replies.map { JSON.object($0).compactText }.joined(separator: "\n") }
}

/// Replies up to and including the next `ping` reply (the one with a version); returns the ones
/// before it.
func repliesUntilPing(_ client: RawClient) throws -> [JSONObject] {
    var replies: [JSONObject] = []
    while true {
        let reply = try client.readReply()
        if reply["version"] != nil { return replies }
        replies.append(reply)
    }
}

/// Failures gathered from concurrent clients.
final class Tally: @unchecked Sendable {
    // @unchecked: `list` is guarded by `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}
