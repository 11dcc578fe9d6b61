import PushCore
import PushServer
import PushStore
import Foundation
import PushJSON

/// Fuzz target: the request handler, in process — the framer, `Request.decode(frame:)` and
/// `Server.perform` on an in-memory store, the path every socket request takes.
///
/// The input is a session: a stream of requests handled in order. Every reply must be an object
/// with a boolean `ok` that survives the wire, and a refused request must leave the inbox exactly
/// as it was (nothing stored changes when the answer is no).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let server = Session.server() else { return 0 }
    var framer = StreamFramer(limit: 64 * 1024)
    framer.append(UnsafeBufferPointer(start: data, count: size))
    var handled = 0
    while handled < 64 {
        let frame: [UInt8]?
        do {
            frame = try framer.next()
        } catch {
            if case .tooLarge = error { break }
            continue
        }
        guard let frame else { break }
        handled += 1
        guard let request = try? Request.decode(frame: frame) else { continue }
        let before = server.inbox
        let reply = server.perform(request)
        guard case .bool(let ok) = reply["ok"] else {
            require(false, "a reply without a boolean ok: \(JSON.object(reply).compactText)")
            return 0
        }
        let line = JSON.object(reply).compactText
        require((try? JSON.parse(line)) == .object(reply), "a reply does not survive the wire: \(line)")
        if !ok {
            require(server.inbox == before, "a refused request changed the inbox: \(line)")
        }
    }
    return 0
}

/// The server sessions run against.
///
/// Opening a store costs milliseconds, so a server serves up to 100 inputs before a fresh one
/// replaces it (the invariants are checked per request, so state carried over only widens what
/// is tried). `FUZZ_FRESH=1` gives every input a fresh server, to reproduce a saved crash alone.
enum Session {
    // libFuzzer calls the target from one thread only.
    nonisolated(unsafe) static var current: Server?
    nonisolated(unsafe) static var uses = 0
    static let fresh = getenv("FUZZ_FRESH").map { String(cString: $0) == "1" } ?? false

    static func server() -> Server? {
        uses += 1
        if let current, !fresh, uses < 100 { return current }
        current?.store.close()
        uses = 0
        do {
            current = try Server(store: try Store.inMemory(), listener: nil, signals: nil, time: FuzzTime())
        } catch {
            require(false, "cannot open an in-memory store: \(error)")
        }
        return current
    }
}

/// A clock that never moves: the session's outcome depends on its input only.
struct FuzzTime: TimeSource {
    var now: Instant { Instant(nanoseconds: 1_000_000_000) }
    var wallNow: Date { Date(timeIntervalSince1970: 1_764_496_800) }
}
