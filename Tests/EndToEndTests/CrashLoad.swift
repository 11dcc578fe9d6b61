import Foundation
import PushCore
import TestSupport
import PushJSON

/// One operation a load client sent.
enum CrashOp: Equatable {
    case push(app: String)
    case read(id: Int)
    case readAll(app: String)
    case clear(app: String)
    case mode(PushMode)
    case look
}

/// What an acknowledged operation did, as its reply says.
struct Acknowledged: Equatable {
    var op: CrashOp
    /// For a push: the new message's id when delivered, nil when dropped (push mode off).
    var deliveredId: Int?
    var badge: Int?
}

/// What one client did before the kill.
struct ClientLog {
    var name: String
    var acknowledged: [Acknowledged] = []
    var inFlight: CrashOp?
    var failures: [String] = []
}

/// Four app clients and one mode client, each on its own thread and connection.
final class CrashLoad: @unchecked Sendable {
    // @unchecked: `logs` and `count` are guarded by `condition`; the rest is immutable.
    let socket: String
    let apps: [String]
    let model: CrashModel
    let seed: UInt64
    private let condition = NSCondition()
    private var logs: [ClientLog] = []
    private var count = 0
    private let group = DispatchGroup()

    init(socket: String, apps: [String], model: CrashModel, seed: UInt64) {
        self.socket = socket
        self.apps = apps
        self.model = model
        self.seed = seed
    }

    /// Connects every client first (so none arrives after the kill), then lets them run.
    func start() throws {
        let clients = try (0...apps.count).map { _ in try RawClient(path: socket, timeout: 10) }
        for (index, client) in clients.enumerated() {
            DispatchQueue.global().async(group: group) { [self] in
                let log = index < apps.count ? runAppClient(index, client) : runModeClient(client)
                condition.withLock { logs.append(log) }
            }
        }
    }

    /// Waits (at most 30 s, so a wedged server fails instead of hanging) until `target`
    /// operations were acknowledged.
    func waitForAcknowledged(_ target: Int) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        condition.lock()
        defer { condition.unlock() }
        while count < target {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Waits for every client to notice the server is gone.
    func finish() -> [ClientLog] {
        group.wait()
        return condition.withLock { logs.sorted { $0.name < $1.name } }
    }

    private func acknowledge(_ entry: Acknowledged, in log: inout ClientLog) {
        log.acknowledged.append(entry)
        condition.withLock {
            count += 1
            condition.broadcast()
        }
    }

    /// Pushes, reads, read-alls, clears and looks for one app, each after the previous reply.
    private func runAppClient(_ index: Int, _ client: RawClient) -> ClientLog {
        let app = apps[index]
        var log = ClientLog(name: app)
        var random = SeededRandom(seed: seed ^ UInt64(index + 1) &* 0x9e37_79b9)
        var state = model.apps[app] ?? AppLedger()
        var serial = 0
        while true {
            let roll = random.next() % 100
            let unread = state.messages.filter { !$0.value }.keys.sorted()
            let op: CrashOp
            let text: String
            switch roll {
            case 0..<55:
                serial += 1
                op = .push(app: app)
                text = #"{"aps":{"alert":{"title":"crash \#(serial)","body":"seed \#(seed)"}},"Simulator Target Bundle":"\#(app)"}"#
            case 55..<80 where !state.messages.isEmpty:
                let pool = unread.isEmpty || random.next() % 4 == 0 ? state.messages.keys.sorted() : unread
                let id = pool[Int(random.next() % UInt64(pool.count))]
                op = .read(id: id)
                text = #"{"op":"read","id":\#(id)}"#
            case 80..<85:
                op = .readAll(app: app)
                text = #"{"op":"read","all":true,"app":"\#(app)"}"#
            case 85..<92:
                op = .clear(app: app)
                text = #"{"op":"badge","app":"\#(app)","clear":true}"#
            default:
                op = .look
                text = #"{"op":"list","app":"\#(app)","limit":5}"#
            }
            log.inFlight = op
            guard let reply = try? client.request(text) else { return log }
            log.inFlight = nil
            guard reply["ok"] == true else {
                log.failures.append("\(text) → \(JSON.object(reply).compactText)")
                return log
            }
            var entry = Acknowledged(op: op, badge: reply["badge"]?.intValue)
            if case .push = op, reply["delivered"] == true { entry.deliveredId = reply["id"]?.intValue }
            state.apply(entry)
            switch op {
            case .push, .readAll, .clear:
                // This client alone moves this app's badge: each reply must say what the model does.
                if entry.badge != state.icon {
                    log.failures.append("\(text) → badge \(entry.badge ?? -1), the model says \(state.icon)")
                }
            default:
                break
            }
            acknowledge(entry, in: &log)
        }
    }

    /// Switches push mode on and off, with a few looks in between.
    private func runModeClient(_ client: RawClient) -> ClientLog {
        var log = ClientLog(name: "~mode")
        var random = SeededRandom(seed: seed ^ 0xABCD)
        var mode = model.mode
        while true {
            let op: CrashOp
            let text: String
            if random.next() % 4 == 0 {
                mode = mode == .on ? .off : .on
                op = .mode(mode)
                text = #"{"op":"mode","set":"\#(mode.rawValue)"}"#
            } else {
                op = .look
                text = random.next() % 2 == 0 ? #"{"op":"badge"}"# : #"{"op":"list","limit":3}"#
            }
            log.inFlight = op
            guard let reply = try? client.request(text) else { return log }
            log.inFlight = nil
            guard reply["ok"] == true else {
                log.failures.append("\(text) → \(JSON.object(reply).compactText)")
                return log
            }
            acknowledge(Acknowledged(op: op), in: &log)
        }
    }
}
