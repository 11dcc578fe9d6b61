import PushCore
import TestSupport

/// One app's messages (id → read) and icon badge.
struct AppLedger: Equatable {
    var messages: [Int: Bool] = [:]
    var icon = 0

    /// What an acknowledged operation did to this app: a delivered push adds 1 to the icon, reading
    /// an unread message takes 1 off (never below 0), `clear` zeroes it.
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
