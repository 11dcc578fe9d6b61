import PushJSON

/// Who an FCM HTTP v1 message goes to: the `target` oneof of the v1 `Message` (Firebase, "REST
/// Resource: projects.messages"). `fid` (the Firebase installation id newer SDKs send) is a token.
public enum FCMTarget: Sendable, Equatable {
    case token(String)
    case topic(String)
    case condition(String)

    /// `token:T`, `topic:T` or `condition:C`.
    public var key: String {
        switch self {
        case .token(let token): "token:\(token)"
        case .topic(let topic): "topic:\(topic)"
        case .condition(let condition): "condition:\(condition)"
        }
    }
}

/// The platform of the device an FCM token belongs to: the same message is an Android message
/// on one and an APNs push (its `apns` block) on the other.
public enum DevicePlatform: String, Sendable, Equatable, CaseIterable {
    case android
    case ios
}

/// `AndroidConfig.priority` (`AndroidMessagePriority`): NORMAL or HIGH.
public enum FCMPriority: String, Sendable, Equatable, CaseIterable {
    case normal = "NORMAL"
    case high = "HIGH"
}

/// The v1 `Notification`: what every platform shows.
public struct FCMNotification: Sendable, Equatable {
    public var title: String?
    public var body: String?
    public var image: String?
    public init(title: String? = nil, body: String? = nil, image: String? = nil) {
        self.title = title
        self.body = body
        self.image = image
    }
}

/// The v1 `AndroidNotification`. The fields pushdeck does not act on are kept as given.
public struct FCMAndroidNotification: Sendable, Equatable {
    public var title: String?
    public var body: String?
    public var icon: String?
    public var color: String?
    public var sound: String?
    /// Replaces the shown notification with the same tag (`AndroidNotification.tag`).
    public var tag: String?
    public var clickAction: String?
    public var bodyLocKey: String?
    public var bodyLocArgs: [String] = []
    public var titleLocKey: String?
    public var titleLocArgs: [String] = []
    public var channelId: String?
    public var ticker: String?
    public var sticky: Bool?
    public var eventTime: String?
    public var localOnly: Bool?
    /// `NotificationPriority` as given (PRIORITY_MIN … PRIORITY_MAX).
    public var notificationPriority: String?
    public var defaultSound: Bool?
    public var defaultVibrateTimings: Bool?
    public var defaultLightSettings: Bool?
    public var vibrateTimings: [String] = []
    /// `Visibility` as given (PRIVATE, PUBLIC, SECRET).
    public var visibility: String?
    /// What the launcher badge shows for this notification.
    public var notificationCount: Int?
    public var lightSettings: JSON?
    public var image: String?
    public var bypassProxyNotification: Bool?
    /// `Proxy` as given (ALLOW, DENY, IF_PRIORITY_LOWERED).
    public var proxy: String?
    public init() {}
}

/// The v1 `AndroidConfig`.
public struct FCMAndroidConfig: Sendable, Equatable {
    public var collapseKey: String?
    public var priority: FCMPriority?
    /// `ttl` as written ("3.5s") and in seconds.
    public var ttl: String?
    public var ttlSeconds: Double?
    public var restrictedPackageName: String?
    /// Overrides the message's `data` when given.
    public var data: [String: String]?
    public var notification: FCMAndroidNotification?
    public var analyticsLabel: String?
    public var directBootOk: Bool?
    public var bandwidthConstrainedOk: Bool?
    public var restrictedSatelliteOk: Bool?
    public init() {}
}

/// The v1 `ApnsConfig`: the APNs request FCM makes for an iOS token.
public struct FCMApnsConfig: Sendable, Equatable {
    /// The APNs request headers (`apns-priority`, `apns-collapse-id`, …).
    public var headers: [String: String] = [:]
    /// The APNs payload (`aps` and custom keys), as given.
    public var payload: JSON?
    public var analyticsLabel: String?
    public var image: String?
    public var liveActivityToken: String?
    public init() {}
}

/// An FCM HTTP v1 `message` object, decoded and checked as FCM checks it (Firebase, "REST
/// Resource: projects.messages"; the field paths and wording of its `INVALID_ARGUMENT` answers
/// are those of Google's protobuf JSON parser).
public struct FCMMessage: Sendable, Equatable {
    public var target: FCMTarget
    /// `name`: output only in FCM; a value given is ignored.
    public var name: String?
    public var data: [String: String] = [:]
    public var notification: FCMNotification?
    public var android: FCMAndroidConfig?
    public var apns: FCMApnsConfig?
    /// `WebpushConfig`: pushdeck delivers to no browser, so it is kept as given.
    public var webpush: JSON?
    /// `fcm_options.analytics_label`.
    public var analyticsLabel: String?

    public init(target: FCMTarget) { self.target = target }

    /// The data an Android device gets: `android.data` when given, else `data` (AndroidConfig:
    /// "When provided, overrides any data fields set on the top-level Message").
    public var androidData: [String: String] { android?.data ?? data }

    /// A notification message (one with a `notification`, top-level or Android's) rather than a
    /// data message (Firebase, "About FCM messages": message types).
    public var isNotificationMessage: Bool { notification != nil || android?.notification != nil }
}

/// An FCM refusal: Google's `error.message` and the `BadRequest.fieldViolations`.
public struct FCMInvalid: Error, Sendable, Equatable {
    public var message: String
    public var violations: [FCMFieldViolation]
    public init(message: String, violations: [FCMFieldViolation] = []) {
        self.message = message
        self.violations = violations
    }
}

/// One `google.rpc.BadRequest.FieldViolation`: the field's path and what is wrong with it.
public struct FCMFieldViolation: Sendable, Equatable {
    public var field: String
    public var description: String
    public init(field: String, description: String) {
        self.field = field
        self.description = description
    }
}

/// What a push through FCM records besides what every push does: the project and message name
/// the send answered, the device platform, and the Android delivery options.
public struct FCMFacts: Sendable, Equatable {
    public var project: String
    /// `projects/{project}/messages/{id}`, as the send answered it.
    public var messageName: String
    public var platform: DevicePlatform
    public var collapseKey: String?
    /// `android.ttl` in seconds; nil means FCM's default of four weeks.
    public var ttlSeconds: Double?
    public var priority: FCMPriority?
    /// `android.notification.tag`.
    public var tag: String?
    /// `android.notification.notification_count`.
    public var notificationCount: Int?
    public init(
        project: String, messageName: String, platform: DevicePlatform, collapseKey: String? = nil,
        ttlSeconds: Double? = nil, priority: FCMPriority? = nil, tag: String? = nil, notificationCount: Int? = nil
    ) {
        self.project = project
        self.messageName = messageName
        self.platform = platform
        self.collapseKey = collapseKey
        self.ttlSeconds = ttlSeconds
        self.priority = priority
        self.tag = tag
        self.notificationCount = notificationCount
    }
}
