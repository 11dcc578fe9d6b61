import PushJSON

/// A request on the wire, decoded and validated.
public enum Request: Sendable, Equatable {
    /// Boxed: a push request (with its payload's parse and decode) is the largest request by
    /// far, and a gateway hands its request through several values on the way to the engine;
    /// inline, every other request was as large and each hand-over copied it.
    indirect case push(PushRequest)
    case read(ReadTarget)
    case delete([Int64])
    case badge(app: String?, change: BadgeChange?, sync: Bool?)
    case mode(PushMode?)
    case app(AppState?)
    case list(ListQuery)
    case subscribe([Topic])
    case ping
    /// The `badge` op with `policy`: set the app's policy, or (`"policy": true`) tell it.
    case badgePolicy(app: String?, BadgePolicy?)
    /// The `badge` op with `sdk`, `call` and `value`: an SDK's badge call.
    case sdkBadge(app: String?, SDKBadgeCall)
    /// `mute`: banners off for `app`, for `seconds` when given.
    case mute(app: String, seconds: Int?)
    case unmute(app: String)
    /// `quiet`: nil asks; `.some(nil)` turns quiet hours off.
    case quiet(QuietHours??)
    /// `reset`: one app's (or every app's) messages, held queue and ledgers to
    /// nothing, push on, app foreground; `all` also clears devices and keys.
    case reset(app: String?, all: Bool)
    /// Where the provider gateway listens (`pushdeck gateway`).
    case gateway
    /// What a backend of `vendor` needs to call the gateway (`pushdeck gateway token`,
    /// `gateway credentials`): the `gateway` op with `credentials`.
    case credentials(CredentialsQuery)
    /// `pushdeck device …`: the gateway's devices.
    case device(DeviceCommand)
    /// `pushdeck key …`: the vendors' credentials the gateway checks requests against.
    case key(KeyCommand)
    /// What an expectation checks of the inbox now (`InboxReport`): of `app` (the totals when
    /// nil), with the callback of the listed message `message` when given.
    case state(app: String?, message: Int64?)
    /// `pushdeck activity …`: the Live Activities.
    case activity(ActivityCommand)
    /// `pushdeck requests`: the provider request log, of one vendor, after a seq.
    case requests(RequestLogQuery)
    /// `pushdeck fault …`: arm, list or clear faults of the gateway.
    case fault(FaultCommand)
    /// `pushdeck bus`: the team bus's connection and the instances seen.
    case bus
    /// APNs' broadcast channel management (`/1/apps/{bundleId}/channels`; the `channel` op).
    case channel(ChannelCommand)
    /// `clock`: the server's clock, and with `advance` (seconds) a manual clock moved on, every
    /// deadline on the way (a banner's stay, a mute's end) met in order.
    case clock(advance: Double?)
}

/// The `activity` op: `action` list (of one app, or all), or dismiss one (`id`), as the user's
/// swipe on the Lock Screen does.
public enum ActivityCommand: Sendable, Equatable {
    case list(app: String?)
    case dismiss(id: String)
}

/// The `device` op: `action` add, list, remove or unregister.
public enum DeviceCommand: Sendable, Equatable {
    case add(Device)
    case list
    case remove(token: String)
    case unregister(token: String)
    /// `device online|offline [TOKEN]`: nil is the socket's default device.
    case setOffline(token: String?, Bool)
    /// FCM's topic management (the gateway's subscription APIs): subscribe each of `tokens`
    /// (FCM devices) to `topic`, or unsubscribe them. All or nothing: a token that is no FCM
    /// device, or a subscription past `Device.maxTopics`, refuses the whole command.
    case topics(tokens: [String], topic: String, subscribe: Bool)
}

/// `{"op":"gateway","credentials":VENDOR}`, for APNs with the `keyId` and `team` the provider
/// token is to name (else those of the one registered APNs key).
public struct CredentialsQuery: Sendable, Equatable {
    public var vendor: Vendor
    public var keyId: String?
    public var team: String?
    public init(vendor: Vendor, keyId: String? = nil, team: String? = nil) {
        self.vendor = vendor
        self.keyId = keyId
        self.team = team
    }
}

/// The `key` op: `action` add, list or remove.
public enum KeyCommand: Sendable, Equatable {
    case add(ProviderKey)
    case list
    case remove(id: String)
}

/// A `push` request, or an object without `op`.
///
/// Its fields are kept once, in a box its copies share (`SharedFields`), as a push's and a
/// message's are: a gateway push's request is copied from the route's check to its decision,
/// the engine's request and the reducer, and each copy of a dozen fields was a retain and a
/// release of each of their strings (callgrind: 56 of the 722 atomic reference counts of an
/// APNs push on the loop).
public struct PushRequest: Sendable, Equatable {
    @usableFromInline
    struct Fields: Sendable, Equatable {
        @usableFromInline var payloadText: String
        @usableFromInline var app: String?
        @usableFromInline var channel: Channel?
        @usableFromInline var offline: Bool
        @usableFromInline var parsed: JSONView?
        @usableFromInline var collapseId: String?
        @usableFromInline var pushType: String?
        @usableFromInline var priority: Int?
        @usableFromInline var via: Via
        @usableFromInline var token: String?
        @usableFromInline var headers: [String: String]
        @usableFromInline var decoded: Push?
        @usableFromInline var fcm: FCMRoute?
        @usableFromInline var bus: BusOrigin?
        @usableFromInline var broadcastChannel: String?

        /// `parsed` and `decoded` are left out: each is `payloadText`, parsed or decoded.
        @usableFromInline static func == (left: Fields, right: Fields) -> Bool {
            left.payloadText == right.payloadText && left.app == right.app && left.channel == right.channel
                && left.offline == right.offline && left.collapseId == right.collapseId && left.pushType == right.pushType
                && left.priority == right.priority && left.via == right.via && left.token == right.token
                && left.headers == right.headers && left.fcm == right.fcm && left.bus == right.bus
                && left.broadcastChannel == right.broadcastChannel
        }
    }

    @usableFromInline var box: SharedFields<Fields>

    /// The fields to write to: the box itself when no other request shares it, else a copy.
    @inlinable var fields: Fields {
        get { box.fields }
        _modify {
            SharedFields.unshare(&box)
            yield &box.fields
        }
    }

    /// The payload's text exactly as it arrived.
    @inlinable public var payloadText: String {
        get { box.fields.payloadText }
        _modify { yield &fields.payloadText }
    }
    @inlinable public var app: String? {
        get { box.fields.app }
        _modify { yield &fields.app }
    }
    @inlinable public var channel: Channel? {
        get { box.fields.channel }
        _modify { yield &fields.channel }
    }
    @inlinable public var offline: Bool {
        get { box.fields.offline }
        _modify { yield &fields.offline }
    }
    /// The payload as the request's own parse already saw it (the socket's frame, a gateway
    /// route's check), so `PushDecoder` need not parse the same bytes again. Measured with
    /// callgrind on a release server taking 3 000 socket pushes of a 1 KB corpus payload: 577.9 M
    /// instructions with it, 658.5 M without (the second parse is an eighth of a push; the
    /// play bench, too noisy to show it, was why it was dropped once). Left out of `==`: it is
    /// `payloadText`, parsed.
    @inlinable public var parsed: JSONView? {
        get { box.fields.parsed }
        _modify { yield &fields.parsed }
    }
    /// `apns-collapse-id` (the socket's `collapseId`, `send --collapse-id`).
    @inlinable public var collapseId: String? {
        get { box.fields.collapseId }
        _modify { yield &fields.collapseId }
    }
    /// `apns-push-type` (`alert`, `background`, …), when the request says.
    @inlinable public var pushType: String? {
        get { box.fields.pushType }
        _modify { yield &fields.pushType }
    }
    /// `apns-priority` (10, 5 or 1), when the request says.
    @inlinable public var priority: Int? {
        get { box.fields.priority }
        _modify { yield &fields.priority }
    }
    /// The front door it came in by; a socket push is `.socket`.
    @inlinable public var via: Via {
        get { box.fields.via }
        _modify { yield &fields.via }
    }
    /// The device token the push was sent to (the gateway's `/3/device/{token}`).
    @inlinable public var token: String? {
        get { box.fields.token }
        _modify { yield &fields.token }
    }
    /// The request's vendor headers kept on the message (APNs: every `apns-*` header).
    @inlinable public var headers: [String: String] {
        get { box.fields.headers }
        _modify { yield &fields.headers }
    }
    /// The push as a gateway route already decoded it (its checks decode the payload to refuse
    /// what the inbox would refuse): the engine takes it instead of decoding the same payload
    /// again. Left out of `==`: it is this request, decoded.
    @inlinable public var decoded: Push? {
        get { box.fields.decoded }
        _modify { yield &fields.decoded }
    }
    /// Set for an FCM message (`payloadText` the v1 `message` object): how to decode it.
    @inlinable public var fcm: FCMRoute? {
        get { box.fields.fcm }
        _modify { yield &fields.fcm }
    }
    /// Set for a push that came by the team bus: its id and sender, which the engine counts it
    /// once by.
    @inlinable public var bus: BusOrigin? {
        get { box.fields.bus }
        _modify { yield &fields.bus }
    }
    /// A broadcast push's channel (`apns-channel-id` of `/4/broadcasts/apps/{bundleId}`): the
    /// push goes to every activity subscribed to it, not to `token`.
    @inlinable public var broadcastChannel: String? {
        get { box.fields.broadcastChannel }
        _modify { yield &fields.broadcastChannel }
    }

    public init(
        payloadText: String, app: String? = nil, channel: Channel? = nil, offline: Bool = false, parsed: JSONView? = nil,
        collapseId: String? = nil, pushType: String? = nil, priority: Int? = nil,
        via: Via = .socket, token: String? = nil, headers: [String: String] = [:]
    ) {
        box = SharedFields(Fields(
            payloadText: payloadText, app: app, channel: channel, offline: offline, parsed: parsed, collapseId: collapseId,
            pushType: pushType, priority: priority, via: via, token: token, headers: headers, decoded: nil, fcm: nil, bus: nil,
            broadcastChannel: nil))
    }

    public static func == (left: PushRequest, right: PushRequest) -> Bool { SharedFields.same(left.box, right.box) }

    /// Sets a vendor header of the request and of the push decoded from it (the message keeps
    /// the decoded push's). The push's copy of the headers is let go first, so that the one
    /// dictionary they share takes the header in place instead of being copied for it. Written
    /// on the box's fields: each write through the `decoded` accessor was a call that allocated
    /// its frame.
    public mutating func setHeader(_ name: String, _ value: String) {
        SharedFields.unshare(&box)
        Self.setHeader(name, value, in: &box.fields)
    }

    private static func setHeader(_ name: String, _ value: String, in fields: inout Fields) {
        fields.decoded?.headers = [:]
        fields.headers[name] = value
        fields.decoded?.headers = fields.headers
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
    /// The wire's ops, in the order error messages list them.
    public static let ops = ["push", "read", "delete", "badge", "mode", "app", "list", "subscribe", "ping", "reset", "mute", "unmute", "quiet", "gateway", "device", "key", "state", "activity", "requests", "fault", "bus", "channel", "clock"]
    /// The `apns-push-type` values Apple documents.
    public static let pushTypes = ["alert", "background", "voip", "complication", "fileprovider", "mdm", "liveactivity", "location", "pushtotalk", "widgets", "controls"]
    /// The furthest one `clock` request moves a manual clock: a year, in seconds.
    public static let maxClockAdvance = 366.0 * 86_400
    /// The most ids one `read` or `delete` takes.
    public static let maxIds = 10_000
    /// The largest badge number accepted (iOS keeps badges in an `NSInteger`; this leaves room
    /// for arithmetic).
    public static let maxBadge = Int(Int32.max)

    /// What a push's `token` may be: what `device add` takes.
    static let tokenExpected =
        "a device token: hex digits (APNs), or letters, digits, '-' and '_' up to 128 (a JPush registration id, a Getui cid)"

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
            return .push(PushRequest(payloadText: tape.text, parsed: root))
        }
        // A push's payload is read in place below: only the members around it become a tree.
        guard let object = root.object(readingInPlace: "payload"), let opValue = object["op"] else {
            throw WireError("a request must be a JSON object; got \(root.kindName)")
        }
        guard case .string(let op) = opValue, Request.ops.contains(op) else {
            throw WireError("\"op\" must be one of \(Request.ops.joined(separator: ", ")); got \(RequestFields.describe(opValue))")
        }
        switch op {
        case "push":
            let fields = try RequestFields(
                op: op, object, accepted: ["payload", "app", "channel", "offline", "collapseId", "pushType", "priority", "token"])
            guard let payload = object["payload"], !payload.isNull else {
                throw WireError("\"payload\" is required for op push: the push payload, a JSON object")
            }
            guard case .object = payload, let view = root["payload"] else {
                throw WireError("\"payload\" must be a JSON object (the push payload); got \(payload.kindName)")
            }
            return .push(PushRequest(
                payloadText: view.sourceText, app: try fields.app("app"), channel: try Channel.requested(fields.choice("channel", Channel.self)),
                offline: try fields.bool("offline") ?? false, parsed: view,
                collapseId: try fields.text("collapseId", expected: "a string of at most 64 bytes (apns-collapse-id)", maxBytes: 64),
                pushType: try fields.text("pushType", expected: "alert, background, voip, complication, fileprovider, mdm, liveactivity, location or pushtotalk", among: Request.pushTypes),
                priority: try fields.integer("priority", in: 1...10, expected: "10, 5 or 1 (apns-priority)").map { priority throws(WireError) in
                    guard [1, 5, 10].contains(priority) else { throw WireError("\"priority\" must be 10, 5 or 1 (apns-priority); got \(priority)") }
                    return priority
                },
                token: try fields.text("token", expected: Self.tokenExpected).map { text throws(WireError) in
                    // A device token names a topic level on the team bus too: only the
                    // characters `device add` takes (no `/`, `+`, `#`).
                    guard let token = Device.normalizedToken(text) else {
                        throw WireError("\"token\" must be \(Self.tokenExpected); got '\(text.prefix(64))'")
                    }
                    return token
                }))
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
            let fields = try RequestFields(op: op, object, accepted: ["app", "set", "clear", "sync", "policy", "sdk", "call", "value"])
            if let badge = try Self.badgeVerb(fields, object) { return badge }
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
        case "mute", "unmute":
            let fields = try RequestFields(op: op, object, accepted: op == "mute" ? ["app", "for"] : ["app"])
            guard let app = try fields.app("app") else { throw WireError("\"app\" is required for op \(op): the app id, like com.example.shop") }
            if op == "unmute" { return .unmute(app: app) }
            return .mute(app: app, seconds: try fields.integer("for", in: 1...(366 * 86_400), expected: "a number of seconds from 1 to a year"))
        case "quiet":
            let fields = try RequestFields(op: op, object, accepted: ["set"])
            guard let text = try fields.text("set", expected: "HH:MM-HH:MM (24-hour local time, like 22:00-07:00) or off") else { return .quiet(nil) }
            if text == "off" { return .quiet(.some(nil)) }
            guard let hours = QuietHours(text) else {
                throw WireError("\"set\" must be HH:MM-HH:MM (24-hour local time, like 22:00-07:00) or off; got \(JSON.string(text).compactText)")
            }
            return .quiet(.some(hours))
        case "subscribe":
            let fields = try RequestFields(op: op, object, accepted: ["topics"])
            return .subscribe(try fields.topics("topics"))
        case "device":
            return .device(try DeviceCommand(object))
        case "key":
            return .key(try KeyCommand(object))
        case "activity":
            if try RequestFields.action(of: op, object, ["list", "dismiss"]) == "dismiss" {
                let fields = try RequestFields(op: op, object, accepted: ["action", "id"])
                guard let id = try fields.text("id", expected: "an activity id (activity-N, as 'pushdeck activity list' shows)"), !id.isEmpty else {
                    throw WireError("the activity op's dismiss needs \"id\": an activity id (activity-N, as 'pushdeck activity list' shows)")
                }
                return .activity(.dismiss(id: id))
            }
            let fields = try RequestFields(op: op, object, accepted: ["action", "app"])
            return .activity(.list(app: try fields.app("app")))
        case "fault":
            let action = try RequestFields.action(of: op, object, ["add", "list", "clear"])
            switch action {
            case "list":
                _ = try RequestFields(op: op, object, accepted: ["action"])
                return .fault(.list)
            case "clear":
                let fields = try RequestFields(op: op, object, accepted: ["action", "id"])
                return .fault(.clear(id: try fields.integer("id", in: 1...Int(Int32.max), expected: "a fault id, an integer ≥ 1")))
            default:
                var fields = object
                fields["op"] = nil
                fields["action"] = nil
                return .fault(.add(try FaultSpec(fields: fields)))
            }
        case "requests":
            let fields = try RequestFields(op: op, object, accepted: ["vendor", "since"])
            let vendor = try fields.text("vendor", expected: "apns, jpush, getui or fcm", among: Via.providers.map(\.rawValue))
            let since = try fields.integer("since", in: 0...Int(Int32.max), expected: "a request seq, an integer ≥ 0") ?? 0
            return .requests(RequestLogQuery(vendor: vendor.flatMap(Via.init(rawValue:)), since: since))
        case "channel":
            return .channel(try ChannelCommand(object))
        case "state":
            let fields = try RequestFields(op: op, object, accepted: ["app", "message"])
            return .state(app: try fields.app("app"), message: try fields.id("message"))
        case "gateway":
            let fields = try RequestFields(op: op, object, accepted: ["credentials", "keyId", "team"])
            guard let vendor = try fields.choice("credentials", Vendor.self) else {
                if !object["keyId"].isAbsent || !object["team"].isAbsent {
                    throw WireError("\"keyId\" and \"team\" go with \"credentials\":\"apns\"")
                }
                return .gateway
            }
            let keyId = try fields.text("keyId", expected: "an APNs key id, a non-empty string", maxBytes: 64)
            let team = try fields.text("team", expected: "an APNs team id, a non-empty string", maxBytes: 64)
            if vendor != .apns && (keyId != nil || team != nil) {
                throw WireError("\"keyId\" and \"team\" go with \"credentials\":\"apns\", not \(vendor.rawValue)")
            }
            return .credentials(CredentialsQuery(vendor: vendor, keyId: keyId, team: team))
        case "reset":
            let fields = try RequestFields(op: op, object, accepted: ["app", "all"])
            return .reset(app: try fields.app("app"), all: try fields.bool("all") ?? false)
        case "bus":
            _ = try RequestFields(op: op, object, accepted: [])
            return .bus
        case "clock":
            let fields = try RequestFields(op: op, object, accepted: ["advance"])
            return .clock(advance: try fields.seconds("advance", in: 0...Self.maxClockAdvance))
        default:
            _ = try RequestFields(op: op, object, accepted: [])
            return .ping
        }
    }
}

extension Request {
    /// The `badge` op's policy and SDK verbs: `policy` (a policy name, or `true` to ask), or `sdk` +
    /// `call` (+ `value`); each alone, without `set`, `clear` or `sync`.
    static func badgeVerb(_ fields: RequestFields, _ object: JSONObject) throws(WireError) -> Request? {
        let policy = object["policy"]
        let sdk = object["sdk"]
        guard !policy.isAbsent || !sdk.isAbsent else {
            if !object["call"].isAbsent || !object["value"].isAbsent {
                throw WireError("\"call\" and \"value\" go with \"sdk\" (jpush, getui or ios) for op badge")
            }
            return nil
        }
        for other in ["set", "clear", "sync"] where !object[other].isAbsent {
            throw WireError("\"\(other)\" cannot go with \"\(policy.isAbsent ? "sdk" : "policy")\" in one badge request")
        }
        let app = try fields.app("app")
        if !policy.isAbsent {
            guard sdk.isAbsent else { throw WireError("give either \"policy\" or \"sdk\" for op badge, not both") }
            if policy == .bool(true) { return .badgePolicy(app: app, nil) }
            guard let chosen = try fields.choice("policy", BadgePolicy.self) else { return nil }
            return .badgePolicy(app: app, chosen)
        }
        guard let chosen = try fields.choice("sdk", SDKBadgeCall.SDK.self) else { return nil }
        guard case .string(let call)? = object["call"] else {
            throw WireError("\"call\" is required with \"sdk\": the SDK's badge call, like setBadge; got \(object["call"].map(RequestFields.describe) ?? "nothing")")
        }
        let value = try fields.integer("value", in: 0...Request.maxBadge, expected: "an integer ≥ 0 (the badge number)")
        return .sdkBadge(app: app, try SDKBadgeCall(sdk: chosen, call: call, value: value))
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
