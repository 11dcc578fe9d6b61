import PushJSON

/// Encoding: the inverse of `Request.decode(frame:)`, so every client builds its request
/// through the one wire layer instead of by hand: no front door writes the wire format itself.
extension Request {
    /// The request as one compact JSON object (no trailing newline); `decode` of it gives the
    /// same request back. A push's payload text goes in byte for byte as it is.
    public func encode() -> [UInt8] {
        if case .push(let push) = self {
            var bytes: [UInt8] = Array(#"{"op":"push""#.utf8)
            if let app = push.app { append("app", .string(app), to: &bytes) }
            if let channel = push.channel { append("channel", .string(channel.rawValue), to: &bytes) }
            if push.offline { append("offline", true, to: &bytes) }
            if let collapseId = push.collapseId { append("collapseId", .string(collapseId), to: &bytes) }
            if let pushType = push.pushType { append("pushType", .string(pushType), to: &bytes) }
            if let priority = push.priority { append("priority", .number(JSONNumber(priority)), to: &bytes) }
            if let token = push.token { append("token", .string(token), to: &bytes) }
            bytes += Array(#","payload":"#.utf8)
            bytes += Array(push.payloadText.utf8)
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }
        var bytes: [UInt8] = []
        JSON.object(object).write(into: &bytes)
        return bytes
    }

    /// The request as one wire line: `encode()` and `\n`.
    public var wireLine: [UInt8] { encode() + [0x0A] }

    /// Every request but `push` as its JSON object (a push's payload is kept as text instead).
    private var object: JSONObject {
        var object: JSONObject = ["op": .string(op)]
        switch self {
        case .push:
            break
        case .read(.ids(let ids)), .delete(let ids):
            object["ids"] = .array(ids.map { .number(JSONNumber($0)) })
        case .read(.all(let app)):
            object["all"] = true
            if let app { object["app"] = .string(app) }
        case .badge(let app, let change, let sync):
            if let app { object["app"] = .string(app) }
            switch change {
            case .set(let value): object["set"] = .number(JSONNumber(value))
            case .clear: object["clear"] = true
            case nil: break
            }
            if let sync { object["sync"] = .bool(sync) }
        case .mode(let mode):
            if let mode { object["set"] = .string(mode.rawValue) }
        case .app(let state):
            if let state { object["state"] = .string(state.rawValue) }
        case .list(let query):
            object["limit"] = .number(JSONNumber(query.limit))
            if query.unread { object["unread"] = true }
            if let before = query.before { object["before"] = .number(JSONNumber(before)) }
            if let app = query.app { object["app"] = .string(app) }
        case .subscribe(let topics):
            object["topics"] = .array(topics.map { .string($0.rawValue) })
        case .ping, .bus:
            break
        case .clock(let advance):
            if let advance { object["advance"] = .number(JSONNumber(text: String(advance))) }
        case .reset(let app, let all):
            if let app { object["app"] = .string(app) }
            if all { object["all"] = true }
        case .gateway:
            break
        case .credentials(let query):
            object["credentials"] = .string(query.vendor.rawValue)
            if let keyId = query.keyId { object["keyId"] = .string(keyId) }
            if let team = query.team { object["team"] = .string(team) }
        case .device(let command):
            object = command.wireObject
        case .key(let command):
            object = command.wireObject
        case .state(let app, let message):
            if let app { object["app"] = .string(app) }
            if let message { object["message"] = .number(JSONNumber(message)) }
        case .badgePolicy(let app, let policy):
            if let app { object["app"] = .string(app) }
            object["policy"] = policy.map { .string($0.rawValue) } ?? true
        case .sdkBadge(let app, let call):
            if let app { object["app"] = .string(app) }
            object["sdk"] = .string(call.sdk.rawValue)
            object["call"] = .string(call.call)
            if call.takesValue { object["value"] = .number(JSONNumber(call.value)) }
        case .mute(let app, let seconds):
            object["app"] = .string(app)
            if let seconds { object["for"] = .number(JSONNumber(seconds)) }
        case .unmute(let app):
            object["app"] = .string(app)
        case .quiet(let quiet):
            if let quiet { object["set"] = .string(quiet?.description ?? "off") }
        case .activity(.list(let app)):
            object["action"] = "list"
            if let app { object["app"] = .string(app) }
        case .activity(.dismiss(let id)):
            object["action"] = "dismiss"
            object["id"] = .string(id)
        case .requests(let query):
            if let vendor = query.vendor { object["vendor"] = .string(vendor.rawValue) }
            if query.since > 0 { object["since"] = .number(JSONNumber(query.since)) }
        case .fault(.add(let spec)):
            object["action"] = "add"
            for member in spec.wireObject.members { object[member.key] = member.value }
        case .fault(.list):
            object["action"] = "list"
        case .fault(.clear(let id)):
            object["action"] = "clear"
            if let id { object["id"] = .number(JSONNumber(id)) }
        case .channel(let command):
            command.encode(into: &object)
        }
        return object
    }

    /// The request's `op`, as the wire names it.
    public var op: String {
        switch self {
        case .push: "push"
        case .read: "read"
        case .delete: "delete"
        case .badge: "badge"
        case .mode: "mode"
        case .app: "app"
        case .list: "list"
        case .subscribe: "subscribe"
        case .ping: "ping"
        case .reset: "reset"
        case .gateway, .credentials: "gateway"
        case .device: "device"
        case .key: "key"
        case .state: "state"
        case .badgePolicy, .sdkBadge: "badge"
        case .mute: "mute"
        case .unmute: "unmute"
        case .quiet: "quiet"
        case .activity: "activity"
        case .requests: "requests"
        case .fault: "fault"
        case .bus: "bus"
        case .channel: "channel"
        case .clock: "clock"
        }
    }

    private func append(_ key: String, _ value: JSON, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: ","))
        JSON.string(key).write(into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        value.write(into: &bytes)
    }
}
