import Foundation

/// One delivered (or held) push, as the inbox keeps it.
///
/// The raw payload text is kept byte for byte as it arrived; everything shown is derived from it.
public struct Message: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var app: String
    public var channel: Channel
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var url: String?
    public var read: Bool
    /// Delivered from Getui's offline queue (held while the app was terminated).
    public var offline: Bool
    /// The notification the app was launched with (the newest APNs push while terminated).
    public var launch: Bool
    /// Held in the offline queue: stored, not yet delivered, not listed.
    public var held: Bool
    public var receivedAt: Date
    public var taskId: String?
    public var msgId: String?
    /// The payload exactly as received.
    public var payload: String
    /// `apns-collapse-id` (or JPush `apns_collapse_id`): a later push with the same id replaces
    /// this message in place.
    public var collapseId: String? = nil
    /// `aps.thread-id`: the list groups messages by it.
    public var threadId: String? = nil
    /// `aps.relevance-score`: within an expanded thread the highest comes first, then the newest.
    public var relevance: Double? = nil
    /// A silent (background) push: `content-available` without an alert, or push type background.
    public var silent: Bool = false
    /// `aps.interruption-level` as given (passive, active, time-sensitive, critical).
    public var interruption: String? = nil
    /// A held pass-through message whose time to live ran out before the app could get it:
    /// listed as expired, never delivered.
    public var expired: Bool = false
    /// The front door it came in by: the socket, a vendor's API through the gateway, or the bus.
    public var via: Via
    /// The device token it was sent to, for gateway pushes.
    public var token: String?
    /// The APNs request's `apns-*` headers, for pushes through the APNs gateway (else empty).
    public var apnsHeaders: [String: String]
    /// How the payload moves the badge when the message is delivered (a held one later), as it
    /// was decoded with the push: kept, so no payload is decoded again. Nil: +1.
    public var badgeDirective: BadgeDirective? = nil
    /// The time to live the payload's vendor field gave (seconds), decoded with the push: a
    /// held message's expiry is worked out from it. Nil: the vendor's default.
    public var timeToLive: TimeInterval? = nil
    /// The callback or system surface the message reached, decided when it was delivered (FCM:
    /// `onMessageReceived`, `system tray`, `onDeletedMessages`); nil: the one the app state gives
    /// (`Inbox.callback(for:)`).
    public var callback: String? = nil
    /// An FCM message's project, message name, platform and Android delivery options.
    public var fcm: FCMFacts? = nil

    public init(
        id: Int64, app: String, channel: Channel, title: String? = nil, subtitle: String? = nil,
        body: String? = nil, url: String? = nil, read: Bool = false, offline: Bool = false,
        launch: Bool = false, held: Bool = false, receivedAt: Date, taskId: String? = nil,
        msgId: String? = nil, payload: String, collapseId: String? = nil, threadId: String? = nil,
        silent: Bool = false, interruption: String? = nil, expired: Bool = false, via: Via = .socket,
        token: String? = nil, apnsHeaders: [String: String] = [:]
    ) {
        self.expired = expired
        self.collapseId = collapseId
        self.threadId = threadId
        self.silent = silent
        self.interruption = interruption
        self.via = via
        self.token = token
        self.apnsHeaders = apnsHeaders
        self.id = id
        self.app = app
        self.channel = channel
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.url = url
        self.read = read
        self.offline = offline
        self.launch = launch
        self.held = held
        self.receivedAt = receivedAt
        self.taskId = taskId
        self.msgId = msgId
        self.payload = payload
    }
}
