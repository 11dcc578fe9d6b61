import Foundation
import Glibc
import PushCore
import Testing
import TestSupport

/// `kill -9` during a mixed load, twenty times on one database (issue 6): after each restart
/// every acknowledged change is there and each app's badge is what the acknowledged operations
/// imply.
///
/// Each load client owns one app and waits for each reply before its next request, so its
/// outcomes do not depend on how the clients interleave: the order within an app is the client's
/// own, and the only cross-app input — the push mode a dedicated client keeps switching — is
/// reported in each push reply (`delivered`). At the kill, each client has at most one request in
/// flight; it may or may not have been committed, so the check accepts the state with or without
/// it, then carries the state found on disk into the next round.
@Suite struct CrashSafetyTests {
    static let rounds = 20
    static let apps = (0..<4).map { "com.example.crash\($0)" }

    @Test func killNineDuringAMixedLoadLosesNoAcknowledgedChange() throws {
        let folder = TempFolder()
        var model = CrashModel(apps: Self.apps)
        var seeds = SeededRandom(seed: 0xC0FF_EE00)
        var server = try ServerProcess(folder: folder)
        var totalAcknowledged = 0
        var committedInFlight = 0
        for round in 0..<Self.rounds {
            let seed = seeds.next()
            let killAfter = 30 + Int(seed % 250)
            let load = CrashLoad(socket: server.socket, apps: Self.apps, model: model, seed: seed)
            try load.start()
            let reached = load.waitForAcknowledged(killAfter)
            server.kill9()
            let logs = load.finish()
            let acknowledged = logs.reduce(0) { $0 + $1.acknowledged.count }
            totalAcknowledged += acknowledged
            print("crash round \(round): seed \(String(seed, radix: 16)), kill -9 after \(acknowledged) acknowledged operations, "
                + "\(logs.filter { $0.inFlight != nil }.count) in flight")
            #expect(reached, "round \(round): the load did not reach \(killAfter) acknowledged operations")
            for log in logs {
                #expect(log.failures.isEmpty, "round \(round) \(log.name): \(log.failures.prefix(3))")
            }

            server = try ServerProcess(folder: folder)
            let found = try CrashState(server, apps: Self.apps)
            let resolved = try #require(
                model.resolve(found, after: logs),
                "round \(round) (seed \(String(seed, radix: 16))): state after restart matches no outcome of the acknowledged operations:\n\(found)\nexpected from\n\(model.applying(logs.map(\.acknowledged)))")
            model = resolved.model
            committedInFlight += resolved.committedInFlight
        }
        print("crash safety: \(Self.rounds) kill -9 rounds, \(totalAcknowledged) acknowledged operations, none lost; "
            + "\(committedInFlight) unacknowledged in-flight changes were found committed")
        #expect(totalAcknowledged > Self.rounds * 30)
    }
}

// MARK: - The load

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

// MARK: - The model

/// One app's messages (id → read) and icon badge.
struct AppLedger: Equatable {
    var messages: [Int: Bool] = [:]
    var icon = 0

    /// What an acknowledged operation did to this app (DESIGN §5).
    mutating func apply(_ entry: Acknowledged) {
        switch entry.op {
        case .push:
            if let id = entry.deliveredId {
                messages[id] = false
                icon += 1
            }
        case .read(let id):
            if messages[id] == false {
                messages[id] = true
                icon = max(0, icon - 1)
            }
        case .readAll:
            let unread = messages.filter { !$0.value }.count
            for id in messages.keys { messages[id] = true }
            icon = max(0, icon - unread)
        case .clear:
            icon = 0
        case .mode, .look:
            break
        }
    }

    /// True when `found` is what an unacknowledged `op` leaves when it was committed after all.
    ///
    /// A committed push took an id this client never saw: any id not already here (another
    /// client's push of the same turn may have been acknowledged with a higher one).
    func couldBecome(_ found: AppLedger, by op: CrashOp) -> Bool {
        switch op {
        case .push:
            let extra = Set(found.messages.keys).subtracting(messages.keys)
            guard extra.count == 1, let id = extra.first, found.messages[id] == false else { return false }
            var with = self
            with.apply(Acknowledged(op: op, deliveredId: id))
            return with == found
        case .read, .readAll, .clear:
            var with = self
            with.apply(Acknowledged(op: op))
            return with == found
        case .mode, .look:
            return false
        }
    }
}

/// The expected state: every app's ledger and the push mode.
struct CrashModel: CustomStringConvertible {
    var apps: [String: AppLedger]
    var mode: PushMode = .on

    init(apps names: [String]) {
        apps = Dictionary(uniqueKeysWithValues: names.map { ($0, AppLedger()) })
    }

    /// The model after every client's acknowledged operations.
    func applying(_ logs: [[Acknowledged]]) -> CrashModel {
        var next = self
        for log in logs {
            for entry in log {
                switch entry.op {
                case .push(let app), .readAll(let app), .clear(let app):
                    next.apps[app]?.apply(entry)
                case .read(let id):
                    if let app = next.apps.first(where: { $0.value.messages[id] != nil })?.key { next.apps[app]?.apply(entry) }
                case .mode(let mode):
                    next.mode = mode
                case .look:
                    break
                }
            }
        }
        return next
    }

    /// The state found after a restart, when it is what the acknowledged operations imply — with
    /// or without each client's one operation in flight — else nil.
    func resolve(_ found: CrashState, after logs: [ClientLog]) -> (model: CrashModel, committedInFlight: Int)? {
        var expected = applying(logs.map(\.acknowledged))
        var committed = 0
        guard found.serverBadgesFollow, Set(found.apps.keys) == Set(expected.apps.keys) else { return nil }
        for (app, ledger) in expected.apps {
            guard let actual = found.apps[app] else { return nil }
            if actual == ledger { continue }
            guard let op = logs.first(where: { $0.name == app })?.inFlight, ledger.couldBecome(actual, by: op) else {
                return nil
            }
            expected.apps[app] = actual
            committed += 1
        }
        if found.mode != expected.mode {
            guard logs.contains(where: { $0.inFlight == .mode(found.mode) }) else { return nil }
            expected.mode = found.mode
            committed += 1
        }
        return (expected, committed)
    }

    var description: String {
        apps.keys.sorted().map { app in
            let ledger = apps[app] ?? AppLedger()
            return "\(app): icon \(ledger.icon), \(ledger.messages.count) messages, \(ledger.messages.filter { !$0.value }.count) unread"
        }.joined(separator: "\n") + "\nmode \(mode.rawValue)"
    }
}

/// The state a restarted server reports through the socket.
struct CrashState: CustomStringConvertible {
    var apps: [String: AppLedger] = [:]
    var mode: PushMode = .on
    /// With badge sync on (never switched off here), the server badge follows the icon.
    var serverBadgesFollow = true

    init(_ server: ServerProcess, apps names: [String]) throws {
        let client = try RawClient(path: server.socket, timeout: 10)
        for app in names {
            var ledger = AppLedger()
            let badge = try client.request(#"{"op":"badge","app":"\#(app)"}"#)
            ledger.icon = badge["badge"]?.intValue ?? -1
            if badge["serverBadge"] != badge["badge"] { serverBadgesFollow = false }
            var before: Int?
            while true {
                let page = try client.request(#"{"op":"list","app":"\#(app)","limit":1000\#(before.map { #","before":\#($0)"# } ?? "")}"#)
                let messages = page["messages"]?.arrayValue ?? []
                for message in messages {
                    guard let object = message.objectValue, let id = object["id"]?.intValue else { continue }
                    ledger.messages[id] = object["read"] == true
                }
                guard messages.count == 1000, let last = messages.last?.objectValue?["id"]?.intValue else { break }
                before = last
            }
            apps[app] = ledger
        }
        mode = PushMode(rawValue: try client.request(#"{"op":"mode"}"#)["mode"]?.stringValue ?? "") ?? .on
    }

    var description: String {
        apps.keys.sorted().map { app in
            let ledger = apps[app] ?? AppLedger()
            return "\(app): icon \(ledger.icon), \(ledger.messages.count) messages, \(ledger.messages.filter { !$0.value }.count) unread"
        }.joined(separator: "\n") + "\nmode \(mode.rawValue), server badges follow: \(serverBadgesFollow)"
    }
}
