import PushCore
import PushJSON

// The differential tests' own push decoder, written apart from `PushDecoder` so that neither can
// hide a slip of the other, from the payload rules the product documents for each field (`Push`'s
// comments): it reads the reference reader's tree (`ReferenceValue`), where the product
// reads its tape in place, and it gathers what a message shows as offers into a table, the first
// offer of each field winning, where the product fills stored properties. Slow and
// plain on purpose; refusals are worded as the product words them, since that wording is what a
// person reads and what the differential tests compare.

struct ReferencePushDecoder {
    /// The APNs payload limit (`--max-payload`).
    var maxPayloadBytes: Int
    init(maxPayloadBytes: Int = 4096) { self.maxPayloadBytes = maxPayloadBytes }

    /// A payload as read from a file or the socket.
    func decode(payload bytes: [UInt8], app: String? = nil, channel: Channel? = nil, offline: Bool = false) throws(WireError) -> Push {
        try refuseOversized(bytes.count)
        let tree = try read(bytes)
        var request = PushRequest(payloadText: "")
        request.payloadText = String(decoding: bytes, as: UTF8.self)
        (request.app, request.channel, request.offline) = (app, channel, offline)
        return try decode(tree, for: request)
    }

    /// A push request: its payload text is parsed from scratch. Only the socket's pushes are held
    /// to `maxPayloadBytes` (a gateway holds its own vendor's limit).
    func decode(_ request: PushRequest) throws(WireError) -> Push {
        let text = [UInt8](request.payloadText.utf8)
        if request.via == .socket { try refuseOversized(text.count) }
        return try decode(try read(text), for: request)
    }

    private func refuseOversized(_ count: Int) throws(WireError) {
        let limit = maxPayloadBytes
        if count > limit { throw WireError("payload is \(count) bytes; the APNs limit is \(limit) (--max-payload to change)") }
    }

    /// The payload's tree, or the refusal of its text: bad UTF-8, too deep, or bad JSON.
    private func read(_ bytes: [UInt8]) throws(WireError) -> ReferenceValue {
        let error: JSONError
        do {
            return try ReferenceJSONParser.tree(bytes)
        } catch let caught {
            error = caught
        }
        let place = "at byte \(error.offset)"
        switch error.kind {
        case .invalidUTF8:
            var culprit = ""
            if bytes.indices.contains(error.offset) {
                let code = String(bytes[error.offset], radix: 16, uppercase: true)
                culprit = " (byte 0x\(code.count == 1 ? "0" + code : code))"
            }
            throw WireError("payload is not valid UTF-8 \(place)\(culprit); pushdeck takes UTF-8 JSON text")
        case .tooDeep:
            throw WireError("payload is nested too deeply: \(error.message) \(place)")
        case .syntax:
            throw WireError("payload is not valid JSON: \(error.message) \(place)")
        }
    }

    // MARK: - A payload's messages

    private func decode(_ payload: ReferenceValue, for request: PushRequest) throws(WireError) -> Push {
        guard case .object = payload else {
            throw WireError("payload must be a JSON object (like {\"aps\":{\"alert\":\"Hello\"}}); got \(payload.kindWord)")
        }
        // `aps` present makes an APNs notification; `"aps": null` is no dictionary either.
        let aps = payload.member("aps")
        var common = Shown()
        var deliveries: [(channel: Channel, shown: Shown)]
        switch aps {
        case .object?:
            try common.takeAPS(aps ?? .null)
            try common.takeGetui(payload, overAPNs: true)
            deliveries = [(.apns, common)]
        case let other?:
            throw WireError("aps must be an object (the APNs dictionary with alert, badge, sound…); got \(other.kindWord)")
        case nil:
            try common.takeGetui(payload, overAPNs: false)
            common.takeCustomMessage(payload)
            deliveries = try common.pushAPIDeliveries(payload)
            if deliveries.isEmpty { deliveries = [(.transparent, common)] }
        }
        // A request naming the channel gets one message: the payload's first on that channel.
        if let asked = request.channel {
            deliveries = [(asked, (deliveries.first { $0.channel == asked } ?? deliveries[0]).shown)]
        }

        // The payload's own naming is checked even when the request names the app.
        let named = try namedApp(payload)
        let app = request.app ?? named ?? "default"
        let topURL = loose(payload.member("url"))
        let timeToLive = ReferenceValue.referenceTimeToLive(request.payloadText)
        var pushes: [Push] = []
        for (channel, shown) in deliveries {
            var message = Push(
                app: app, channel: channel, title: shown[.title], subtitle: shown[.subtitle], body: shown[.body],
                url: shown[.url] ?? topURL, taskId: shown[.taskId], msgId: shown[.msgId],
                offline: request.offline || shown.fromOfflineQueue, badge: shown.badgeChange, payload: request.payloadText,
                via: request.via, token: request.token, headers: request.headers)
            message.priority = request.priority
            message.timeToLive = timeToLive
            // Collapse id, thread, relevance, interruption level and silence are APNs' alone.
            if channel == .apns {
                message.collapseId = request.collapseId ?? shown[.collapseId]
                message.threadId = shown[.threadId]
                message.relevance = shown.relevanceScore
                message.interruption = shown.level
                let alerts = [shown[.title], shown[.subtitle], shown[.body]].contains { $0 != nil }
                message.silent = request.pushType == "background" || (shown.availableContent && !alerts)
            }
            pushes.append(message)
        }
        var first = pushes.removeFirst()
        first.also = pushes
        return first
    }

    /// The app is the request's, else the first of these members that names one.
    private func namedApp(_ payload: ReferenceValue) throws(WireError) -> String? {
        for key in ["Simulator Target Bundle", "Simulate Target Bundle", "appId", "appKey"] {
            switch payload.member(key) {
            case nil, .null?:
                continue
            case .string(let name)?:
                if !name.isEmpty { return name }
            case let other?:
                throw WireError("\"\(key)\" must be a string (the app's bundle id, like com.example.shop); got \(shownInRefusal(other))")
            }
        }
        return nil
    }
}

// MARK: - What a message shows

/// What one message shows, offered field by field by the payload's shapes in order (APNs first,
/// then Getui, then JPush and the push-API bodies): a field keeps the first offer it gets.
private struct Shown {
    enum Field: Hashable {
        case title, subtitle, body, url, taskId, msgId, threadId, collapseId
    }

    private var table: [Field: String] = [:]
    var fromOfflineQueue = false
    var badgeChange: BadgeDirective?
    var relevanceScore: Double?
    var availableContent = false
    var level: InterruptionLevel?

    subscript(field: Field) -> String? { table[field] }

    mutating func offer(_ field: Field, _ text: String?) {
        if table[field] == nil { table[field] = text }
    }

    /// The title, subtitle and body of an alert dictionary, where anything goes.
    mutating func offerAlert(_ alert: ReferenceValue) {
        offer(.title, loose(alert.member("title")))
        offer(.subtitle, loose(alert.member("subtitle")))
        offer(.body, loose(alert.member("body")))
    }

    /// `extras.url` of JPush.
    mutating func offerExtras(_ extras: ReferenceValue?) {
        if case .object? = extras { offer(.url, loose(extras?.member("url"))) }
    }

    /// How an APNs dictionary (an `aps`, a JPush `notification.ios`, Getui's `push_channel.ios.aps`)
    /// presents the message; custom data, so nothing here is refused.
    mutating func takePresentation(_ dictionary: ReferenceValue) {
        offer(.threadId, loose(dictionary.member("thread-id")))
        if relevanceScore == nil, case .number(let text)? = dictionary.member("relevance-score"),
           let score = Double(text), score.isFinite {
            relevanceScore = score
        }
        switch dictionary.member("content-available") {
        case .bool(true)?: availableContent = true
        case .number(let text)? where Int(text) == 1: availableContent = true
        default: break
        }
        if level == nil, case .string(let name)? = dictionary.member("interruption-level") {
            level = InterruptionLevel(rawValue: name)
        }
    }

    // MARK: APNs

    mutating func takeAPS(_ aps: ReferenceValue) throws(WireError) {
        takePresentation(aps)
        let alert = aps.member("alert")
        switch alert {
        case nil, .null?:
            break
        case .string(let text)?:
            offer(.body, text.isEmpty ? nil : text)
        case .object?:
            let dictionary = alert ?? .null
            let title = try strict(dictionary.member("title"), "aps.alert.title")
            let subtitle = try strict(dictionary.member("subtitle"), "aps.alert.subtitle")
            let body = try strict(dictionary.member("body"), "aps.alert.body")
            // With no text, a localized key is shown with its arguments.
            let titleKey = try localized(dictionary, "title-loc-key", "title-loc-args")
            let subtitleKey = try localized(dictionary, "subtitle-loc-key", "subtitle-loc-args")
            let bodyKey = try localized(dictionary, "loc-key", "loc-args")
            offer(.title, title ?? titleKey)
            offer(.subtitle, subtitle ?? subtitleKey)
            offer(.body, body ?? bodyKey)
        case let other?:
            throw WireError("aps.alert must be a string or an object (with title, subtitle, body); got \(shownInRefusal(other))")
        }
        switch aps.member("badge") {
        case nil, .null?:
            break
        case .number(let text)? where Int(text).map({ $0 >= 0 && $0 <= Int(Int32.max) }) == true:
            badgeChange = .set(Int(text) ?? 0)
        case let other?:
            throw WireError("aps.badge must be an integer ≥ 0 (the icon badge number); got \(shownInRefusal(other))")
        }
    }

    /// `KEY(arg, arg)` for a `*-loc-key` and its `*-loc-args`.
    private func localized(_ alert: ReferenceValue, _ key: String, _ arguments: String) throws(WireError) -> String? {
        guard let name = try strict(alert.member(key), "aps.alert.\(key)") else { return nil }
        switch alert.member(arguments) {
        case nil, .null?:
            return name
        case .array(let items)?:
            if items.isEmpty { return name }
            var written: [String] = []
            for item in items { written.append(loose(item) ?? item.json.compactText) }
            return name + "(" + written.joined(separator: ", ") + ")"
        case let other?:
            throw WireError("aps.alert.\(arguments) must be an array of strings (the arguments of \(key)); got \(shownInRefusal(other))")
        }
    }

    // MARK: Getui

    /// Getui's pass-through fields, which also come over APNs (its channel to an app not running).
    mutating func takeGetui(_ payload: ReferenceValue, overAPNs: Bool) throws(WireError) {
        offer(.taskId, try identifier(payload.member("taskId"), "taskId"))
        offer(.msgId, try identifier(payload.member("msgId"), "msgId"))
        // JPush's SDK hands its message id to the app as `_j_msgid`.
        offer(.msgId, loose(payload.member("_j_msgid")))
        let message = payload.member("payload")
        switch message {
        case nil, .null?:
            break
        case .string(let text)?:
            takeGetuiText(text)
        case .object?:
            takePushModel(message ?? .null)
        case let other?:
            // Over APNs `payload` is just one more custom key of the app's.
            if !overAPNs {
                throw WireError("the payload's \"payload\" key (Getui's pass-through message) must be a string or an object; got \(shownInRefusal(other))")
            }
        }
        switch payload.member("offLine") {
        case nil, .null?:
            break
        case .bool(let flag)?:
            if flag { fromOfflineQueue = true }
        case .number("1")?:
            fromOfflineQueue = true
        case .number("0")?:
            break
        case let other?:
            throw WireError("offLine must be true or false (Getui's offline-queue flag); got \(shownInRefusal(other))")
        }
        if badgeChange == nil, let value = payload.member("autoBadge"), value != .null {
            badgeChange = try getuiBadge(value, "autoBadge")
        }
    }

    /// Getui's message text: an STPushModel in JSON (the STPushView banner's model) when it is one
    /// with fields of the model, else the text itself is the body.
    mutating func takeGetuiText(_ text: String) {
        if text.first == "{", let model = try? ReferenceJSONParser.tree(Array(text.utf8)), case .object = model {
            let before = [self[.title], self[.body], self[.url]]
            takePushModel(model)
            if before != [self[.title], self[.body], self[.url]] { return }
        }
        offer(.body, text.isEmpty ? nil : text)
    }

    /// STPushModel: `title`, `content` (or `body`), `url`, and `mid` for a missing message id.
    mutating func takePushModel(_ model: ReferenceValue) {
        offer(.title, loose(model.member("title")))
        offer(.body, loose(model.member("content")) ?? loose(model.member("body")))
        offer(.url, loose(model.member("url")))
        offer(.msgId, loose(model.member("mid")))
    }

    // MARK: JPush and the push-API bodies

    /// A JPush custom message (`title`, `content` or `message`, `extras`) or notification event (`alert`).
    mutating func takeCustomMessage(_ payload: ReferenceValue) {
        offer(.title, loose(payload.member("title")))
        offer(.subtitle, loose(payload.member("subtitle")))
        let bodies = ["content", "message", "alert", "body"].lazy.compactMap { loose(payload.member($0)) }
        offer(.body, bodies.first)
        offerExtras(payload.member("extras"))
    }

    /// The messages of a JPush v3 or Getui v2 push-API body, each starting from what this payload
    /// shows already; empty when the payload is no such body.
    ///
    /// JPush: `notification` goes through APNs (`ios.alert` before the common `alert`), `message`
    /// is pass-through, and a body with both delivers both. Getui: `push_message.notification`
    /// and `push_channel.ios` go through APNs, `push_message.transmission` is pass-through — and
    /// a transmission with only `push_channel.ios` beside it is delivered once, pass-through.
    func pushAPIDeliveries(_ payload: ReferenceValue) throws(WireError) -> [(channel: Channel, shown: Shown)] {
        func object(_ value: ReferenceValue?) -> ReferenceValue? {
            if case .object? = value { return value }
            return nil
        }
        let jpushNotification = object(payload.member("notification"))
        let jpushMessage = object(payload.member("message"))
        let getui = object(payload.member("push_message"))
        let getuiNotification = object(getui?.member("notification"))
        var transmission: String?
        if case .string(let text)? = getui?.member("transmission") { transmission = text }
        let iosChannel = object(object(payload.member("push_channel"))?.member("ios"))

        let passesThrough = jpushMessage != nil || transmission != nil
        let notifies = jpushNotification != nil || getuiNotification != nil
        // `push_channel.ios` is Getui's APNs fallback: with only a transmission it adds nothing.
        let iosCounts = iosChannel != nil && (notifies || !passesThrough)

        var found: [(channel: Channel, shown: Shown)] = []
        if notifies || iosCounts {
            var apns = self
            if let jpushNotification {
                try apns.takeJPushNotification(jpushNotification)
                if let options = object(payload.member("options")) {
                    apns.table[.collapseId] = loose(options.member("apns_collapse_id"))
                }
            }
            if let getuiNotification {
                apns.offer(.title, loose(getuiNotification.member("title")))
                apns.offer(.body, loose(getuiNotification.member("body")))
                apns.offer(.url, loose(getuiNotification.member("url")))
            }
            if iosCounts, let iosChannel { try apns.takeGetuiIOS(iosChannel) }
            found.append((.apns, apns))
        }
        if passesThrough {
            var inApp = self
            if let jpushMessage {
                inApp.offer(.title, loose(jpushMessage.member("title")))
                inApp.offer(.body, loose(jpushMessage.member("msg_content")))
                inApp.offerExtras(jpushMessage.member("extras"))
            }
            if let transmission { inApp.takeGetuiText(transmission) }
            found.append((.transparent, inApp))
        }
        return found
    }

    private mutating func takeJPushNotification(_ notification: ReferenceValue) throws(WireError) {
        if let ios = notification.member("ios"), case .object = ios {
            let alert = ios.member("alert")
            if case .object? = alert {
                offerAlert(alert ?? .null)
            } else {
                offer(.body, loose(alert))
            }
            offerExtras(ios.member("extras"))
            takePresentation(ios)
            if badgeChange == nil, let value = ios.member("badge"), value != .null {
                badgeChange = try jpushBadge(value)
            }
        }
        offer(.body, loose(notification.member("alert")))
    }

    private mutating func takeGetuiIOS(_ ios: ReferenceValue) throws(WireError) {
        if let aps = ios.member("aps"), case .object = aps {
            takePresentation(aps)
            let alert = aps.member("alert")
            if case .object? = alert {
                offerAlert(alert ?? .null)
            } else {
                offer(.body, loose(alert))
            }
        }
        if case .string(let text)? = ios.member("payload") { takeGetuiText(text) }
        if badgeChange == nil, let value = ios.member("auto_badge"), value != .null {
            badgeChange = try getuiBadge(value, "push_channel.ios.auto_badge")
        }
    }
}

// MARK: - Values

/// Custom data's text: a non-empty string, or a number as written.
private func loose(_ value: ReferenceValue?) -> String? {
    switch value {
    case .string(let text)?: text.isEmpty ? nil : text
    case .number(let text)?: text
    default: nil
    }
}

/// A field that is text when present; `null` and "" are absent.
private func strict(_ value: ReferenceValue?, _ path: String) throws(WireError) -> String? {
    switch value {
    case nil, .null?: return nil
    case .string(let text)?: return text.isEmpty ? nil : text
    case let other?: throw WireError("\(path) must be a string; got \(shownInRefusal(other))")
    }
}

/// Getui's ids: text, or a number taken as written.
private func identifier(_ value: ReferenceValue?, _ path: String) throws(WireError) -> String? {
    if case .number(let text)? = value { return text }
    do {
        return try strict(value, path)
    } catch {
        throw WireError("\(path) must be a string (Getui's id); got \(shownInRefusal(value ?? .null))")
    }
}

/// Getui's badge text: "+N" and "-N" move the server badge, "N" sets it (N up to Int32.max).
private func getuiBadge(_ value: ReferenceValue, _ name: String) throws(WireError) -> BadgeDirective {
    let refusal = WireError("\(name) must be \"+N\", \"-N\" or \"N\" (like \"+1\"), N from 0 to \(Int32.max); got \(shownInRefusal(value))")
    var written: Substring
    switch value {
    case .string(let text):
        // Spaces and tabs around the text do not count.
        written = Substring(text).drop(while: { $0 == " " || $0 == "\t" })
        while let last = written.last, last == " " || last == "\t" { written.removeLast() }
    case .number(let text):
        written = Substring(text)
    default:
        throw refusal
    }
    let sign = written.first
    if sign == "+" || sign == "-" { written.removeFirst() }
    let onlyDigits = !written.isEmpty && written.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    guard onlyDigits, let amount = Int(written), amount <= Int(Int32.max) else { throw refusal }
    if sign == "+" { return .autoAdd(amount) }
    if sign == "-" { return .autoAdd(-amount) }
    return .autoSet(amount)
}

/// JPush's `notification.ios.badge`: a number sets the icon; Getui-like text moves or sets it.
private func jpushBadge(_ value: ReferenceValue) throws(WireError) -> BadgeDirective {
    guard case .number(let text) = value else {
        let directive = try getuiBadge(value, "notification.ios.badge")
        if case .autoSet(let amount) = directive { return .set(amount) }
        return directive
    }
    guard let amount = Int(text), amount >= 0, amount <= Int(Int32.max) else {
        throw WireError("notification.ios.badge must be an integer ≥ 0 or \"+N\" / \"-N\" (like \"+1\"); got \(shownInRefusal(value))")
    }
    return .set(amount)
}

/// A value as a refusal quotes it: strings (40 characters at most) and scalars as written,
/// containers by kind.
private func shownInRefusal(_ value: ReferenceValue) -> String {
    switch value {
    case .string(let text) where text.count > 40: JSON.string(String(text.prefix(40)) + "…").compactText
    case .string(let text): JSON.string(text).compactText
    case .number(let text): text
    case .bool(let flag): flag ? "true" : "false"
    default: value.kindWord
    }
}

extension ReferenceValue {
    /// The kind's name as refusals say it.
    fileprivate var kindWord: String {
        if case .null = self { return "null" }
        if case .bool = self { return "a boolean" }
        if case .number = self { return "a number" }
        if case .string = self { return "a string" }
        if case .array = self { return "an array" }
        return "an object"
    }

    /// The vendor's time to live, read off the tree parse (the inbox's rule before it was the
    /// decoder's): JPush `options.time_to_live` s, Getui `settings.ttl` ms (-1: 0), Getui
    /// `offLineExpireTime` ms.
    static func referenceTimeToLive(_ text: String) -> Double? {
        guard case .object(let object)? = try? JSON.parse(Array(text.utf8)) else { return nil }
        func number(_ value: JSON?) -> Double? {
            if case .number(let number)? = value { return Double(number.text) }
            return nil
        }
        if case .object(let options)? = object["options"], let seconds = number(options["time_to_live"]), seconds >= 0 {
            return seconds
        }
        if case .object(let settings)? = object["settings"], let milliseconds = number(settings["ttl"]) {
            if milliseconds == -1 { return 0 }
            if milliseconds >= 0 { return milliseconds / 1000 }
        }
        if let milliseconds = number(object["offLineExpireTime"]), milliseconds >= 0 { return milliseconds / 1000 }
        return nil
    }
}
