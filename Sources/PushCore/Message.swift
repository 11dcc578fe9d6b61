import Foundation

/// One delivered (or held) push, as the inbox keeps it.
///
/// The raw payload text is kept byte for byte as it arrived; everything shown is derived from it.
public struct Message: Sendable, Equatable, Identifiable {
    /// A message's fields, kept once in a box its copies share (`SharedFields`): a message is
    /// copied whole several times a push (the reducer's effects, the store's write, the bus
    /// event, the banner).
    @usableFromInline
    struct Fields: Sendable, Equatable {
        @usableFromInline var id: Int64
        @usableFromInline var app: String
        @usableFromInline var channel: Channel
        @usableFromInline var title: String?
        @usableFromInline var subtitle: String?
        @usableFromInline var body: String?
        @usableFromInline var url: String?
        @usableFromInline var read: Bool
        @usableFromInline var offline: Bool
        @usableFromInline var launch: Bool
        @usableFromInline var held: Bool
        @usableFromInline var receivedAt: Date
        @usableFromInline var taskId: String?
        @usableFromInline var msgId: String?
        @usableFromInline var payload: String
        @usableFromInline var collapseId: String? = nil
        @usableFromInline var threadId: String? = nil
        @usableFromInline var relevance: Double? = nil
        @usableFromInline var silent: Bool = false
        @usableFromInline var interruption: String? = nil
        @usableFromInline var expired: Bool = false
        @usableFromInline var via: Via
        @usableFromInline var token: String?
        @usableFromInline var apnsHeaders: [String: String]
        @usableFromInline var badgeDirective: BadgeDirective? = nil
        @usableFromInline var timeToLive: TimeInterval? = nil
        @usableFromInline var callback: String? = nil
        @usableFromInline var fcm: FCMFacts? = nil
    }

    @usableFromInline var box: SharedFields<Fields>

    /// The fields to write to: the box itself when no other message shares it, else a copy.
    @inlinable var fields: Fields {
        get { box.fields }
        _modify {
            SharedFields.unshare(&box)
            yield &box.fields
        }
    }

    public static func == (lhs: Message, rhs: Message) -> Bool { SharedFields.same(lhs.box, rhs.box) }

    @inlinable public var id: Int64 {
        get { box.fields.id }
        _modify { yield &fields.id }
    }
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
    @inlinable public var read: Bool {
        get { box.fields.read }
        _modify { yield &fields.read }
    }
    /// Delivered from Getui's offline queue (held while the app was terminated).
    @inlinable public var offline: Bool {
        get { box.fields.offline }
        _modify { yield &fields.offline }
    }
    /// The notification the app was launched with (the newest APNs push while terminated).
    @inlinable public var launch: Bool {
        get { box.fields.launch }
        _modify { yield &fields.launch }
    }
    /// Held in the offline queue: stored, not yet delivered, not listed.
    @inlinable public var held: Bool {
        get { box.fields.held }
        _modify { yield &fields.held }
    }
    @inlinable public var receivedAt: Date {
        get { box.fields.receivedAt }
        _modify { yield &fields.receivedAt }
    }
    @inlinable public var taskId: String? {
        get { box.fields.taskId }
        _modify { yield &fields.taskId }
    }
    @inlinable public var msgId: String? {
        get { box.fields.msgId }
        _modify { yield &fields.msgId }
    }
    /// The payload exactly as received.
    @inlinable public var payload: String {
        get { box.fields.payload }
        _modify { yield &fields.payload }
    }
    /// `apns-collapse-id` (or JPush `apns_collapse_id`): a later push with the same id replaces
    /// this message in place.
    @inlinable public var collapseId: String? {
        get { box.fields.collapseId }
        _modify { yield &fields.collapseId }
    }
    /// `aps.thread-id`: the list groups messages by it.
    @inlinable public var threadId: String? {
        get { box.fields.threadId }
        _modify { yield &fields.threadId }
    }
    /// `aps.relevance-score`: within an expanded thread the highest comes first, then the newest.
    @inlinable public var relevance: Double? {
        get { box.fields.relevance }
        _modify { yield &fields.relevance }
    }
    /// A silent (background) push: `content-available` without an alert, or push type background.
    @inlinable public var silent: Bool {
        get { box.fields.silent }
        _modify { yield &fields.silent }
    }
    /// `aps.interruption-level` as given (passive, active, time-sensitive, critical).
    @inlinable public var interruption: String? {
        get { box.fields.interruption }
        _modify { yield &fields.interruption }
    }
    /// A held pass-through message whose time to live ran out before the app could get it:
    /// listed as expired, never delivered.
    @inlinable public var expired: Bool {
        get { box.fields.expired }
        _modify { yield &fields.expired }
    }
    /// The front door it came in by: the socket, a vendor's API through the gateway, or the bus.
    @inlinable public var via: Via {
        get { box.fields.via }
        _modify { yield &fields.via }
    }
    /// The device token it was sent to, for gateway pushes.
    @inlinable public var token: String? {
        get { box.fields.token }
        _modify { yield &fields.token }
    }
    /// The APNs request's `apns-*` headers, for pushes through the APNs gateway (else empty).
    @inlinable public var apnsHeaders: [String: String] {
        get { box.fields.apnsHeaders }
        _modify { yield &fields.apnsHeaders }
    }
    /// How the payload moves the badge when the message is delivered (a held one later), as it
    /// was decoded with the push: kept, so no payload is decoded again. Nil: +1.
    @inlinable public var badgeDirective: BadgeDirective? {
        get { box.fields.badgeDirective }
        _modify { yield &fields.badgeDirective }
    }
    /// The time to live the payload's vendor field gave (seconds), decoded with the push: a
    /// held message's expiry is worked out from it. Nil: the vendor's default.
    @inlinable public var timeToLive: TimeInterval? {
        get { box.fields.timeToLive }
        _modify { yield &fields.timeToLive }
    }
    /// The callback or system surface the message reached, decided when it was delivered (FCM:
    /// `onMessageReceived`, `system tray`, `onDeletedMessages`); nil: the one the app state gives
    /// (`Inbox.callback(for:)`).
    @inlinable public var callback: String? {
        get { box.fields.callback }
        _modify { yield &fields.callback }
    }
    /// An FCM message's project, message name, platform and Android delivery options.
    @inlinable public var fcm: FCMFacts? {
        get { box.fields.fcm }
        _modify { yield &fields.fcm }
    }

    public init(
        id: Int64, app: String, channel: Channel, title: String? = nil, subtitle: String? = nil,
        body: String? = nil, url: String? = nil, read: Bool = false, offline: Bool = false,
        launch: Bool = false, held: Bool = false, receivedAt: Date, taskId: String? = nil,
        msgId: String? = nil, payload: String, collapseId: String? = nil, threadId: String? = nil,
        silent: Bool = false, interruption: String? = nil, expired: Bool = false, via: Via = .socket,
        token: String? = nil, apnsHeaders: [String: String] = [:]
    ) {
        box = SharedFields(Fields(
            id: id, app: app, channel: channel, title: title, subtitle: subtitle, body: body, url: url, read: read,
            offline: offline, launch: launch, held: held, receivedAt: receivedAt, taskId: taskId, msgId: msgId,
            payload: payload, collapseId: collapseId, threadId: threadId, silent: silent, interruption: interruption,
            expired: expired, via: via, token: token, apnsHeaders: apnsHeaders))
    }
}
