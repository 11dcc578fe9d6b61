/// A request on the wire (DESIGN §3), decoded and validated.
public enum Request: Sendable, Equatable {
    case push(PushRequest)
    case read(ReadTarget)
    case delete([Int64])
    case badge(app: String?, change: BadgeChange?, sync: Bool?)
    case mode(PushMode?)
    case app(AppState?)
    case list(ListQuery)
    case subscribe([Topic])
    case ping
    /// `reset` (DESIGN §9): one app's (or every app's) messages, held queue and ledgers to
    /// nothing, push on, app foreground; `all` also clears devices and keys.
    case reset(app: String?, all: Bool)
    /// Where the provider gateway listens (`pushdeck gateway`).
    case gateway
    /// `pushdeck device …` (DESIGN §8).
    case device(DeviceCommand)
    /// `pushdeck key …` (DESIGN §8).
    case key(KeyCommand)
}

/// The `device` op: `action` add, list, remove or unregister.
public enum DeviceCommand: Sendable, Equatable {
    case add(Device)
    case list
    case remove(token: String)
    case unregister(token: String)
}

/// The `key` op: `action` add, list or remove.
public enum KeyCommand: Sendable, Equatable {
    case add(ProviderKey)
    case list
    case remove(id: String)
}

/// A `push` request, or an object without `op`.
public struct PushRequest: Sendable, Equatable {
    /// The payload's text exactly as it arrived.
    public var payloadText: String
    public var app: String?
    public var channel: Channel?
    public var offline: Bool
    /// The payload as the request's own parse already saw it, so `PushDecoder` need not parse
    /// the same bytes again (that second parse was a sixth of a push's cost). Not compared: it
    /// is `payloadText`, parsed.
    public var parsed: JSONView?
    /// The front door it came in by (DESIGN §8); a socket push is `.socket`.
    public var via: Via
    /// The device token the push was sent to (the gateway's `/3/device/{token}`).
    public var token: String?
    /// The request's vendor headers kept on the message (APNs: every `apns-*` header).
    public var headers: [String: String]
    public init(
        payloadText: String, app: String? = nil, channel: Channel? = nil, offline: Bool = false, parsed: JSONView? = nil,
        via: Via = .socket, token: String? = nil, headers: [String: String] = [:]
    ) {
        self.payloadText = payloadText
        self.app = app
        self.channel = channel
        self.offline = offline
        self.parsed = parsed
        self.via = via
        self.token = token
        self.headers = headers
    }

    public static func == (left: PushRequest, right: PushRequest) -> Bool {
        left.payloadText == right.payloadText && left.app == right.app && left.channel == right.channel
            && left.offline == right.offline && left.via == right.via && left.token == right.token
            && left.headers == right.headers
    }
}

public enum ReadTarget: Sendable, Equatable {
    case ids([Int64])
    case all(app: String?)
}

/// A `list` request: newest first, a page of at most `limit`, older than `before` when given.
public struct ListQuery: Sendable, Equatable {
    public var limit: Int
    public var unread: Bool
    public var before: Int64?
    public var app: String?
    public init(limit: Int = 50, unread: Bool = false, before: Int64? = nil, app: String? = nil) {
        self.limit = limit
        self.unread = unread
        self.before = before
        self.app = app
    }
}

/// A request that could not be decoded; `message` says what, where, and what is accepted.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}


// MARK: - Decoding

extension Request {
    /// The ops of DESIGN §3, in the order error messages list them.
    public static let ops = ["push", "read", "delete", "badge", "mode", "app", "list", "subscribe", "ping", "reset", "gateway", "device", "key"]
    /// The most ids one `read` or `delete` takes.
    public static let maxIds = 10_000
    /// The largest badge number accepted (iOS keeps badges in an `NSInteger`; this leaves room
    /// for arithmetic).
    public static let maxBadge = Int(Int32.max)

    /// Decodes one framed object.
    ///
    /// An object without `op` is a push of the whole object, its text kept byte for byte.
    public static func decode(frame: [UInt8]) throws(WireError) -> Request {
        let tape: JSONTape
        do {
            tape = try JSONTape.parse(frame)
        } catch {
            throw WireError(error.wireMessage(subject: "request", bytes: frame))
        }
        let root = tape.root
        guard root.kind == .object else {
            throw WireError("a request must be a JSON object; got \(root.kindName)")
        }
        // The common request, a bare payload, is read in place; the few with an op as a tree.
        guard root["op"] != nil else {
            return .push(PushRequest(payloadText: String(decoding: frame, as: UTF8.self), parsed: root))
        }
        guard case .object(let object) = root.json, let opValue = object["op"] else {
            throw WireError("a request must be a JSON object; got \(root.kindName)")
        }
        guard case .string(let op) = opValue, Request.ops.contains(op) else {
            throw WireError("\"op\" must be one of \(Request.ops.joined(separator: ", ")); got \(RequestFields.describe(opValue))")
        }
        switch op {
        case "push":
            let fields = try RequestFields(op: op, object, accepted: ["payload", "app", "channel", "offline"])
            guard let payload = object["payload"], !payload.isNull else {
                throw WireError("\"payload\" is required for op push: the push payload, a JSON object")
            }
            guard case .object = payload, let view = root["payload"] else {
                throw WireError("\"payload\" must be a JSON object (the push payload); got \(payload.kindName)")
            }
            let text = frame.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[view.sourceRange]), as: UTF8.self) }
            return .push(PushRequest(
                payloadText: text, app: try fields.app("app"), channel: try fields.choice("channel", Channel.self),
                offline: try fields.bool("offline") ?? false, parsed: view))
        case "read":
            let fields = try RequestFields(op: op, object, accepted: ["id", "ids", "all", "app"])
            let all = try fields.bool("all")
            let app = try fields.app("app")
            if all == true {
                guard object["id"].isAbsent, object["ids"].isAbsent else {
                    throw WireError("read takes \"id\", \"ids\" or \"all\": true, only one of them")
                }
                return .read(.all(app: app))
            }
            if all == false { throw WireError("\"all\" must be true when given (to read every message); got false") }
            if app != nil {
                throw WireError("\"app\" goes only with \"all\": true for op read (message ids are unique across apps)")
            }
            return .read(.ids(try fields.targetIds(for: "read", orAll: true)))
        case "delete":
            let fields = try RequestFields(op: op, object, accepted: ["id", "ids"])
            return .delete(try fields.targetIds(for: "delete", orAll: false))
        case "badge":
            let fields = try RequestFields(op: op, object, accepted: ["app", "set", "clear", "sync"])
            let set = try fields.integer("set", in: 0...Request.maxBadge, expected: "an integer ≥ 0 (the badge number)")
            let clear = try fields.bool("clear") ?? false
            if set != nil && clear { throw WireError("give either \"set\" or \"clear\": true for op badge, not both") }
            let change: BadgeChange? = if let set { .set(set) } else if clear { .clear } else { nil }
            return .badge(app: try fields.app("app"), change: change, sync: try fields.bool("sync"))
        case "mode":
            let fields = try RequestFields(op: op, object, accepted: ["set"])
            return .mode(try fields.choice("set", PushMode.self))
        case "app":
            let fields = try RequestFields(op: op, object, accepted: ["state"])
            return .app(try fields.choice("state", AppState.self))
        case "list":
            let fields = try RequestFields(op: op, object, accepted: ["limit", "unread", "before", "app"])
            let limit = try fields.integer("limit", in: 1...1000, expected: "an integer from 1 to 1000") ?? 50
            return .list(ListQuery(
                limit: limit, unread: try fields.bool("unread") ?? false, before: try fields.id("before"),
                app: try fields.app("app")))
        case "subscribe":
            let fields = try RequestFields(op: op, object, accepted: ["topics"])
            return .subscribe(try fields.topics("topics"))
        case "device":
            return .device(try DeviceCommand(object))
        case "key":
            return .key(try KeyCommand(object))
        case "gateway":
            _ = try RequestFields(op: op, object, accepted: [])
            return .gateway
        case "reset":
            let fields = try RequestFields(op: op, object, accepted: ["app", "all"])
            return .reset(app: try fields.app("app"), all: try fields.bool("all") ?? false)
        default:
            _ = try RequestFields(op: op, object, accepted: [])
            return .ping
        }
    }
}

extension Optional where Wrapped == JSON {
    /// Absent or `null`: a request field a client left out.
    var isAbsent: Bool { self == nil || self == .null }
}

extension JSONError {
    /// The refusal text for a document that did not parse: what, where, and what is accepted.
    public func wireMessage(subject: String, bytes: [UInt8]) -> String {
        switch kind {
        case .invalidUTF8:
            let byte = offset < bytes.count ? " (byte 0x\(hex(bytes[offset], width: 2)))" : ""
            return "\(subject) is not valid UTF-8 at byte \(offset)\(byte); pushdeck takes UTF-8 JSON text"
        case .tooDeep:
            return "\(subject) is nested too deeply: \(message) at byte \(offset)"
        case .syntax:
            return "\(subject) is not valid JSON: \(message) at byte \(offset)"
        }
    }
}
