import PushCore
import PushJSON

// The tree-based push decoder as it was before it read payloads in place (commit a5f6131), kept
// unchanged but for names so the new one can be checked against it (see DifferentialTests).

/// RequestFields.describe of commit a5f6131.
private func describe(_ value: JSON) -> String {
    switch value {
    case .string(let text):
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return JSON.string(shown).compactText
    case .number(let number): return number.text
    case .bool(let bool): return bool ? "true" : "false"
    default: return value.kindName
    }
}

@inline(__always)
private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(truncatingIfNeeded: character.value) }

/// Decodes and validates a push payload (DESIGN §4): channel and app inference, APNs, Getui
/// pass-through and Getui-over-APNs, JPush; refusals name the field path and what is accepted.
///
/// What is shown is derived from the payload; the payload itself is kept as received. Keys the
/// decoder does not know are kept and never refused: real files carry all kinds of custom data.
struct ReferencePushDecoder: Sendable {
    /// The APNs payload limit (`--max-payload`).
    var maxPayloadBytes: Int
    init(maxPayloadBytes: Int = 4096) { self.maxPayloadBytes = maxPayloadBytes }

    /// The keys that name the app, in the order they are tried. "Simulate Target Bundle" is a
    /// misspelling seen in real files; `simctl` ignores it, but it is what the author meant.
    static let appKeys = ["Simulator Target Bundle", "Simulate Target Bundle", "appId", "appKey"]
    static let defaultApp = "default"

    func decode(_ request: PushRequest) throws(WireError) -> Push {
        var text = request.payloadText
        let size = text.utf8.count
        try checkSize(size)
        let parsed: Result<JSON, JSONError> = text.withUTF8 { bytes in
            Result { () throws(JSONError) in try ReferenceJSONParser.parse(Array(bytes)) }
        }
        let value: JSON
        switch parsed {
        case .success(let json): value = json
        case .failure(let error): throw WireError(error.wireMessage(subject: "payload", bytes: Array(request.payloadText.utf8)))
        }
        return try decode(value, request: request)
    }

    /// Decodes payload bytes as read from a file or socket (validating that they are UTF-8).
    func decode(payload bytes: [UInt8], app: String? = nil, channel: Channel? = nil, offline: Bool = false) throws(WireError) -> Push {
        try checkSize(bytes.count)
        let value: JSON
        do {
            value = try ReferenceJSONParser.parse(bytes)
        } catch {
            throw WireError(error.wireMessage(subject: "payload", bytes: bytes))
        }
        let request = PushRequest(payloadText: String(decoding: bytes, as: UTF8.self), app: app, channel: channel, offline: offline)
        return try decode(value, request: request)
    }

    private func checkSize(_ size: Int) throws(WireError) {
        guard size <= maxPayloadBytes else {
            throw WireError("payload is \(size) bytes; the APNs limit is \(maxPayloadBytes) (--max-payload to change)")
        }
    }

    // MARK: - Fields

    private func decode(_ value: JSON, request: PushRequest) throws(WireError) -> Push {
        guard case .object(let payload) = value else {
            throw WireError("payload must be a JSON object (like {\"aps\":{\"alert\":\"Hello\"}}); got \(value.kindName)")
        }
        let aps = payload["aps"].flatMap { $0 == .null ? nil : $0 }
        var content = ReferencePushContent()
        if let aps {
            guard case .object(let apsObject) = aps else {
                throw WireError("aps must be an object (the APNs dictionary with alert, badge, sound…); got \(aps.kindName)")
            }
            try content.readAPNs(apsObject)
        }
        try content.readGetui(payload, isAPNs: aps != nil)
        if aps == nil { content.readCustomMessage(payload) }

        // Issue 13: push-API bodies name their own channels (written apart from PushDecoder's
        // version, from the JPush v3 and Getui v2 documents, so the two check each other).
        var messages: [(Channel, ReferencePushContent)]
        if aps == nil, let split = try content.split(payload) {
            messages = split
        } else {
            messages = [(aps != nil ? .apns : .transparent, content)]
        }
        if let wanted = request.channel {
            let match = messages.first(where: { $0.0 == wanted }) ?? messages[0]
            messages = [(wanted, match.1)]
        }

        let named = try Self.app(of: payload)
        var pushes: [Push] = []
        var jpushCollapseId: String?
        if aps == nil, case .object? = payload["notification"], case .object(let options)? = payload["options"] {
            jpushCollapseId = ReferencePushContent.looseText(options["apns_collapse_id"])
        }
        for (channel, shown) in messages {
            var push = Push(
                app: request.app ?? named ?? Self.defaultApp,
                channel: channel,
                title: shown.title, subtitle: shown.subtitle, body: shown.body,
                url: shown.url ?? ReferencePushContent.looseText(payload["url"]),
                taskId: shown.taskId, msgId: shown.msgId, offline: request.offline || shown.offline,
                badge: shown.badge, payload: request.payloadText)
            push.priority = request.priority
            if channel == .apns {
                // Issue 13: the dictionaries an APNs notification is presented by, first one first.
                let looks = aps.flatMap { if case .object(let object) = $0 { [object] } else { nil } } ?? shown.looks
                push.collapseId = request.collapseId ?? jpushCollapseId
                push.threadId = looks.lazy.compactMap { ReferencePushContent.looseText($0["thread-id"]) }.first
                push.relevance = looks.lazy.compactMap { look -> Double? in
                    guard case .number(let number)? = look["relevance-score"], number.double.isFinite else { return nil }
                    return number.double
                }.first
                push.interruption = looks.lazy.compactMap { look -> InterruptionLevel? in
                    guard case .string(let name)? = look["interruption-level"] else { return nil }
                    return InterruptionLevel(rawValue: name)
                }.first
                let available = looks.contains { look in
                    switch look["content-available"] {
                    case .bool(true)?: true
                    case .number(let number)?: number.int == 1
                    default: false
                    }
                }
                let shows = shown.title != nil || shown.subtitle != nil || shown.body != nil
                push.silent = request.pushType == "background" || (available && !shows)
            }
            pushes.append(push)
        }
        var first = pushes.removeFirst()
        first.also = pushes
        return first
    }

    /// The app the payload names, if it names one.
    static func app(of payload: JSONObject) throws(WireError) -> String? {
        for key in appKeys {
            guard let value = payload[key], value != .null else { continue }
            guard case .string(let app) = value else {
                throw WireError("\"\(key)\" must be a string (the app's bundle id, like com.example.shop); got \(describe(value))")
            }
            if !app.isEmpty { return app }
        }
        return nil
    }
}

/// What a payload shows and how it moves the badge, gathered from whichever shapes it has.
///
/// Each field keeps the first value found: APNs `aps` first, then Getui, then JPush and the
/// push-API request bodies, so a payload in several shapes shows its most specific text.
struct ReferencePushContent {
    var title: String?
    var subtitle: String?
    var body: String?
    var url: String?
    var taskId: String?
    var msgId: String?
    /// JPush `notification.ios` and Getui `push_channel.ios.aps`, as read (issue 13).
    var looks: [JSONObject] = []
    var offline = false
    var badge: BadgeDirective?

    mutating func fill(title: String? = nil, subtitle: String? = nil, body: String? = nil, url: String? = nil) {
        if self.title == nil { self.title = title }
        if self.subtitle == nil { self.subtitle = subtitle }
        if self.body == nil { self.body = body }
        if self.url == nil { self.url = url }
    }

    // MARK: APNs

    mutating func readAPNs(_ aps: JSONObject) throws(WireError) {
        switch aps["alert"] {
        case nil, .null?:
            break
        case .string(let text)?:
            fill(body: text.nonEmpty)
        case .object(let alert)?:
            let title = try Self.text(alert["title"], path: "aps.alert.title")
            let subtitle = try Self.text(alert["subtitle"], path: "aps.alert.subtitle")
            let body = try Self.text(alert["body"], path: "aps.alert.body")
            // A localized key is shown with its arguments when there is no text to show.
            let titleKey = try Self.localized(alert, key: "title-loc-key", args: "title-loc-args")
            let subtitleKey = try Self.localized(alert, key: "subtitle-loc-key", args: "subtitle-loc-args")
            let bodyKey = try Self.localized(alert, key: "loc-key", args: "loc-args")
            fill(title: title ?? titleKey, subtitle: subtitle ?? subtitleKey, body: body ?? bodyKey)
        case let other?:
            throw WireError("aps.alert must be a string or an object (with title, subtitle, body); got \(describe(other))")
        }
        switch aps["badge"] {
        case nil, .null?:
            break
        case let value?:
            guard case .number(let number) = value, let int = number.int, (0...Request.maxBadge).contains(int) else {
                throw WireError("aps.badge must be an integer ≥ 0 (the icon badge number); got \(describe(value))")
            }
            badge = .set(int)
        }
    }

    /// `key(arg1, arg2)` for a `*-loc-key`, or nil when there is none.
    private static func localized(_ alert: JSONObject, key: String, args: String) throws(WireError) -> String? {
        guard let name = try text(alert[key], path: "aps.alert.\(key)") else { return nil }
        switch alert[args] {
        case nil, .null?:
            return name
        case .array(let elements)?:
            guard !elements.isEmpty else { return name }
            let shown = elements.map { looseText($0) ?? $0.compactText }
            return "\(name)(\(shown.joined(separator: ", ")))"
        case let other?:
            throw WireError("aps.alert.\(args) must be an array of strings (the arguments of \(key)); got \(describe(other))")
        }
    }

    // MARK: Getui

    /// Getui fields: `payload` (pass-through text, or over APNs a JSON string), `taskId`, `msgId`,
    /// `offLine`, `autoBadge`.
    mutating func readGetui(_ payload: JSONObject, isAPNs: Bool) throws(WireError) {
        if taskId == nil { taskId = try Self.identifier(payload["taskId"], path: "taskId") }
        if msgId == nil { msgId = try Self.identifier(payload["msgId"], path: "msgId") }
        // JPush's message id, as its SDK hands APNs userInfo to the app.
        if msgId == nil { msgId = Self.looseText(payload["_j_msgid"]) }
        switch payload["payload"] {
        case nil, .null?:
            break
        case .string(let text)?:
            readGetuiMessage(text)
        case .object(let model)?:
            readPushModel(model)
        case let other?:
            // Over APNs `payload` is the app's own custom key; only pass-through defines it.
            if !isAPNs {
                throw WireError("the payload's \"payload\" key (Getui's pass-through message) must be a string or an object; got \(describe(other))")
            }
        }
        switch payload["offLine"] {
        case nil, .null?: break
        case .bool(let flag)?: offline = offline || flag
        case .number(let number)? where number.text == "0" || number.text == "1": offline = offline || number.text == "1"
        case let other?:
            throw WireError("offLine must be true or false (Getui's offline-queue flag); got \(describe(other))")
        }
        if badge == nil, let value = payload["autoBadge"], value != .null {
            badge = try Self.autoBadge(value)
        }
    }

    /// Getui's `payload` string: an STPushModel JSON object (seed 004), else the text itself.
    mutating func readGetuiMessage(_ text: String) {
        if text.first == "{", case .object(let model)? = try? ReferenceJSONParser.parse(Array(text.utf8)) {
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
    private mutating func readPushModel(_ model: JSONObject) {
        fill(
            title: Self.looseText(model["title"]),
            body: Self.looseText(model["content"]) ?? Self.looseText(model["body"]),
            url: Self.looseText(model["url"]))
        if msgId == nil { msgId = Self.looseText(model["mid"]) }
    }

    /// Getui `autoBadge`: "+N" / "-N" move the server badge, "N" sets it.
    static func autoBadge(_ value: JSON, name: String = "autoBadge") throws(WireError) -> BadgeDirective {
        let refusal = WireError("\(name) must be \"+N\", \"-N\" or \"N\" (like \"+1\"), N from 0 to \(Request.maxBadge); got \(describe(value))")
        let text: String
        switch value {
        case .string(let string): text = string.trimmingSpaces
        case .number(let number): text = number.text
        default: throw refusal
        }
        var digits = Substring(text)
        let sign = digits.first
        if sign == "+" || sign == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= ascii("0") && $0 <= ascii("9") }),
              let amount = Int(digits), amount <= Request.maxBadge
        else { throw refusal }
        switch sign {
        case "+": return .autoAdd(amount)
        case "-": return .autoAdd(-amount)
        default: return .autoSet(amount)
        }
    }

    // MARK: JPush and push-API bodies

    /// Pass-through shapes without `aps`: a JPush custom message (`title`, `content` or
    /// `message`, `extras`), a JPush notification event (`alert`).
    mutating func readCustomMessage(_ payload: JSONObject) {
        fill(
            title: Self.looseText(payload["title"]),
            subtitle: Self.looseText(payload["subtitle"]),
            body: Self.looseText(payload["content"]) ?? Self.looseText(payload["message"])
                ?? Self.looseText(payload["alert"]) ?? Self.looseText(payload["body"]))
        readExtras(payload["extras"])
    }

    /// JPush v3 `notification` (APNs on iOS) and `message` (in-app, not through APNs); Getui v2
    /// `push_message.notification` / `push_channel.ios` (APNs) and `push_message.transmission`
    /// (pass-through, and alone when only `push_channel.ios` comes with it). Nil when the
    /// payload has none of them.
    func split(_ payload: JSONObject) throws(WireError) -> [(Channel, ReferencePushContent)]? {
        var apns: ReferencePushContent?
        var transparent: ReferencePushContent?

        if case .object(let notification)? = payload["notification"] {
            var shown = self
            if case .object(let ios)? = notification["ios"] {
                switch ios["alert"] {
                case .object(let alert)?:
                    shown.fill(title: Self.looseText(alert["title"]), subtitle: Self.looseText(alert["subtitle"]), body: Self.looseText(alert["body"]))
                case let other:
                    shown.fill(body: Self.looseText(other))
                }
                shown.readExtras(ios["extras"])
                shown.looks.append(ios)
                if shown.badge == nil {
                    switch ios["badge"] {
                    case nil, .null?: break
                    case .number(let number)?:
                        guard let int = number.int, int >= 0, int <= Request.maxBadge else {
                            throw WireError("notification.ios.badge must be an integer ≥ 0 or \"+N\" / \"-N\" (like \"+1\"); got \(describe(.number(number)))")
                        }
                        shown.badge = .set(int)
                    case let other?:
                        let directive = try Self.autoBadge(other, name: "notification.ios.badge")
                        if case .autoSet(let int) = directive { shown.badge = .set(int) } else { shown.badge = directive }
                    }
                }
            }
            shown.fill(body: Self.looseText(notification["alert"]))
            apns = shown
        }
        if case .object(let message)? = payload["message"] {
            var shown = self
            shown.fill(title: Self.looseText(message["title"]), body: Self.looseText(message["msg_content"]))
            shown.readExtras(message["extras"])
            transparent = shown
        }
        if case .object(let pushMessage)? = payload["push_message"] {
            if case .object(let notification)? = pushMessage["notification"] {
                var shown = apns ?? self
                shown.fill(
                    title: Self.looseText(notification["title"]), body: Self.looseText(notification["body"]),
                    url: Self.looseText(notification["url"]))
                apns = shown
            }
            if case .string(let transmission)? = pushMessage["transmission"] {
                var shown = transparent ?? self
                shown.readGetuiMessage(transmission)
                transparent = shown
            }
        }
        if case .object(let channels)? = payload["push_channel"], case .object(let ios)? = channels["ios"],
           !(apns == nil && transparent != nil) {
            var shown = apns ?? self
            if case .object(let aps)? = ios["aps"] {
                shown.looks.append(aps)
                if case .object(let alert)? = aps["alert"] {
                    shown.fill(title: Self.looseText(alert["title"]), subtitle: Self.looseText(alert["subtitle"]), body: Self.looseText(alert["body"]))
                } else {
                    shown.fill(body: Self.looseText(aps["alert"]))
                }
            }
            if case .string(let text)? = ios["payload"] { shown.readGetuiMessage(text) }
            if shown.badge == nil, let value = ios["auto_badge"], value != .null {
                shown.badge = try Self.autoBadge(value, name: "push_channel.ios.auto_badge")
            }
            apns = shown
        }
        let found = [apns.map { (Channel.apns, $0) }, transparent.map { (Channel.transparent, $0) }].compactMap { $0 }
        return found.isEmpty ? nil : found
    }

    mutating func readExtras(_ extras: JSON?) {
        guard case .object(let extras)? = extras else { return }
        fill(url: Self.looseText(extras["url"]))
    }

    // MARK: Values

    /// A text field that must be a string when present (`null` and "" are absent).
    static func text(_ value: JSON?, path: String) throws(WireError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text.nonEmpty
        case let other?: throw WireError("\(path) must be a string; got \(describe(other))")
        }
    }

    /// A Getui id: a string, or a number taken as its text.
    static func identifier(_ value: JSON?, path: String) throws(WireError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text.nonEmpty
        case .number(let number)?: return number.text
        case let other?: throw WireError("\(path) must be a string (Getui's id); got \(describe(other))")
        }
    }

    /// Text from custom data, where anything goes: strings, and numbers as written.
    static func looseText(_ value: JSON?) -> String? {
        switch value {
        case .string(let text)?: text.nonEmpty
        case .number(let number)?: number.text
        default: nil
        }
    }
}

extension String {
    // (private copies of PushCore's internal helpers)
    /// The string, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }

    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
