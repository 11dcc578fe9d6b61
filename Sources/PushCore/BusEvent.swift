import Foundation
import PushJSON

/// The bus topics. They grew from the two local notifications (`jiaGeTuiNotification` for
/// pass-through messages, `jiaReceiveRemoteNotification` for APNs ones) that a Getui SDK wrapper
/// shared by several apps re-posts the SDK's callbacks as.
public enum Topic: String, Sendable, Equatable, CaseIterable {
    case messageReceived = "message.received"
    case remoteReceived = "remote.received"
    case messageRead = "message.read"
    case messageDeleted = "message.deleted"
    case messageDropped = "message.dropped"
    case badgeChanged = "badge.changed"
    case modeChanged = "mode.changed"
    case appChanged = "app.changed"
    case feedback = "feedback"
    /// A banner came down, or took a new message while up (`count` is its `+N` + 1): what
    /// `expect --banner` and `play`'s `banner` check, published by the reducer wherever the
    /// banner gets a new message, so every rule that shows or suppresses one is covered.
    case bannerShown = "banner.shown"
    /// `reset` ran: `app` (null for every app) and `all`.
    case reset = "reset"
    /// A push that was not delivered now — held (Getui's offline queue) or dropped (push off):
    /// `id` (a held one has one), `app`, `channel`, `payload`, `held`, `reason`. With the two `*.received` topics, every
    /// push is on the bus with its payload, so `record` can write it down. Published by the
    /// server (the reducer's effects stay as they are).
    case pushUndelivered = "push.undelivered"
    /// The `badge` op as asked: `app`, `set` or `clear`, `sync` (what `record` writes down;
    /// `badge.changed` says what it did). Published by the server before the op's own events.
    case badgeRequest = "badge.request"
    /// A `liveactivity` push reached an activity, applied or discarded: `activity` (its wire
    /// object, a new one's `pushToken` in it, as `pushTokenUpdates` hands it to the app),
    /// `accepted`, `discarded` (why, or null).
    case activityChanged = "activity.changed"
    /// A provider request the gateway answered (or its transport refused): the request log's
    /// record as its body (`seq`, `time`, `vendor`, … as `requests` lists it).
    case request = "request"
}

/// One event on the bus. On the wire it is one compact JSON line: `{"topic":"…", …fields}`.
public struct BusEvent: Sendable, Equatable {
    public var topic: Topic
    /// A delivered message's event keeps the message and builds its wire object only when asked:
    /// most pushes have no subscriber, and building it was a fifth of a push's cost.
    private var content: Content
    /// What `BusEvent(wire:)` read the fields as (nil for an event built here: `body` reads it).
    /// Boxed: every push publishes a few events, and the body inline would make each one as
    /// large as a message.
    var decoded: EventBody? {
        get { decodedBox?.body }
        set { decodedBox = newValue.map(DecodedBody.init) }
    }
    private var decodedBox: DecodedBody?

    private final class DecodedBody: Sendable {
        let body: EventBody
        init(_ body: EventBody) { self.body = body }
    }

    private enum Content: Sendable {
        case fields(JSONObject)
        case message(Message)
        case badge(app: String, Badge)
        case banner(Message, count: Int)
        indirect case activity(Activity, accepted: Bool, discarded: String?, at: Date)
        indirect case request(ProviderRequestRecord)
    }

    private init(topic: Topic, content: Content) {
        self.topic = topic
        self.content = content
    }

    public init(_ topic: Topic, _ fields: JSONObject) {
        self.topic = topic
        self.content = .fields(fields)
    }

    /// An event whose only field is `message`, the message's wire object.
    public init(_ topic: Topic, message: Message) {
        self.topic = topic
        self.content = .message(message)
    }

    /// A `badge.changed` event: `app`, `badge` and `serverBadge`. Every push moves a badge, so
    /// this one too builds its fields only when a subscriber asks.
    public init(badgeChangedOf app: String, _ badge: Badge) {
        self.topic = .badgeChanged
        self.content = .badge(app: app, badge)
    }

    /// A `banner.shown` event: the banner's message's `id`, `app`, `title` and `body`, and its
    /// `count`. The banner takes nearly every delivered push, so its fields too are built only
    /// when a subscriber asks.
    public init(bannerShown banner: Banner) {
        self.topic = .bannerShown
        self.content = .banner(banner.message, count: banner.count)
    }

    /// An `activity.changed` event: `activity` (its wire object at `date`, without its history),
    /// `accepted`, `discarded` (why, or null). Every Live Activity push publishes one, so it too
    /// builds its fields only when a subscriber asks.
    public init(activityChanged activity: Activity, accepted: Bool, discarded: String?, at date: Date) {
        self.topic = .activityChanged
        self.content = .activity(activity, accepted: accepted, discarded: discarded, at: date)
    }

    /// The message of a `message.received` / `remote.received` event, without building its
    /// wire object.
    public var message: Message? {
        if case .message(let message) = content { return message }
        return nil
    }

    /// The event's fields, without `topic`.
    public var fields: JSONObject {
        get {
            switch content {
            case .fields(let fields): fields
            case .message(let message): ["message": message.wireJSON]
            case .badge(let app, let badge):
                ["app": .string(app), "badge": .number(JSONNumber(badge.icon)), "serverBadge": .number(JSONNumber(badge.server))]
            case .banner(let message, let count):
                [
                    "id": .number(JSONNumber(message.id)), "app": .string(message.app), "title": .string(orNull: message.title),
                    "body": .string(orNull: message.body), "count": .number(JSONNumber(count)),
                ]
            case .activity(let activity, let accepted, let discarded, let date):
                [
                    // Without its history: the event says what this push did, and building every
                    // earlier update into each event made an update to a long-lived activity cost as many.
                    "activity": activity.wireJSON(at: date, history: false), "accepted": .bool(accepted),
                    "discarded": .string(orNull: discarded),
                ]
            case .request(let record): record.wireObject
            }
        }
        set {
            content = .fields(newValue)
            decoded = nil
        }
    }

    /// The event as the wire shows it.
    public var json: JSON {
        .object(JSONObject([(key: "topic", value: .string(topic.rawValue))] + fields.members))
    }

    public static func == (left: BusEvent, right: BusEvent) -> Bool {
        left.topic == right.topic && left.fields == right.fields
    }
}

extension BusEvent {
    /// The `request` event of a logged provider request: the record's wire object.
    /// Every gateway request publishes one, so it too builds its fields only when a subscriber
    /// asks.
    public static func request(_ record: ProviderRequestRecord) -> BusEvent {
        BusEvent(topic: .request, content: .request(record))
    }

    /// The `badge.request` event of a `badge` op: `app`, `set` or `clear`, `sync`.
    public static func badgeRequest(app: String?, change: BadgeChange?, sync: Bool?) -> BusEvent {
        var fields: JSONObject = ["app": .string(orNull: app)]
        switch change {
        case .set(let value): fields["set"] = .number(JSONNumber(value))
        case .clear: fields["clear"] = true
        case nil: break
        }
        if let sync { fields["sync"] = .bool(sync) }
        return BusEvent(.badgeRequest, fields)
    }
}
