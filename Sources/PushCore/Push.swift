import Foundation

/// A push payload decoded and validated, before the inbox decides what it does.
public struct Push: Sendable, Equatable {
    /// A push's fields, kept once in a box its copies share (`SharedFields`), as a message's
    /// are: a push is handed from the decoder to the request, the event and the reducer.
    @usableFromInline
    struct Fields: Sendable, Equatable {
        @usableFromInline var app: String
        @usableFromInline var channel: Channel
        @usableFromInline var title: String?
        @usableFromInline var subtitle: String?
        @usableFromInline var body: String?
        @usableFromInline var url: String?
        @usableFromInline var taskId: String?
        @usableFromInline var msgId: String?
        @usableFromInline var offline: Bool
        @usableFromInline var badge: BadgeDirective?
        @usableFromInline var timeToLive: TimeInterval? = nil
        @usableFromInline var payload: String
        @usableFromInline var also: [Push] = []
        @usableFromInline var collapseId: String? = nil
        @usableFromInline var threadId: String? = nil
        @usableFromInline var relevance: Double? = nil
        @usableFromInline var silent: Bool = false
        @usableFromInline var interruption: InterruptionLevel? = nil
        @usableFromInline var priority: Int? = nil
        @usableFromInline var replacing: ReplacedMessage? = nil
        @usableFromInline var via: Via
        @usableFromInline var token: String?
        @usableFromInline var headers: [String: String]
        @usableFromInline var fcm: FCMFacts? = nil
    }

    @usableFromInline var box: SharedFields<Fields>

    /// The fields to write to: the box itself when no other push shares it, else a copy.
    @inlinable var fields: Fields {
        get { box.fields }
        _modify {
            SharedFields.unshare(&box)
            yield &box.fields
        }
    }

    public static func == (lhs: Push, rhs: Push) -> Bool { SharedFields.same(lhs.box, rhs.box) }

    @inlinable public var app: String {
        get { box.fields.app }
        _modify { yield &fields.app }
    }
    @inlinable public var channel: Channel {
        get { box.fields.channel }
        _modify { yield &fields.channel }
    }
    @inlinable public var title: String? {
        get { box.fields.title }
        _modify { yield &fields.title }
    }
    @inlinable public var subtitle: String? {
        get { box.fields.subtitle }
        _modify { yield &fields.subtitle }
    }
    @inlinable public var body: String? {
        get { box.fields.body }
        _modify { yield &fields.body }
    }
    @inlinable public var url: String? {
        get { box.fields.url }
        _modify { yield &fields.url }
    }
    @inlinable public var taskId: String? {
        get { box.fields.taskId }
        _modify { yield &fields.taskId }
    }
    @inlinable public var msgId: String? {
        get { box.fields.msgId }
        _modify { yield &fields.msgId }
    }
    /// The request (or Getui's `offLine`) says it came from the offline queue.
    @inlinable public var offline: Bool {
        get { box.fields.offline }
        _modify { yield &fields.offline }
    }
    /// How the payload moves the badge itself, if it does; nil means "+1 on delivery".
    @inlinable public var badge: BadgeDirective? {
        get { box.fields.badge }
        _modify { yield &fields.badge }
    }
    /// How long the vendor keeps it for an app or device that cannot take it now, as the
    /// payload's own field says (`PushDecoder.timeToLive(of:)`); nil: the vendor's default.
    @inlinable public var timeToLive: TimeInterval? {
        get { box.fields.timeToLive }
        _modify { yield &fields.timeToLive }
    }
    /// The payload exactly as received.
    @inlinable public var payload: String {
        get { box.fields.payload }
        _modify { yield &fields.payload }
    }
    /// The other messages the same request delivers, in order: a JPush push-API body with both
    /// `notification` and `message` (or a Getui v2 body with `notification` and `transmission`)
    /// is an APNs notification (this push) and a pass-through message (`also[0]`), as JPush
    /// documents that one call pushes both. Each keeps the whole payload.
    @inlinable public var also: [Push] {
        get { box.fields.also }
        _modify { yield &fields.also }
    }
    /// `apns-collapse-id`: the request's `collapseId`, else JPush `options.apns_collapse_id`.
    @inlinable public var collapseId: String? {
        get { box.fields.collapseId }
        _modify { yield &fields.collapseId }
    }
    /// `aps.thread-id` (JPush `ios.thread-id`).
    @inlinable public var threadId: String? {
        get { box.fields.threadId }
        _modify { yield &fields.threadId }
    }
    /// `aps.relevance-score` (0…1): orders the messages of an expanded thread.
    @inlinable public var relevance: Double? {
        get { box.fields.relevance }
        _modify { yield &fields.relevance }
    }
    /// Silent: `content-available` without an alert, or the request's push type `background`.
    @inlinable public var silent: Bool {
        get { box.fields.silent }
        _modify { yield &fields.silent }
    }
    /// `aps.interruption-level` (JPush `ios.interruption-level`), when it is one of the four.
    @inlinable public var interruption: InterruptionLevel? {
        get { box.fields.interruption }
        _modify { yield &fields.interruption }
    }
    /// The request's `priority` (APNs 10, 5 or 1), when given.
    @inlinable public var priority: Int? {
        get { box.fields.priority }
        _modify { yield &fields.priority }
    }
    /// The stored message this push replaces (same app and collapse id), looked up by the loop
    /// before the reducer sees the push, as `read` looks up its messages.
    @inlinable public var replacing: ReplacedMessage? {
        get { box.fields.replacing }
        _modify { yield &fields.replacing }
    }
    /// Where it came from, the device token and the vendor headers (see `PushRequest`).
    @inlinable public var via: Via {
        get { box.fields.via }
        _modify { yield &fields.via }
    }
    @inlinable public var token: String? {
        get { box.fields.token }
        _modify { yield &fields.token }
    }
    @inlinable public var headers: [String: String] {
        get { box.fields.headers }
        _modify { yield &fields.headers }
    }
    /// An FCM push's project, message name, platform and Android delivery options.
    @inlinable public var fcm: FCMFacts? {
        get { box.fields.fcm }
        _modify { yield &fields.fcm }
    }

    public init(
        app: String, channel: Channel, title: String? = nil, subtitle: String? = nil,
        body: String? = nil, url: String? = nil, taskId: String? = nil, msgId: String? = nil,
        offline: Bool = false, badge: BadgeDirective? = nil, payload: String,
        via: Via = .socket, token: String? = nil, headers: [String: String] = [:]
    ) {
        box = SharedFields(Fields(
            app: app, channel: channel, title: title, subtitle: subtitle, body: body, url: url, taskId: taskId, msgId: msgId,
            offline: offline, badge: badge, payload: payload, via: via, token: token, headers: headers))
    }
}
