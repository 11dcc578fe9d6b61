import PushJSON

/// One field of a v1 message type as JSON names it: its proto name and, when that has an
/// underscore, its lowerCamelCase JSON name (protobuf's JSON mapping: "the field name is
/// converted to lowerCamelCase"; a parser takes both). Static text, so a member's name is
/// compared with them on its bytes and no string is made for it.
struct FCMFieldName: Sendable {
    let proto: StaticString
    let json: StaticString?

    init(_ proto: StaticString, _ json: StaticString? = nil) {
        self.proto = proto
        self.json = json
    }
}

/// The fields of one v1 message type, a case each, named by `names` in case order.
protocol FCMFieldSet: CaseIterable, Equatable, RawRepresentable where RawValue == Int {
    static var names: [FCMFieldName] { get }
}

extension FCMFieldSet {
    /// The field an object member's name is: a proto name, else a JSON name (the order in which
    /// the names were looked up before, proto names first), compared as Swift compares strings
    /// (`JSONTape.MemberName`: plain ASCII byte by byte, anything else as text). Nil for a name
    /// the type does not have.
    static func field(named name: JSONTape.MemberName) -> Self? {
        let names = Self.names
        for index in names.indices where name == names[index].proto { return Self(rawValue: index) }
        for index in names.indices {
            if let json = names[index].json, name == json { return Self(rawValue: index) }
        }
        return nil
    }
}

// MARK: - The v1 types' fields (Firebase, "REST Resource: projects.messages")

/// `google.firebase.fcm.v1.Message`. The last four are the `target` oneof.
enum FCMMessageField: Int, FCMFieldSet {
    case name, data, notification, android, webpush, apns, fcmOptions, token, topic, condition, fid

    static let names = [
        FCMFieldName("name"), FCMFieldName("data"), FCMFieldName("notification"), FCMFieldName("android"),
        FCMFieldName("webpush"), FCMFieldName("apns"), FCMFieldName("fcm_options", "fcmOptions"), FCMFieldName("token"),
        FCMFieldName("topic"), FCMFieldName("condition"), FCMFieldName("fid"),
    ]

    var isTarget: Bool { rawValue >= Self.token.rawValue }
}

/// `google.firebase.fcm.v1.Notification`.
enum FCMNotificationField: Int, FCMFieldSet {
    case title, body, image

    static let names = [FCMFieldName("title"), FCMFieldName("body"), FCMFieldName("image")]
}

/// `google.firebase.fcm.v1.AndroidConfig`.
enum FCMAndroidConfigField: Int, FCMFieldSet {
    case collapseKey, priority, ttl, restrictedPackageName, data, notification, fcmOptions, directBootOk
    case bandwidthConstrainedOk, restrictedSatelliteOk

    static let names = [
        FCMFieldName("collapse_key", "collapseKey"), FCMFieldName("priority"), FCMFieldName("ttl"),
        FCMFieldName("restricted_package_name", "restrictedPackageName"), FCMFieldName("data"), FCMFieldName("notification"),
        FCMFieldName("fcm_options", "fcmOptions"), FCMFieldName("direct_boot_ok", "directBootOk"),
        FCMFieldName("bandwidth_constrained_ok", "bandwidthConstrainedOk"),
        FCMFieldName("restricted_satellite_ok", "restrictedSatelliteOk"),
    ]
}

/// `google.firebase.fcm.v1.AndroidNotification`.
enum FCMAndroidNotificationField: Int, FCMFieldSet {
    case title, body, icon, color, sound, tag, clickAction, bodyLocKey, bodyLocArgs, titleLocKey, titleLocArgs
    case channelId, ticker, sticky, eventTime, localOnly, notificationPriority, defaultSound, defaultVibrateTimings
    case defaultLightSettings, vibrateTimings, visibility, notificationCount, lightSettings, image
    case bypassProxyNotification, proxy

    static let names = [
        FCMFieldName("title"), FCMFieldName("body"), FCMFieldName("icon"), FCMFieldName("color"), FCMFieldName("sound"),
        FCMFieldName("tag"), FCMFieldName("click_action", "clickAction"), FCMFieldName("body_loc_key", "bodyLocKey"),
        FCMFieldName("body_loc_args", "bodyLocArgs"), FCMFieldName("title_loc_key", "titleLocKey"),
        FCMFieldName("title_loc_args", "titleLocArgs"), FCMFieldName("channel_id", "channelId"), FCMFieldName("ticker"),
        FCMFieldName("sticky"), FCMFieldName("event_time", "eventTime"), FCMFieldName("local_only", "localOnly"),
        FCMFieldName("notification_priority", "notificationPriority"), FCMFieldName("default_sound", "defaultSound"),
        FCMFieldName("default_vibrate_timings", "defaultVibrateTimings"),
        FCMFieldName("default_light_settings", "defaultLightSettings"), FCMFieldName("vibrate_timings", "vibrateTimings"),
        FCMFieldName("visibility"), FCMFieldName("notification_count", "notificationCount"),
        FCMFieldName("light_settings", "lightSettings"), FCMFieldName("image"),
        FCMFieldName("bypass_proxy_notification", "bypassProxyNotification"), FCMFieldName("proxy"),
    ]
}

/// `google.firebase.fcm.v1.ApnsConfig`.
enum FCMApnsConfigField: Int, FCMFieldSet {
    case headers, payload, fcmOptions, liveActivityToken

    static let names = [
        FCMFieldName("headers"), FCMFieldName("payload"), FCMFieldName("fcm_options", "fcmOptions"),
        FCMFieldName("live_activity_token", "liveActivityToken"),
    ]
}

/// `google.firebase.fcm.v1.WebpushConfig`.
enum FCMWebpushConfigField: Int, FCMFieldSet {
    case headers, data, notification, fcmOptions

    static let names = [
        FCMFieldName("headers"), FCMFieldName("data"), FCMFieldName("notification"), FCMFieldName("fcm_options", "fcmOptions"),
    ]
}

/// `FcmOptions` and `AndroidFcmOptions`: the analytics label alone.
enum FCMAnalyticsOptionsField: Int, FCMFieldSet {
    case analyticsLabel

    static let names = [FCMFieldName("analytics_label", "analyticsLabel")]
}

/// `google.firebase.fcm.v1.ApnsFcmOptions`.
enum FCMApnsOptionsField: Int, FCMFieldSet {
    case analyticsLabel, image

    static let names = [FCMFieldName("analytics_label", "analyticsLabel"), FCMFieldName("image")]
}

/// `google.firebase.fcm.v1.WebpushFcmOptions`.
enum FCMWebpushOptionsField: Int, FCMFieldSet {
    case link, analyticsLabel

    static let names = [FCMFieldName("link"), FCMFieldName("analytics_label", "analyticsLabel")]
}
