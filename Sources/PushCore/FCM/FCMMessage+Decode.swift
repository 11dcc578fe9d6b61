import PushJSON

// MARK: - Decoding a v1 message as FCM's front end does

extension FCMMessage {
    /// The most bytes of `data` and `notification` one message may carry: "Maximum payload for
    /// both message types is 4096 bytes" (Firebase, "About FCM messages").
    public static let maxPayloadBytes = 4096

    /// What FCM answers a message over `maxPayloadBytes` (its own wording, as firebase-admin-go
    /// users have it back from `messages:send`).
    public static let tooBigMessage = "Android message is too big"

    /// What FCM answers a message with no target ("Recipient of the message is not set.", the
    /// violation's field `message`).
    public static let noRecipientMessage = "Recipient of the message is not set."

    /// Google's generic `INVALID_ARGUMENT` message, for a field refused after it parsed.
    public static let invalidArgumentMessage = "Request contains an invalid argument."

    /// A topic name as FCM takes it: "[a-zA-Z0-9-_.~%]+" (Firebase, "Topic messaging on
    /// Android": subscribe and send to names matching that expression).
    public static func isTopicName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "%")
        }
    }

    /// Decodes the request body's `message` as FCM's HTTP v1 front end does: proto3 JSON (both
    /// the proto names and their lowerCamelCase forms, `null` as absent), unknown names refused
    /// with where they are, values of the wrong type refused with the field's path, then the
    /// target, the topic name and the 4096-byte limit. Every parse violation is listed, joined
    /// in `message` as Google's parser joins them.
    public static func decode(_ message: JSONView) -> Result<FCMMessage, FCMInvalid> {
        var reader = FCMReader()
        guard let decoded = reader.message(message) else {
            return .failure(FCMInvalid(
                message: reader.violations.map(\.description).joined(separator: "\n"), violations: reader.violations))
        }
        if let refusal = decoded.refusal { return .failure(refusal) }
        return .success(decoded)
    }

    /// What FCM refuses in a message that parsed: a topic name outside FCM's pattern, a negative
    /// `notification_count`, or more than 4096 bytes of data and notification.
    var refusal: FCMInvalid? {
        if case .topic(let name) = target, !Self.isTopicName(name) {
            return FCMInvalid(message: Self.invalidArgumentMessage, violations: [FCMFieldViolation(
                field: "message.topic", description: "Invalid topic name \(JSON.string(name).compactText): it must match [a-zA-Z0-9-_.~%]+ (without the /topics/ prefix)")])
        }
        if let count = android?.notification?.notificationCount, count < 0 {
            return FCMInvalid(message: Self.invalidArgumentMessage, violations: [FCMFieldViolation(
                field: "message.android.notification.notification_count",
                description: "Invalid value at 'message.android.notification.notification_count': must be zero or more, got \(count)")])
        }
        if payloadBytes > Self.maxPayloadBytes { return FCMInvalid(message: Self.tooBigMessage) }
        return nil
    }

    /// The bytes the 4096-byte limit counts: every key and value of the data a device gets and
    /// of the notification text.
    var payloadBytes: Int {
        var bytes = 0
        for (key, value) in data { bytes += key.utf8.count + value.utf8.count }
        if let androidData = android?.data {
            for (key, value) in androidData { bytes += key.utf8.count + value.utf8.count }
        }
        func count(_ text: String?) { bytes += text?.utf8.count ?? 0 }
        count(notification?.title)
        count(notification?.body)
        count(notification?.image)
        if let shown = android?.notification {
            count(shown.title)
            count(shown.body)
            count(shown.bodyLocKey)
            count(shown.titleLocKey)
            count(shown.image)
            for argument in shown.bodyLocArgs { count(argument) }
            for argument in shown.titleLocArgs { count(argument) }
        }
        return bytes
    }
}

/// Reads a v1 message field by field, gathering Google's parse violations.
///
/// The wording is that of Google's protobuf JSON front end as FCM answers it: an unknown name is
/// `Invalid JSON payload received. Unknown name "x" at 'message.android': Cannot find field.`
/// (the violation's field the object holding it), a value of the wrong type is `Invalid value at
/// 'message.data[0].value' (TYPE_STRING), 5` (map entries are numbered in the order given), an
/// array where one value belongs is `… Proto field is not repeating, cannot start list.`.
///
/// Each object is read in one pass over its members on the parsed tape: a member's name is
/// matched against its type's field names on the bytes (`FCMFieldSet`), and made a string only
/// when a violation quotes it or a map keeps it. Making a string of every name and searching the
/// names as strings was most of decoding a message (callgrind on the release server).
struct FCMReader {
    var violations: [FCMFieldViolation] = []

    private mutating func fail(_ field: String, _ description: String) {
        violations.append(FCMFieldViolation(field: field, description: description))
    }

    /// How Google's parser shows a refused value: strings quoted, numbers and booleans as
    /// written, an object as the start it refused.
    static func shown(_ value: JSONView) -> String {
        switch value.kind {
        case .string: return JSON.string(value.string ?? "").compactText
        case .object: return "Starting an object on a scalar field"
        case .array: return "Starting an array on a scalar field"
        default: return value.json.compactText
        }
    }

    private mutating func invalid(_ path: String, _ type: String, _ value: JSONView) {
        fail(path, "Invalid value at '\(path)' (\(type)), \(Self.shown(value))")
    }

    /// The proto name's lowerCamelCase JSON name (`collapse_key` → `collapseKey`; protobuf's
    /// JSON mapping: "the field name is converted to lowerCamelCase"). Proto field names are
    /// ASCII (letters, digits, `_`), so it works on the UTF-8 bytes. The field tables write
    /// these names out; this is what they are checked against.
    static func jsonName(_ protoName: String) -> String {
        let underscore = UInt8(ascii: "_")
        guard protoName.utf8.contains(underscore) else { return protoName }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(protoName.utf8.count)
        var upper = false
        for byte in protoName.utf8 {
            if byte == underscore { upper = true; continue }
            bytes.append(upper && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte)
            upper = false
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An object's fields: the last one given of a field counts (under either of its names).
    struct Fields<Field: FCMFieldSet> {
        fileprivate var given: [(field: Field, value: JSONView)] = []

        subscript(field: Field) -> JSONView? { given.last { $0.field == field }?.value }
    }

    /// The members of an object as `Field`s, unknown names refused; `null` members are absent.
    /// Nil (with the violation) when `value` is not an object.
    private mutating func object<Field: FCMFieldSet>(
        _ value: JSONView, path: @autoclosure () -> String, type: @autoclosure () -> String, as _: Field.Type
    ) -> Fields<Field>? {
        guard value.kind == .object else {
            notAnObject(value, path: path(), type: type())
            return nil
        }
        var fields = Fields<Field>()
        value.forEachMember { name, member in
            guard let field = Field.field(named: name) else {
                unknown(name.text, at: path())
                return
            }
            if !member.isNull { fields.given.append((field, member)) }
        }
        return fields
    }

    private mutating func unknown(_ name: String, at path: String) {
        fail(path, "Invalid JSON payload received. Unknown name \(JSON.string(name).compactText)\(Self.at(path)): Cannot find field.")
    }

    private mutating func notAnObject(_ value: JSONView, path: String, type: String) {
        if value.kind == .array {
            let (parent, name) = Self.split(path)
            fail(parent, "Invalid JSON payload received. Unknown name \(JSON.string(name).compactText)\(Self.at(parent)): Proto field is not repeating, cannot start list.")
        } else {
            invalid(path, "type.googleapis.com/\(type)", value)
        }
    }

    /// ` at 'path'`, or nothing at the request's root (Google names no place there).
    static func at(_ path: String) -> String { path.isEmpty ? "" : " at '\(path)'" }

    /// `message.android.ttl` → (`message.android`, `ttl`).
    static func split(_ path: String) -> (parent: String, name: String) {
        guard let dot = path.lastIndex(of: ".") else { return ("", path) }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }

    // A field's path is an autoclosure in the readers below: it is built only for a violation
    // (a message names a few of the fields each reader is asked for, and building every
    // path was a tenth of an FCM send).

    private mutating func string(_ value: JSONView?, _ path: @autoclosure () -> String) -> String? {
        guard let value else { return nil }
        if value.kind == .array { return repeatedScalar(value, path()) }
        guard let text = value.string else {
            invalid(path(), "TYPE_STRING", value)
            return nil
        }
        return text
    }

    /// An array given for a field that takes one value.
    private mutating func repeatedScalar(_ value: JSONView, _ path: String) -> String? {
        let (parent, name) = Self.split(path)
        fail(parent, "Invalid JSON payload received. Unknown name \(JSON.string(name).compactText)\(Self.at(parent)): Proto field is not repeating, cannot start list.")
        return nil
    }

    private mutating func bool(_ value: JSONView?, _ path: @autoclosure () -> String) -> Bool? {
        guard let value else { return nil }
        if value.kind == .array { _ = repeatedScalar(value, path()); return nil }
        guard let flag = value.bool else {
            invalid(path(), "TYPE_BOOL", value)
            return nil
        }
        return flag
    }

    /// An int32: a number or its text (proto3 JSON takes both).
    private mutating func int32(_ value: JSONView?, _ path: @autoclosure () -> String) -> Int? {
        guard let value else { return nil }
        if value.kind == .array { _ = repeatedScalar(value, path()); return nil }
        let text = value.number?.text ?? value.string
        guard let text, let number = Int32(text) else {
            invalid(path(), "TYPE_INT32", value)
            return nil
        }
        return Int(number)
    }

    /// An enum: one of its names, or its number.
    private mutating func enumeration(
        _ value: JSONView?, _ path: @autoclosure () -> String, type: @autoclosure () -> String, names: [String]
    ) -> String? {
        guard let value else { return nil }
        if value.kind == .array { _ = repeatedScalar(value, path()); return nil }
        if let name = value.string, names.contains(name) { return name }
        if let number = value.number?.int, names.indices.contains(number) { return names[number] }
        invalid(path(), "type.googleapis.com/\(type())", value)
        return nil
    }

    /// A `google.protobuf.Duration`: seconds with up to nine fractional digits and an `s`
    /// ("3.5s"), as proto3 JSON writes it.
    private mutating func duration(_ value: JSONView?, _ path: @autoclosure () -> String) -> (text: String, seconds: Double)? {
        guard let value else { return nil }
        if value.kind == .array { _ = repeatedScalar(value, path()); return nil }
        guard let text = value.string, let seconds = Self.durationSeconds(text) else {
            invalid(path(), "type.googleapis.com/google.protobuf.Duration", value)
            return nil
        }
        return (text, seconds)
    }

    static func durationSeconds(_ text: String) -> Double? {
        var body = Substring(text)
        guard body.hasSuffix("s") else { return nil }
        body = body.dropLast()
        if body.hasPrefix("-") { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard let whole = parts.first, isDigits(whole), whole.count <= 12 else { return nil }
        if parts.count == 2 { guard isDigits(parts[1]), parts[1].count <= 9 else { return nil } }
        return Double(text.dropLast())
    }

    /// A `map<string, string>`: entries numbered in the order given.
    private mutating func stringMap(_ value: JSONView?, _ path: @autoclosure () -> String, type: @autoclosure () -> String) -> [String: String]? {
        guard let value else { return nil }
        guard value.kind == .object else {
            notAnObject(value, path: path(), type: type())
            return nil
        }
        var map: [String: String] = [:]
        var index = 0
        value.forEachMember { name, member in
            defer { index += 1 }
            guard let text = member.string else {
                invalid("\(path())[\(index)].value", "TYPE_STRING", member)
                return
            }
            map[name.text] = text
        }
        return map
    }

    private mutating func strings(_ value: JSONView?, _ path: @autoclosure () -> String) -> [String] {
        guard let value else { return [] }
        guard value.kind == .array else {
            invalid(path(), "TYPE_STRING", value)
            return []
        }
        var result: [String] = []
        for (index, element) in value.elements.enumerated() {
            guard let text = element.string else {
                invalid("\(path())[\(index)]", "TYPE_STRING", element)
                continue
            }
            result.append(text)
        }
        return result
    }

    /// A `google.protobuf.Struct` (any JSON object), kept as given.
    private mutating func structure(_ value: JSONView?, _ path: @autoclosure () -> String) -> JSON? {
        guard let value else { return nil }
        guard value.kind == .object else {
            notAnObject(value, path: path(), type: "google.protobuf.Struct")
            return nil
        }
        return value.json
    }

    // MARK: The message types

    mutating func message(_ value: JSONView) -> FCMMessage? {
        let path = "message"
        let type = "google.firebase.fcm.v1.Message"
        guard value.kind == .object else {
            notAnObject(value, path: path, type: type)
            return nil
        }
        // `target` is a oneof: its first member is the target, and each later one is refused as
        // the parser meets it — after the object's unknown names, as those are found first. A
        // target's name is spelled out only for such a violation.
        var fields = Fields<FCMMessageField>()
        var first: (field: FCMMessageField, value: JSONView, name: String?)?
        var laterTargets: [String] = []
        value.forEachMember { name, member in
            guard let field = FCMMessageField.field(named: name) else {
                unknown(name.text, at: path)
                return
            }
            if member.isNull { return }
            guard field.isTarget else {
                fields.given.append((field, member))
                return
            }
            if first == nil {
                first = (field, member, member.kind == .string ? nil : name.text)
            } else {
                laterTargets.append(name.text)
            }
        }
        var target: FCMTarget?
        if let first, let text = string(first.value, "message.\(first.name ?? "")") {
            switch first.field {
            case .topic: target = .topic(text)
            case .condition: target = .condition(text)
            default: target = .token(text)
            }
        }
        for name in laterTargets {
            fail(path, "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set '\(name)'")
        }
        let name = string(fields[.name], "message.name")
        let data = stringMap(fields[.data], "message.data", type: "google.firebase.fcm.v1.Message.DataEntry")
        let notification = fields[.notification].flatMap { self.notification($0) }
        let android = fields[.android].flatMap { self.android($0) }
        let apns = fields[.apns].flatMap { self.apns($0) }
        let webpush = fields[.webpush].flatMap { self.webpush($0) }
        var analyticsLabel: String?
        if let options = fields[.fcmOptions],
           let members = object(options, path: "message.fcm_options", type: "google.firebase.fcm.v1.FcmOptions", as: FCMAnalyticsOptionsField.self) {
            analyticsLabel = string(members[.analyticsLabel], "message.fcm_options.analytics_label")
        }
        guard violations.isEmpty else { return nil }
        guard let target else {
            fail(path, FCMMessage.noRecipientMessage)
            return nil
        }
        var message = FCMMessage(target: target)
        message.name = name
        message.data = data ?? [:]
        message.notification = notification
        message.android = android
        message.apns = apns
        message.webpush = webpush
        message.analyticsLabel = analyticsLabel
        return message
    }

    private mutating func notification(_ value: JSONView) -> FCMNotification? {
        let path = "message.notification"
        guard let fields = object(value, path: path, type: "google.firebase.fcm.v1.Notification", as: FCMNotificationField.self) else { return nil }
        return FCMNotification(
            title: string(fields[.title], "\(path).title"), body: string(fields[.body], "\(path).body"),
            image: string(fields[.image], "\(path).image"))
    }

    private mutating func android(_ value: JSONView) -> FCMAndroidConfig? {
        let path = "message.android"
        guard let fields = object(value, path: path, type: "google.firebase.fcm.v1.AndroidConfig", as: FCMAndroidConfigField.self) else { return nil }
        var config = FCMAndroidConfig()
        config.collapseKey = string(fields[.collapseKey], "\(path).collapse_key")
        config.priority = enumeration(
            fields[.priority], "\(path).priority", type: "google.firebase.fcm.v1.AndroidMessagePriority",
            names: ["NORMAL", "HIGH"]).flatMap(FCMPriority.init(rawValue:))
        if let ttl = duration(fields[.ttl], "\(path).ttl") {
            config.ttl = ttl.text
            config.ttlSeconds = ttl.seconds
        }
        config.restrictedPackageName = string(fields[.restrictedPackageName], "\(path).restricted_package_name")
        config.data = stringMap(fields[.data], "\(path).data", type: "google.firebase.fcm.v1.AndroidConfig.DataEntry")
        config.notification = fields[.notification].flatMap { androidNotification($0) }
        if let options = fields[.fcmOptions],
           let members = object(options, path: "\(path).fcm_options", type: "google.firebase.fcm.v1.AndroidFcmOptions", as: FCMAnalyticsOptionsField.self) {
            config.analyticsLabel = string(members[.analyticsLabel], "\(path).fcm_options.analytics_label")
        }
        config.directBootOk = bool(fields[.directBootOk], "\(path).direct_boot_ok")
        config.bandwidthConstrainedOk = bool(fields[.bandwidthConstrainedOk], "\(path).bandwidth_constrained_ok")
        config.restrictedSatelliteOk = bool(fields[.restrictedSatelliteOk], "\(path).restricted_satellite_ok")
        return config
    }

    private mutating func androidNotification(_ value: JSONView) -> FCMAndroidNotification? {
        let path = "message.android.notification"
        let type = "google.firebase.fcm.v1.AndroidNotification"
        guard let fields = object(value, path: path, type: type, as: FCMAndroidNotificationField.self) else { return nil }
        var shown = FCMAndroidNotification()
        // Read in the type's order, as the parser reports them.
        shown.title = string(fields[.title], "\(path).title")
        shown.body = string(fields[.body], "\(path).body")
        shown.icon = string(fields[.icon], "\(path).icon")
        shown.color = string(fields[.color], "\(path).color")
        shown.sound = string(fields[.sound], "\(path).sound")
        shown.tag = string(fields[.tag], "\(path).tag")
        shown.clickAction = string(fields[.clickAction], "\(path).click_action")
        shown.bodyLocKey = string(fields[.bodyLocKey], "\(path).body_loc_key")
        shown.bodyLocArgs = strings(fields[.bodyLocArgs], "\(path).body_loc_args")
        shown.titleLocKey = string(fields[.titleLocKey], "\(path).title_loc_key")
        shown.titleLocArgs = strings(fields[.titleLocArgs], "\(path).title_loc_args")
        shown.channelId = string(fields[.channelId], "\(path).channel_id")
        shown.ticker = string(fields[.ticker], "\(path).ticker")
        shown.sticky = bool(fields[.sticky], "\(path).sticky")
        shown.eventTime = string(fields[.eventTime], "\(path).event_time")
        shown.localOnly = bool(fields[.localOnly], "\(path).local_only")
        shown.notificationPriority = enumeration(
            fields[.notificationPriority], "\(path).notification_priority", type: "\(type).NotificationPriority",
            names: ["PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH", "PRIORITY_MAX"])
        shown.defaultSound = bool(fields[.defaultSound], "\(path).default_sound")
        shown.defaultVibrateTimings = bool(fields[.defaultVibrateTimings], "\(path).default_vibrate_timings")
        shown.defaultLightSettings = bool(fields[.defaultLightSettings], "\(path).default_light_settings")
        if let timings = fields[.vibrateTimings] {
            for (index, text) in strings(timings, "\(path).vibrate_timings").enumerated() where FCMReader.durationSeconds(text) == nil {
                fail("\(path).vibrate_timings[\(index)]", "Invalid value at '\(path).vibrate_timings[\(index)]' (type.googleapis.com/google.protobuf.Duration), \(JSON.string(text).compactText)")
            }
            shown.vibrateTimings = timings.elements.compactMap(\.string)
        }
        shown.visibility = enumeration(
            fields[.visibility], "\(path).visibility", type: "\(type).Visibility",
            names: ["VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET"])
        shown.notificationCount = int32(fields[.notificationCount], "\(path).notification_count")
        shown.lightSettings = structure(fields[.lightSettings], "\(path).light_settings")
        shown.image = string(fields[.image], "\(path).image")
        shown.bypassProxyNotification = bool(fields[.bypassProxyNotification], "\(path).bypass_proxy_notification")
        shown.proxy = enumeration(
            fields[.proxy], "\(path).proxy", type: "\(type).Proxy", names: ["PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED"])
        return shown
    }

    private mutating func apns(_ value: JSONView) -> FCMApnsConfig? {
        let path = "message.apns"
        guard let fields = object(value, path: path, type: "google.firebase.fcm.v1.ApnsConfig", as: FCMApnsConfigField.self) else { return nil }
        var config = FCMApnsConfig()
        config.headers = stringMap(fields[.headers], "\(path).headers", type: "google.firebase.fcm.v1.ApnsConfig.HeadersEntry") ?? [:]
        config.payload = structure(fields[.payload], "\(path).payload")
        if let options = fields[.fcmOptions],
           let members = object(options, path: "\(path).fcm_options", type: "google.firebase.fcm.v1.ApnsFcmOptions", as: FCMApnsOptionsField.self) {
            config.analyticsLabel = string(members[.analyticsLabel], "\(path).fcm_options.analytics_label")
            config.image = string(members[.image], "\(path).fcm_options.image")
        }
        config.liveActivityToken = string(fields[.liveActivityToken], "\(path).live_activity_token")
        return config
    }

    private mutating func webpush(_ value: JSONView) -> JSON? {
        let path = "message.webpush"
        guard let fields = object(value, path: path, type: "google.firebase.fcm.v1.WebpushConfig", as: FCMWebpushConfigField.self) else { return nil }
        _ = stringMap(fields[.headers], "\(path).headers", type: "google.firebase.fcm.v1.WebpushConfig.HeadersEntry")
        _ = stringMap(fields[.data], "\(path).data", type: "google.firebase.fcm.v1.WebpushConfig.DataEntry")
        _ = structure(fields[.notification], "\(path).notification")
        if let options = fields[.fcmOptions],
           let members = object(options, path: "\(path).fcm_options", type: "google.firebase.fcm.v1.WebpushFcmOptions", as: FCMWebpushOptionsField.self) {
            _ = string(members[.link], "\(path).fcm_options.link")
            _ = string(members[.analyticsLabel], "\(path).fcm_options.analytics_label")
        }
        return value.json
    }
}
