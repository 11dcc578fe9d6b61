import Foundation

/// A push payload decoded and validated, before the inbox decides what it does.
public struct Push: Sendable, Equatable {
    public var app: String
    public var channel: Channel
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var url: String?
    public var taskId: String?
    public var msgId: String?
    /// The request (or Getui's `offLine`) says it came from the offline queue.
    public var offline: Bool
    /// How the payload moves the badge itself, if it does; nil means "+1 on delivery".
    public var badge: BadgeDirective?
    /// How long the vendor keeps it for an app or device that cannot take it now, as the
    /// payload's own field says (`PushDecoder.timeToLive(of:)`); nil: the vendor's default.
    public var timeToLive: TimeInterval? = nil
    /// The payload exactly as received.
    public var payload: String
    /// The other messages the same request delivers, in order: a JPush push-API body with both
    /// `notification` and `message` (or a Getui v2 body with `notification` and `transmission`)
    /// is an APNs notification (this push) and a pass-through message (`also[0]`), as JPush
    /// documents that one call pushes both. Each keeps the whole payload.
    public var also: [Push] = []
    /// `apns-collapse-id`: the request's `collapseId`, else JPush `options.apns_collapse_id`.
    public var collapseId: String? = nil
    /// `aps.thread-id` (JPush `ios.thread-id`).
    public var threadId: String? = nil
    /// `aps.relevance-score` (0…1): orders the messages of an expanded thread.
    public var relevance: Double? = nil
    /// Silent: `content-available` without an alert, or the request's push type `background`.
    public var silent: Bool = false
    /// `aps.interruption-level` (JPush `ios.interruption-level`), when it is one of the four.
    public var interruption: InterruptionLevel? = nil
    /// The request's `priority` (APNs 10, 5 or 1), when given.
    public var priority: Int? = nil
    /// The stored message this push replaces (same app and collapse id), looked up by the loop
    /// before the reducer sees the push, as `read` looks up its messages.
    public var replacing: Message? = nil
    /// Where it came from, the device token and the vendor headers (see `PushRequest`).
    public var via: Via
    public var token: String?
    public var headers: [String: String]
    /// An FCM push's project, message name, platform and Android delivery options.
    public var fcm: FCMFacts? = nil

    public init(
        app: String, channel: Channel, title: String? = nil, subtitle: String? = nil,
        body: String? = nil, url: String? = nil, taskId: String? = nil, msgId: String? = nil,
        offline: Bool = false, badge: BadgeDirective? = nil, payload: String,
        via: Via = .socket, token: String? = nil, headers: [String: String] = [:]
    ) {
        self.via = via
        self.token = token
        self.headers = headers
        self.app = app
        self.channel = channel
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.url = url
        self.taskId = taskId
        self.msgId = msgId
        self.offline = offline
        self.badge = badge
        self.payload = payload
    }
}
