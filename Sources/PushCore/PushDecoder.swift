import PushJSON

/// Decodes and validates a push payload: channel and app inference, APNs, Getui
/// pass-through and Getui-over-APNs, JPush; refusals name the field path and what is accepted.
///
/// What is shown is derived from the payload; the payload itself is kept as received. Keys the
/// decoder does not know are kept and never refused: real files carry all kinds of custom data.
public struct PushDecoder: Sendable, Equatable {
    /// The APNs payload limit (`--max-payload`).
    public var maxPayloadBytes: Int
    public init(maxPayloadBytes: Int = 4096) { self.maxPayloadBytes = maxPayloadBytes }

    /// The keys that name the app, in the order they are tried. "Simulate Target Bundle" is a
    /// misspelling seen in real files; `simctl` ignores it, but it is what the author meant.
    public static let appKeys = ["Simulator Target Bundle", "Simulate Target Bundle", "appId", "appKey"]
    public static let defaultApp = "default"

    public func decode(_ request: PushRequest) throws(WireError) -> Push {
        if let route = request.fcm { return try decodeFCM(request, route: route) }
        // A gateway push was held to its vendor's own limit (APNs: 5120 bytes for VoIP) already.
        if request.via == .socket { try checkSize(request.payloadText.utf8.count) }
        if let parsed = request.parsed { return try decode(parsed, request: request) }
        let bytes = Array(request.payloadText.utf8)
        let tape: JSONTape
        do {
            tape = try JSONTape.parse(bytes)
        } catch {
            throw WireError(error.wireMessage(subject: "payload", bytes: bytes))
        }
        return try decode(tape.root, request: request)
    }

    /// Decodes payload bytes as read from a file or socket (validating that they are UTF-8).
    public func decode(payload bytes: [UInt8], app: String? = nil, channel: Channel? = nil, offline: Bool = false) throws(WireError) -> Push {
        try checkSize(bytes.count)
        let tape: JSONTape
        do {
            tape = try JSONTape.parse(bytes)
        } catch {
            throw WireError(error.wireMessage(subject: "payload", bytes: bytes))
        }
        let request = PushRequest(payloadText: String(decoding: bytes, as: UTF8.self), app: app, channel: channel, offline: offline)
        return try decode(tape.root, request: request)
    }

    private func checkSize(_ size: Int) throws(WireError) {
        guard size <= maxPayloadBytes else {
            throw WireError("payload is \(size) bytes; the APNs limit is \(maxPayloadBytes) (--max-payload to change)")
        }
    }

    // MARK: - Fields

    private func decode(_ payload: JSONView, request: PushRequest) throws(WireError) -> Push {
        guard payload.kind == .object else {
            throw WireError("payload must be a JSON object (like {\"aps\":{\"alert\":\"Hello\"}}); got \(payload.kindName)")
        }
        let fields = PayloadFields(payload)
        // `"aps": null` is refused below like any other `aps` that is not an object.
        let aps = fields.aps
        var content = PushContent()
        if let aps {
            guard aps.kind == .object else {
                throw WireError("aps must be an object (the APNs dictionary with alert, badge, sound…); got \(aps.kindName)")
            }
            try content.readAPNs(aps)
        }
        try content.readGetui(fields, isAPNs: aps != nil)
        // The push-API bodies (JPush v3 `notification`/`message`, Getui v2 `push_message`/
        // `push_channel`) say themselves which parts go through APNs and which are pass-through.
        // The first part is the push itself, the rest (rare) go along with it; almost every push
        // has only the one, kept out of an array (each copy of a content retains its strings).
        var channel: Channel = aps != nil ? .apns : .transparent
        var rest: [(channel: Channel, content: PushContent)] = []
        if aps == nil {
            content.readCustomMessage(fields)
            rest = try content.pushAPIParts(fields)
            if !rest.isEmpty { (channel, content) = rest.removeFirst() }
        }
        // A request that names the channel takes the part on that channel (one message), or the
        // payload's first part on it.
        if let requested = request.channel {
            if channel != requested, let part = rest.first(where: { $0.channel == requested }) { content = part.content }
            channel = requested
            rest = []
        }

        let named = try Self.app(of: fields)
        let timeToLive = Self.timeToLive(fields)
        let url = fields.url
        func push(on channel: Channel, showing content: consuming PushContent) -> Push {
            var shown = content
            if shown.url == nil { shown.url = PushContent.looseText(url) }
            var push = Push(
                app: request.app ?? named ?? Self.defaultApp, channel: channel,
                title: shown.title, subtitle: shown.subtitle, body: shown.body, url: shown.url,
                taskId: shown.taskId, msgId: shown.msgId, offline: request.offline || shown.offline,
                badge: shown.badge, payload: request.payloadText)
            push.timeToLive = timeToLive
            push.via = request.via
            push.token = request.token
            push.headers = request.headers
            Self.present(&push.fields, shown, request: request)
            return push
        }
        // The content moves into the push: passed as it is, it was copied (each of its strings
        // retained) and then destroyed.
        var first = push(on: channel, showing: consume content)
        if !rest.isEmpty { first.also = rest.map { push(on: $0.channel, showing: $0.content) } }
        return first
    }

    /// What an APNs message carries besides its text: collapse id, thread, silent,
    /// interruption level, priority. Pass-through messages have none of it. Written to the
    /// push's fields in one access of its box, not one a property.
    static func present(_ push: inout Push.Fields, _ content: PushContent, request: PushRequest) {
        push.priority = request.priority
        guard push.channel == .apns else { return }
        push.collapseId = request.collapseId ?? content.collapseId
        push.threadId = content.threadId
        push.relevance = content.relevance
        push.interruption = content.interruption
        let noAlert = content.title == nil && content.subtitle == nil && content.body == nil
        push.silent = request.pushType == "background" || (content.contentAvailable && noAlert)
    }

    /// How long the push service keeps a pass-through message for an app that is not running,
    /// as the payload's own field says: JPush `options.time_to_live` (seconds; JPush's default
    /// one day), Getui v2 `settings.ttl` (milliseconds; -1 keeps nothing offline, "-1表示不设离线":
    /// only a running app gets it), Getui's `offLineExpireTime` (milliseconds, with `offLine`).
    /// Nil when the payload says nothing (the inbox then keeps a pass-through message a day, an
    /// APNs notification 30).
    public static func timeToLive(of payload: JSONView) -> Double? { timeToLive(PayloadFields(payload)) }

    /// `timeToLive(of:)` from the members the decoder already found (one pass over the payload).
    static func timeToLive(_ fields: PayloadFields) -> Double? {
        func number(_ value: JSONView?) -> Double? { value?.number.flatMap { Double($0.text) } }
        if let options = fields.options, options.kind == .object, let seconds = number(options["time_to_live"]), seconds >= 0 {
            return seconds
        }
        if let settings = fields.settings, settings.kind == .object, let milliseconds = number(settings["ttl"]) {
            if milliseconds == -1 { return 0 }
            if milliseconds >= 0 { return milliseconds / 1000 }
        }
        if let milliseconds = number(fields.offLineExpireTime), milliseconds >= 0 { return milliseconds / 1000 }
        return nil
    }

    /// The app the payload names, if it names one (the keys of `appKeys`, in that order).
    static func app(of fields: PayloadFields) throws(WireError) -> String? {
        func named(_ key: String, _ value: JSONView?) throws(WireError) -> String? {
            guard let value, !value.isNull else { return nil }
            guard let app = value.string else {
                throw WireError("\"\(key)\" must be a string (the app's bundle id, like com.example.shop); got \(RequestFields.describe(value))")
            }
            return app.nonEmpty
        }
        if let app = try named(appKeys[0], fields.simulatorTargetBundle) { return app }
        if let app = try named(appKeys[1], fields.simulateTargetBundle) { return app }
        if let app = try named(appKeys[2], fields.appId) { return app }
        return try named(appKeys[3], fields.appKey)
    }
}

/// The members of an object named in a table, found in one pass over it: each is the last
/// member with its name, as `object[name]` would find it (a lookup each was a pass each). Kept
/// as the document and positions (`-1`: absent) in the table's order, copied without a retain
/// (a view a member retained the document once each); a member's name is matched against the
/// table in one call that checks lengths first.
struct NamedMembers<let count: Int> {
    private let object: JSONView
    private let positions: InlineArray<count, Int>

    init(of object: JSONView, named names: [StaticString]) {
        var positions = InlineArray<count, Int>(repeating: -1)
        object.forEachMemberPosition { name, value in
            if let index = name.position(in: names) { positions[index] = value }
        }
        self.object = object
        self.positions = positions
    }

    /// The member named `names[index]`, or nil.
    subscript(_ index: Int) -> JSONView? {
        let position = positions[index]
        return position < 0 ? nil : object.value(at: position)
    }
}

/// The top-level members a payload is read by (each accessor reads the index of its name in
/// `names`).
struct PayloadFields {
    private static let names: [StaticString] = [
        "aps", "taskId", "msgId", "_j_msgid", "payload", "offLine", "autoBadge", "url", "Simulator Target Bundle",
        "Simulate Target Bundle", "appId", "appKey", "title", "subtitle", "content", "message", "alert", "body",
        "extras", "push_message", "notification", "push_channel", "options", "settings", "offLineExpireTime",
    ]
    private let members: NamedMembers<25>
    init(_ payload: JSONView) { members = NamedMembers(of: payload, named: Self.names) }

    var aps: JSONView? { members[0] }
    var taskId: JSONView? { members[1] }
    var msgId: JSONView? { members[2] }
    var jpushMessageId: JSONView? { members[3] }
    var getuiMessage: JSONView? { members[4] }
    var offLine: JSONView? { members[5] }
    var autoBadge: JSONView? { members[6] }
    var url: JSONView? { members[7] }
    /// `PushDecoder.appKeys`, in order.
    var simulatorTargetBundle: JSONView? { members[8] }
    var simulateTargetBundle: JSONView? { members[9] }
    var appId: JSONView? { members[10] }
    var appKey: JSONView? { members[11] }
    /// JPush and push-API bodies (payloads without `aps`).
    var title: JSONView? { members[12] }
    var subtitle: JSONView? { members[13] }
    var content: JSONView? { members[14] }
    var message: JSONView? { members[15] }
    var alert: JSONView? { members[16] }
    var body: JSONView? { members[17] }
    var extras: JSONView? { members[18] }
    var pushMessage: JSONView? { members[19] }
    var notification: JSONView? { members[20] }
    /// Getui v2's per-vendor settings (`push_channel.ios` is the APNs notification).
    var pushChannel: JSONView? { members[21] }
    /// JPush `options` (`apns_collapse_id`, `time_to_live`).
    var options: JSONView? { members[22] }
    /// The vendors' time to live: Getui v2 `settings` (`ttl`), Getui's `offLineExpireTime`.
    var settings: JSONView? { members[23] }
    var offLineExpireTime: JSONView? { members[24] }
}

/// The members of `aps.alert` an APNs payload is shown by (each accessor reads the index of its
/// name in `names`).
struct AlertFields {
    private static let names: [StaticString] = [
        "title", "subtitle", "body", "title-loc-key", "title-loc-args", "subtitle-loc-key", "subtitle-loc-args",
        "loc-key", "loc-args",
    ]
    private let members: NamedMembers<9>
    init(_ alert: JSONView) { members = NamedMembers(of: alert, named: Self.names) }

    var title: JSONView? { members[0] }
    var subtitle: JSONView? { members[1] }
    var body: JSONView? { members[2] }
    var titleLocKey: JSONView? { members[3] }
    var titleLocArgs: JSONView? { members[4] }
    var subtitleLocKey: JSONView? { members[5] }
    var subtitleLocArgs: JSONView? { members[6] }
    var locKey: JSONView? { members[7] }
    var locArgs: JSONView? { members[8] }
}

/// The members of an `aps` (or a JPush `notification.ios`) a push is shown by (each accessor
/// reads the index of its name in `names`).
struct APSFields {
    private static let names: [StaticString] = [
        "alert", "badge", "thread-id", "relevance-score", "content-available", "interruption-level",
    ]
    private let members: NamedMembers<6>
    init(_ aps: JSONView) { members = NamedMembers(of: aps, named: Self.names) }

    var alert: JSONView? { members[0] }
    var badge: JSONView? { members[1] }
    var threadId: JSONView? { members[2] }
    var relevanceScore: JSONView? { members[3] }
    var contentAvailable: JSONView? { members[4] }
    var interruptionLevel: JSONView? { members[5] }
}

/// What a payload shows and how it moves the badge, gathered from whichever shapes it has.
///
/// Each field keeps the first value found: APNs `aps` first, then Getui, then JPush and the
/// push-API request bodies, so a payload in several shapes shows its most specific text.
///
/// Fields are read in place from the payload's tape (`JSONView`): only the values used become
/// strings.
struct PushContent {
    var title: String?
    var subtitle: String?
    var body: String?
    var url: String?
    var taskId: String?
    var msgId: String?
    var offline = false
    var badge: BadgeDirective?
    var threadId: String?
    var relevance: Double?
    var contentAvailable = false
    var interruption: InterruptionLevel?
    var collapseId: String?

    /// `thread-id`, `content-available` (1 or true), `interruption-level` of an `aps` or a JPush
    /// `notification.ios` (custom data: never refused, an unknown level is ignored).
    mutating func readPresentation(_ dictionary: JSONView) { readPresentation(APSFields(dictionary)) }

    mutating func readPresentation(_ fields: APSFields) {
        if threadId == nil { threadId = Self.looseText(fields.threadId) }
        if relevance == nil, let score = fields.relevanceScore?.number?.double, score.isFinite { relevance = score }
        if let flag = fields.contentAvailable, flag.bool == true || flag.number?.int == 1 { contentAvailable = true }
        if interruption == nil, let level = fields.interruptionLevel?.string { interruption = InterruptionLevel(rawValue: level) }
    }

    mutating func fill(title: String? = nil, subtitle: String? = nil, body: String? = nil, url: String? = nil) {
        if self.title == nil { self.title = title }
        if self.subtitle == nil { self.subtitle = subtitle }
        if self.body == nil { self.body = body }
        if self.url == nil { self.url = url }
    }

    // MARK: APNs

    mutating func readAPNs(_ aps: JSONView) throws(WireError) {
        let fields = APSFields(aps)
        let alert = fields.alert
        let badgeValue = fields.badge
        readPresentation(fields)
        if let alert, !alert.isNull {
            switch alert.kind {
            case .string:
                fill(body: alert.string?.nonEmpty)
            case .object:
                let fields = AlertFields(alert)
                let title = try Self.text(fields.title, path: "aps.alert.title")
                let subtitle = try Self.text(fields.subtitle, path: "aps.alert.subtitle")
                let body = try Self.text(fields.body, path: "aps.alert.body")
                // A localized key is shown with its arguments when there is no text to show.
                let titleKey = try Self.localized(fields.titleLocKey, fields.titleLocArgs, key: "title-loc-key", args: "title-loc-args")
                let subtitleKey = try Self.localized(
                    fields.subtitleLocKey, fields.subtitleLocArgs, key: "subtitle-loc-key", args: "subtitle-loc-args")
                let bodyKey = try Self.localized(fields.locKey, fields.locArgs, key: "loc-key", args: "loc-args")
                fill(title: title ?? titleKey, subtitle: subtitle ?? subtitleKey, body: body ?? bodyKey)
            default:
                throw WireError("aps.alert must be a string or an object (with title, subtitle, body); got \(RequestFields.describe(alert))")
            }
        }
        if let value = badgeValue, !value.isNull {
            guard let int = value.number?.int, (0...Request.maxBadge).contains(int) else {
                throw WireError("aps.badge must be an integer ≥ 0 (the icon badge number); got \(RequestFields.describe(value))")
            }
            badge = .set(int)
        }
    }

    /// `key(arg1, arg2)` for a `*-loc-key` (the members `keyValue` and `argsValue` of the alert,
    /// named `key` and `args`), or nil when there is none.
    private static func localized(_ keyValue: JSONView?, _ argsValue: JSONView?, key: String, args: String) throws(WireError) -> String? {
        guard let name = try text(keyValue, path: "aps.alert.\(key)") else { return nil }
        guard let arguments = argsValue, !arguments.isNull else { return name }
        guard arguments.kind == .array else {
            throw WireError("aps.alert.\(args) must be an array of strings (the arguments of \(key)); got \(RequestFields.describe(arguments))")
        }
        let elements = arguments.elements
        guard !elements.isEmpty else { return name }
        let shown = elements.map { looseText($0) ?? $0.json.compactText }
        return "\(name)(\(shown.joined(separator: ", ")))"
    }

    // MARK: Getui

    /// Getui fields: `payload` (pass-through text, or over APNs a JSON string), `taskId`, `msgId`,
    /// `offLine`, `autoBadge`.
    mutating func readGetui(_ payload: PayloadFields, isAPNs: Bool) throws(WireError) {
        if taskId == nil { taskId = try Self.identifier(payload.taskId, path: "taskId") }
        if msgId == nil { msgId = try Self.identifier(payload.msgId, path: "msgId") }
        // JPush's message id, as its SDK hands APNs userInfo to the app.
        if msgId == nil { msgId = Self.looseText(payload.jpushMessageId) }
        if let message = payload.getuiMessage, !message.isNull {
            switch message.kind {
            case .string:
                readGetuiMessage(message.string ?? "")
            case .object:
                readPushModel(message)
            default:
                // Over APNs `payload` is the app's own custom key; only pass-through defines it.
                if !isAPNs {
                    throw WireError("the payload's \"payload\" key (Getui's pass-through message) must be a string or an object; got \(RequestFields.describe(message))")
                }
            }
        }
        if let flag = payload.offLine, !flag.isNull {
            if let value = flag.bool {
                offline = offline || value
            } else if let number = flag.number, number.text == "0" || number.text == "1" {
                offline = offline || number.text == "1"
            } else {
                throw WireError("offLine must be true or false (Getui's offline-queue flag); got \(RequestFields.describe(flag))")
            }
        }
        if badge == nil, let value = payload.autoBadge, !value.isNull {
            badge = try Self.autoBadge(value)
        }
    }

    /// Getui's `payload` string: an STPushModel JSON object (the message model of the Getui sample
    /// app's STPushView banner), else the text itself.
    mutating func readGetuiMessage(_ text: String) {
        if text.first == "{", let model = try? JSONTape.parse(Array(text.utf8)).root, model.kind == .object {
            let before = (title, body, url)
            readPushModel(model)
            // JSON without the model's fields (e.g. {"roomId":15152}) is shown as it is.
            if before == (title, body, url) { fill(body: text.nonEmpty) }
        } else {
            fill(body: text.nonEmpty)
        }
    }

    /// The STPushModel fields: `title`, `content`, `url`; `mid` stands in for a missing `msgId`.
    /// (`urlType` and `id` say how the app opens the url; they stay in the raw payload.)
    private mutating func readPushModel(_ model: JSONView) {
        fill(
            title: Self.looseText(model["title"]),
            body: Self.looseText(model["content"]) ?? Self.looseText(model["body"]),
            url: Self.looseText(model["url"]))
        if msgId == nil { msgId = Self.looseText(model["mid"]) }
    }

    /// Getui `autoBadge`: "+N" / "-N" move the server badge, "N" sets it.
    static func autoBadge(_ value: JSONView, name: String = "autoBadge") throws(WireError) -> BadgeDirective {
        func refusal() -> WireError {
            WireError("\(name) must be \"+N\", \"-N\" or \"N\" (like \"+1\"), N from 0 to \(Request.maxBadge); got \(RequestFields.describe(value))")
        }
        let text: String
        if let string = value.string {
            text = string.trimmingSpaces
        } else if let number = value.number {
            text = number.text
        } else {
            throw refusal()
        }
        var digits = Substring(text)
        let sign = digits.first
        if sign == "+" || sign == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= ascii("0") && $0 <= ascii("9") }),
              let amount = Int(digits), amount <= Request.maxBadge
        else { throw refusal() }
        switch sign {
        case "+": return .autoAdd(amount)
        case "-": return .autoAdd(-amount)
        default: return .autoSet(amount)
        }
    }

    // MARK: JPush and push-API bodies

    /// Pass-through shapes without `aps`: a JPush custom message (`title`, `content` or
    /// `message`, `extras`), a JPush notification event (`alert`).
    mutating func readCustomMessage(_ payload: PayloadFields) {
        fill(
            title: Self.looseText(payload.title),
            subtitle: Self.looseText(payload.subtitle),
            body: Self.looseText(payload.content) ?? Self.looseText(payload.message)
                ?? Self.looseText(payload.alert) ?? Self.looseText(payload.body))
        readExtras(payload.extras)
    }

    /// The messages a push-API request body delivers, each what the payload's common fields
    /// (`self`) show completed by its own part; empty when the payload is not such a body.
    ///
    /// JPush v3: `notification` goes through APNs on iOS — `notification.ios` is the APNs
    /// notification, so its `alert` comes before the common `notification.alert` and Android's
    /// `title` is never used — and `message` is the in-app message that "does not go through
    /// APNs"; one call with both pushes both. Getui v2: `push_message.notification` and
    /// `push_channel.ios` are APNs notifications, `push_message.transmission` is pass-through;
    /// a transmission with only `push_channel.ios` is delivered once, as pass-through (APNs is
    /// Getui's fallback for a device its own connection cannot reach).
    func pushAPIParts(_ payload: PayloadFields) throws(WireError) -> [(channel: Channel, content: PushContent)] {
        var notification: PushContent?
        var passThrough: PushContent?
        if let body = payload.notification, body.kind == .object {
            var part = self
            try part.readJPushNotification(body)
            if let options = payload.options, options.kind == .object {
                part.collapseId = Self.looseText(options["apns_collapse_id"])
            }
            notification = part
        }
        if let message = payload.message, message.kind == .object {
            var part = self
            part.fill(title: Self.looseText(message["title"]), body: Self.looseText(message["msg_content"]))
            part.readExtras(message["extras"])
            passThrough = part
        }
        if let pushMessage = payload.pushMessage, pushMessage.kind == .object {
            if let body = pushMessage["notification"], body.kind == .object {
                var part = notification ?? self
                part.fill(
                    title: Self.looseText(body["title"]), body: Self.looseText(body["body"]), url: Self.looseText(body["url"]))
                notification = part
            }
            if let transmission = pushMessage["transmission"]?.string {
                var part = passThrough ?? self
                part.readGetuiMessage(transmission)
                passThrough = part
            }
        }
        if let channels = payload.pushChannel, channels.kind == .object, let ios = channels["ios"], ios.kind == .object,
           notification != nil || passThrough == nil {
            var part = notification ?? self
            try part.readGetuiIOS(ios)
            notification = part
        }
        var parts: [(channel: Channel, content: PushContent)] = []
        if let notification { parts.append((.apns, notification)) }
        if let passThrough { parts.append((.transparent, passThrough)) }
        return parts
    }

    /// A JPush `notification`: `ios.alert` (a string, or an APNs alert object) before the
    /// common `alert`; `ios.badge`; `ios.extras.url`.
    private mutating func readJPushNotification(_ notification: JSONView) throws(WireError) {
        if let ios = notification["ios"], ios.kind == .object {
            if let alert = ios["alert"], alert.kind == .object {
                fill(title: Self.looseText(alert["title"]), subtitle: Self.looseText(alert["subtitle"]), body: Self.looseText(alert["body"]))
            } else {
                fill(body: Self.looseText(ios["alert"]))
            }
            readExtras(ios["extras"])
            readPresentation(ios)
            if badge == nil, let value = ios["badge"], !value.isNull {
                badge = try Self.jpushBadge(value)
            }
        }
        fill(body: Self.looseText(notification["alert"]))
    }

    /// Getui v2 `push_channel.ios`: `aps` as APNs has it, `auto_badge`, and `payload` (the
    /// app's JSON string, as over APNs).
    private mutating func readGetuiIOS(_ ios: JSONView) throws(WireError) {
        if let aps = ios["aps"], aps.kind == .object {
            readPresentation(aps)
            if let alert = aps["alert"], alert.kind == .object {
                fill(title: Self.looseText(alert["title"]), subtitle: Self.looseText(alert["subtitle"]), body: Self.looseText(alert["body"]))
            } else {
                fill(body: Self.looseText(aps["alert"]))
            }
        }
        if let text = ios["payload"]?.string { readGetuiMessage(text) }
        if badge == nil, let value = ios["auto_badge"], !value.isNull { badge = try Self.autoBadge(value, name: "push_channel.ios.auto_badge") }
    }

    /// JPush `notification.ios.badge`: an integer N sets the icon; "+N" / "-N" move JPush's
    /// server badge, which the icon then shows; "N" sets it.
    static func jpushBadge(_ value: JSONView) throws(WireError) -> BadgeDirective {
        if let number = value.number {
            guard let int = number.int, (0...Request.maxBadge).contains(int) else {
                throw WireError("notification.ios.badge must be an integer ≥ 0 or \"+N\" / \"-N\" (like \"+1\"); got \(RequestFields.describe(value))")
            }
            return .set(int)
        }
        switch try autoBadge(value, name: "notification.ios.badge") {
        case .autoSet(let int): return .set(int)
        case let other: return other
        }
    }

    mutating func readExtras(_ extras: JSONView?) {
        guard let extras, extras.kind == .object else { return }
        fill(url: Self.looseText(extras["url"]))
    }

    // MARK: Values

    /// A text field that must be a string when present (`null` and "" are absent).
    static func text(_ value: JSONView?, path: @autoclosure () -> String) throws(WireError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.string else {
            throw WireError("\(path()) must be a string; got \(RequestFields.describe(value))")
        }
        return text.nonEmpty
    }

    /// A Getui id: a string, or a number taken as its text.
    static func identifier(_ value: JSONView?, path: String) throws(WireError) -> String? {
        guard let value, !value.isNull else { return nil }
        if let text = value.string { return text.nonEmpty }
        if let number = value.number { return number.text }
        throw WireError("\(path) must be a string (Getui's id); got \(RequestFields.describe(value))")
    }

    /// Text from custom data, where anything goes: strings, and numbers as written.
    static func looseText(_ value: JSONView?) -> String? {
        guard let value else { return nil }
        if let text = value.string { return text.nonEmpty }
        return value.number?.text
    }
}

extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }

    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
