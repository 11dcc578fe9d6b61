import Foundation
import PushJSON

// MARK: - Replies on the wire: the one place a reply becomes JSON

extension Reply {
    /// The reply as the wire's compact JSON object. Key order is part of the contract (scripts
    /// and the end-to-end tests compare lines): `ok` first, then each kind's fields as listed.
    public var wireObject: JSONObject {
        switch self {
        case .ok: Self.ok()
        case .push(let push): push.wireObject
        case .badge(let icon): Self.ok(("badge", .int(icon)))
        case .ledgers(let ledgers): Self.ok(("badge", .int(ledgers.badge)), ("serverBadge", .int(ledgers.serverBadge)), ("unread", .int(ledgers.unread)))
        case .policy(let ledgers, let policy):
            Self.ok(("badge", .int(ledgers.badge)), ("serverBadge", .int(ledgers.serverBadge)), ("unread", .int(ledgers.unread)),
                    ("policy", .string(policy.rawValue)))
        case .mode(let mode): Self.ok(("mode", .string(mode.rawValue)))
        case .appState(let state): Self.ok(("state", .string(state.rawValue)))
        case .muted(let app, let until):
            Self.ok(("app", .string(app)), ("muted", true), ("until", until.map { .string(RFC3339.string(from: $0)) } ?? .null))
        case .unmuted(let app): Self.ok(("app", .string(app)), ("muted", false))
        case .quiet(let quiet): Self.ok(("quiet", .string(quiet?.description ?? "off")))
        case .device(let device): Self.ok(("device", device.wireJSON))
        case .devices(let devices, let defaultOffline):
            Self.ok(("devices", .array(devices.map(\.wireJSON))), ("defaultDevice", .string(defaultOffline ? "offline" : "online")))
        case .deviceState(let token, let offline):
            Self.ok(("token", .string(orNull: token)), ("state", .string(offline ? "offline" : "online")))
        case .key(let key): Self.ok(("key", key.wireJSON))
        case .keys(let keys): Self.ok(("keys", .array(keys.map(\.wireJSON))))
        case .messages(let messages): Self.ok(("messages", .array(messages.map(\.wireJSON))))
        case .version(let version): Self.ok(("version", .string(version)))
        case .gateway(let address, let ca):
            ca.map { Self.ok(("address", .string(address)), ("ca", .string($0))) } ?? Self.ok(("address", .string(address)))
        case .credentials(let credentials, let address):
            switch credentials {
            case .apns(let keyId, let team, let token, let registered):
                Self.ok(("vendor", "apns"), ("registered", .bool(registered)), ("address", .string(address)),
                        ("keyId", .string(keyId)), ("team", .string(team)), ("token", .string(token)))
            case .jpush(let appKey, let masterSecret, let registered):
                Self.ok(("vendor", "jpush"), ("registered", .bool(registered)), ("address", .string(address)),
                        ("appKey", .string(appKey)), ("masterSecret", .string(masterSecret)))
            case .getui(let appId, let appKey, let masterSecret, let registered):
                Self.ok(("vendor", "getui"), ("registered", .bool(registered)), ("address", .string(address)),
                        ("appId", .string(appId)), ("appKey", .string(appKey)), ("masterSecret", .string(masterSecret)))
            case .fcm(let serviceAccount, let registered):
                Self.ok(("vendor", "fcm"), ("registered", .bool(registered)), ("address", .string(address)),
                        ("serviceAccount", .string(serviceAccount)))
            }
        case .state(let report):
            Self.ok(("badge", .int(report.badge.icon)), ("serverBadge", .int(report.badge.server)), ("unread", .int(report.unread)),
                    ("held", .int(report.held)), ("dropped", .int(report.dropped)), ("banner", .string(orNull: report.banner)),
                    ("callback", .string(orNull: report.callback)))
        case .activityPush(let push):
            Self.ok(("activity", .string(orNull: push.activity)), ("accepted", .bool(push.accepted)),
                    ("discarded", .string(orNull: push.why)), ("pushToken", .string(orNull: push.pushToken)))
        case .activities(let activities, let unmatched, let at):
            // `at`: the time the states are of, so a client reads the list back as it was decided.
            Self.ok(("activities", .array(activities.map { $0.wireJSON(at: at) })), ("unmatched", .array(unmatched.map(\.wireJSON))),
                    ("at", .string(RFC3339.string(from: at))))
        case .requests(let records): Self.ok(("requests", .array(records.map(\.wireJSON))))
        case .fault(let fault): Self.ok(("fault", .object(fault.wireObject)))
        case .faults(let faults): Self.ok(("faults", .array(faults.map { .object($0.wireObject) })))
        case .faultsCleared(let count): Self.ok(("cleared", .int(count)))
        case .channels(let channels):
            Self.ok(("channels", .array(channels.map(\.wireJSON))))
        case .broadcast(let broadcast):
            Self.ok(("broadcast", .string(broadcast.channel)), ("reached", .int(broadcast.reached)), ("stored", .int(broadcast.stored)))
        case .error(let message): JSONObject([(key: "ok", value: false), (key: "error", value: .string(message))])
        case .forwarded(let id, let topic): Self.ok(("forwarded", .string(id)), ("topic", .string(topic)))
        case .unavailable(let message):
            JSONObject([(key: "ok", value: false), (key: "error", value: .string(message)), (key: "unavailable", value: true)])
        case .bus(let object): object
        case .clock(let elapsed):
            elapsed.map { Self.ok(("clock", "manual"), ("elapsed", .number(JSONNumber(text: String($0))))) } ?? Self.ok(("clock", "system"))
        }
    }

    /// The reply as one wire line: compact JSON and `\n`.
    public var wireLine: [UInt8] {
        var bytes: [UInt8] = []
        writeLine(into: &bytes)
        return bytes
    }

    /// Appends the reply as one wire line to a write buffer. The reply to a delivered push of
    /// one message, the socket's commonest line by far, is written straight from its numbers:
    /// building its object first was 5 % of a pipelined push's instructions. Its bytes are the
    /// object's, member for member (a test holds the two together).
    public func writeLine(into bytes: inout [UInt8]) {
        if case .push(let push) = self, push.also.isEmpty, case .delivered(let id) = push.fate {
            bytes.append(contentsOf: #"{"ok":true,"id":"#.utf8)
            bytes.append(contentsOf: String(id).utf8)
            bytes.append(contentsOf: #","badge":"#.utf8)
            bytes.append(contentsOf: String(push.badge).utf8)
            bytes.append(contentsOf: #","delivered":true}"#.utf8)
            bytes.append(0x0A)
            return
        }
        wireObject.writeLine(into: &bytes)
    }

    /// `{"ok":true}` and `fields` in the order given; built as its member list, with no
    /// dictionary literal's extra array (one per push showed in profiles).
    private static func ok(_ fields: (String, JSON)...) -> JSONObject {
        var members: [(key: String, value: JSON)] = [(key: "ok", value: true)]
        members.reserveCapacity(fields.count + 1)
        for (key, value) in fields { members.append((key: key, value: value)) }
        return JSONObject(members)
    }
}

extension InboxReport {
    /// The report from a `state` reply line, as `Reply.state` writes it; nil when the line is
    /// not one (a refusal, or a server that does not know the request).
    public init?(wire reply: JSONObject) {
        guard reply["ok"] == .bool(true), let icon = reply["badge"]?.intValue, let server = reply["serverBadge"]?.intValue,
            let unread = reply["unread"]?.intValue, let held = reply["held"]?.intValue, let dropped = reply["dropped"]?.intValue
        else { return nil }
        self.init(
            badge: Badge(icon: icon, server: server), unread: unread, held: held, dropped: dropped,
            banner: reply["banner"]?.stringValue, callback: reply["callback"]?.stringValue)
    }
}

extension PushReply {
    /// `{"ok":true,"id":N,"badge":B,"delivered":true}`, or for a push not delivered now its
    /// `delivered:false` with `held`, `stored` and `reason` as they apply, `badge` last; with
    /// further messages, `also` at the end lists each one's `channel` and fate.
    public var wireObject: JSONObject {
        var members: [(key: String, value: JSON)] = [(key: "ok", value: true)]
        members.reserveCapacity(7)
        let badge = (key: "badge", value: JSON.int(self.badge))
        if let id = fate.id { members.append((key: "id", value: .id(id))) }
        switch fate {
        case .delivered:
            members += [badge, (key: "delivered", value: true)]
        case .replaced:
            members += [badge, (key: "delivered", value: true), (key: "replaced", value: true)]
        case .held, .storedOffline, .dropped:
            members += fate.undeliveredMembers
            members.append(badge)
        }
        if !also.isEmpty {
            members.append((key: "also", value: .array(also.map(\.wireJSON))))
        }
        return JSONObject(members)
    }
}

extension FurtherPush {
    /// `{"channel":C,"id":N,"delivered":…}` and `held`, `stored`, `reason` as they apply.
    var wireJSON: JSON {
        var members: [(key: String, value: JSON)] = [(key: "channel", value: .string(channel.rawValue))]
        if let id = fate.id { members.append((key: "id", value: .id(id))) }
        if fate.isDelivered {
            members.append((key: "delivered", value: true))
        } else {
            members += fate.undeliveredMembers
        }
        return .object(JSONObject(members))
    }
}

extension PushFate {
    /// `delivered:false` and what follows it for a push not delivered now.
    fileprivate var undeliveredMembers: [(key: String, value: JSON)] {
        var members: [(key: String, value: JSON)] = [(key: "delivered", value: false)]
        switch self {
        case .delivered, .replaced: return [(key: "delivered", value: true)]
        case .held: members.append((key: "held", value: true))
        case .storedOffline: members.append((key: "stored", value: true))
        case .dropped(.expiresOffline): members.append((key: "stored", value: false))
        case .dropped(.modeOff), .dropped(.repeated): break
        }
        if let reason { members.append((key: "reason", value: .string(reason))) }
        return members
    }
}

extension JSON {
    fileprivate static func int(_ value: Int) -> JSON { .number(JSONNumber(value)) }
    fileprivate static func id(_ value: Int64) -> JSON { .number(JSONNumber(value)) }
}

// MARK: - Lines

extension JSON {
    /// The value as one wire line: compact JSON and `\n`.
    public var wireLine: [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes)
        bytes.append(0x0A)
        return bytes
    }
}

extension JSONObject {
    /// The object as one wire line: compact JSON and `\n`.
    public var wireLine: [UInt8] {
        var bytes: [UInt8] = []
        writeLine(into: &bytes)
        return bytes
    }

    /// Appends the object as one wire line (compact JSON and `\n`) to a write buffer.
    public func writeLine(into bytes: inout [UInt8]) {
        write(into: &bytes)
        bytes.append(0x0A)
    }
}
