import Foundation
import PushJSON

// MARK: - Bus events off the wire: the one place a client reads an event line

/// What one bus event says, typed: a client switches over this, never over field names.
public enum EventBody: Sendable, Equatable {
    /// `message.received` / `remote.received`: the delivered message (the event's `topic` says
    /// which callback it is).
    case received(Message)
    /// `message.read` of these ids.
    case read(ids: [Int64])
    /// `message.read` with `all`: every message of one app (nil: of every app).
    case readAll(app: String?)
    /// `message.deleted` of these ids.
    case deleted(ids: [Int64])
    /// `message.dropped`: a push dropped or held messages gone.
    case dropped(DropNotice)
    /// `badge.changed`: an app's ledgers after a change.
    case badge(app: String, Badge)
    /// `mode.changed`.
    case mode(PushMode)
    /// `app.changed`.
    case appState(AppState)
    /// `feedback`: an arrival (90001) or a click (90002) report.
    case feedback(FeedbackNotice)
    /// `banner.shown`: a banner came down, or took one more message (`count` its `+N` + 1).
    case banner(BannerNotice)
    /// `reset` of one app (nil: every app), `all` also forgetting devices and keys.
    case reset(app: String?, all: Bool)
    /// `push.undelivered`: a push held or dropped, with its payload.
    case undelivered(UndeliveredNotice)
    /// `badge.request`: the `badge` op as asked.
    case badgeRequest(app: String?, change: BadgeChange?, sync: Bool?)
    /// `activity.changed`: a `liveactivity` push reached this activity (its history left out).
    case activity(Activity, accepted: Bool, discarded: String?)
    /// `request`: a provider request the gateway answered, as the request log keeps it.
    case request(ProviderRequestRecord)
}

/// A `message.dropped` event. Its fields depend on why: a push while push is off gives `app` and
/// the new `dropped` count; expired or replaced held messages give `reason` and `ids`.
public struct DropNotice: Sendable, Equatable {
    public var app: String?
    public var reason: String?
    public var ids: [Int64]
    /// The dropped count after a push dropped while push is off.
    public var dropped: Int?

    public init(app: String? = nil, reason: String? = nil, ids: [Int64] = [], dropped: Int? = nil) {
        self.app = app
        self.reason = reason
        self.ids = ids
        self.dropped = dropped
    }
}

/// A `feedback` event: Getui's action code (90001 arrived, 90002 clicked) of one message.
public struct FeedbackNotice: Sendable, Equatable {
    public var action: Int
    public var id: Int64
    public var app: String
    public var taskId: String?
    public var msgId: String?

    public init(action: Int, id: Int64, app: String, taskId: String? = nil, msgId: String? = nil) {
        self.action = action
        self.id = id
        self.app = app
        self.taskId = taskId
        self.msgId = msgId
    }
}

/// A `banner.shown` event: the banner's message and its count.
public struct BannerNotice: Sendable, Equatable {
    public var id: Int64
    public var app: String
    public var title: String?
    public var body: String?
    public var count: Int

    public init(id: Int64, app: String, title: String?, body: String?, count: Int) {
        self.id = id
        self.app = app
        self.title = title
        self.body = body
        self.count = count
    }

    /// The event's fields, as the reducer publishes them (`expect --banner` prints them).
    public var wireObject: JSONObject {
        [
            "id": .number(JSONNumber(id)), "app": .string(app), "title": .string(orNull: title),
            "body": .string(orNull: body), "count": .number(JSONNumber(count)),
        ]
    }
}

/// A `push.undelivered` event: a push that was not delivered now, with what `record` needs to
/// write it down again.
public struct UndeliveredNotice: Sendable, Equatable {
    /// The held message's id; nil for a dropped push.
    public var id: Int64?
    public var app: String
    public var channel: Channel
    /// The payload as sent (a payload that is not JSON comes as its text).
    public var payload: JSON
    public var held: Bool
    public var reason: String?

    public init(id: Int64?, app: String, channel: Channel, payload: JSON, held: Bool, reason: String?) {
        self.id = id
        self.app = app
        self.channel = channel
        self.payload = payload
        self.held = held
        self.reason = reason
    }
}

extension BusEvent {
    /// The event a wire line says, the inverse of `json`: `BusEvent(wire: e.json) == e` for
    /// every event the engine publishes (a test holds every topic to it). A line that is not an
    /// event (no `topic`), names an unknown topic or lacks a field its topic has is a `WireError`
    /// naming what is wrong.
    public init(wire object: JSONObject) throws(WireError) {
        guard let name = object["topic"] else { throw WireError("an event needs \"topic\"") }
        guard let topic = name.stringValue.flatMap(Topic.init(rawValue:)) else {
            throw WireError("unknown event topic \(name.compactText); topics are \(Topic.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let fields = JSONObject(object.members.filter { $0.key != "topic" })
        let body = try EventBody(topic, EventFields(topic, fields))
        self.init(topic, fields)
        self.decoded = body
    }

    /// What the event says, typed. Every event the engine publishes reads back (the round-trip
    /// test); nil only for one built with fields its topic does not have.
    public var body: EventBody? {
        if let decoded { return decoded }
        if let message { return .received(message) }
        return try? EventBody(topic, EventFields(topic, fields))
    }
}

extension EventBody {
    fileprivate init(_ topic: Topic, _ fields: EventFields) throws(WireError) {
        switch topic {
        case .messageReceived, .remoteReceived:
            guard let message = fields.object["message"]?.objectValue else { throw fields.fail("message", "an object") }
            self = .received(try Message(wire: message))
        case .messageRead:
            if try fields.optionalBool("all") == true {
                self = .readAll(app: try fields.optionalString("app"))
            } else {
                self = .read(ids: try fields.ids("ids"))
            }
        case .messageDeleted:
            self = .deleted(ids: try fields.ids("ids"))
        case .messageDropped:
            self = .dropped(DropNotice(
                app: try fields.optionalString("app"), reason: try fields.optionalString("reason"),
                ids: fields.object["ids"] == nil ? [] : try fields.ids("ids"), dropped: try fields.optionalInt("dropped")))
        case .badgeChanged:
            self = .badge(app: try fields.string("app"), Badge(icon: try fields.int("badge"), server: try fields.int("serverBadge")))
        case .modeChanged:
            guard let mode = PushMode(rawValue: try fields.string("mode")) else { throw fields.fail("mode", "a push mode") }
            self = .mode(mode)
        case .appChanged:
            guard let state = AppState(rawValue: try fields.string("state")) else { throw fields.fail("state", "an app state") }
            self = .appState(state)
        case .feedback:
            self = .feedback(FeedbackNotice(
                action: try fields.int("action"), id: try fields.id("id"), app: try fields.string("app"),
                taskId: try fields.optionalString("taskId"), msgId: try fields.optionalString("msgId")))
        case .bannerShown:
            self = .banner(BannerNotice(
                id: try fields.id("id"), app: try fields.string("app"), title: try fields.optionalString("title"),
                body: try fields.optionalString("body"), count: try fields.int("count")))
        case .reset:
            self = .reset(app: try fields.optionalString("app"), all: try fields.optionalBool("all") ?? false)
        case .pushUndelivered:
            guard let channel = Channel(rawValue: try fields.string("channel")) else { throw fields.fail("channel", "a channel") }
            self = .undelivered(UndeliveredNotice(
                id: fields.object["id"]?.isNull == false ? try fields.id("id") : nil, app: try fields.string("app"),
                channel: channel, payload: fields.object["payload"] ?? .null, held: try fields.optionalBool("held") ?? false,
                reason: try fields.optionalString("reason")))
        case .badgeRequest:
            var change: BadgeChange?
            if fields.object["set"] != nil {
                change = .set(try fields.int("set"))
            } else if try fields.optionalBool("clear") == true {
                change = .clear
            }
            self = .badgeRequest(app: try fields.optionalString("app"), change: change, sync: try fields.optionalBool("sync"))
        case .activityChanged:
            guard let object = fields.object["activity"], let activity = Activity(stored: object) else {
                throw fields.fail("activity", "an activity object")
            }
            self = .activity(activity, accepted: try fields.bool("accepted"), discarded: try fields.optionalString("discarded"))
        case .request:
            self = .request(try ProviderRequestRecord(wire: fields.object))
        }
    }
}

/// An event's fields read by type, each failure naming the topic and the field.
private struct EventFields {
    let topic: Topic
    let object: JSONObject
    init(_ topic: Topic, _ object: JSONObject) {
        self.topic = topic
        self.object = object
    }

    func fail(_ key: String, _ what: String) -> WireError {
        WireError("a \(topic.rawValue) event's \"\(key)\" must be \(what)")
    }

    func string(_ key: String) throws(WireError) -> String {
        guard let value = object[key]?.stringValue else { throw fail(key, "a string") }
        return value
    }

    func optionalString(_ key: String) throws(WireError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case .some: throw fail(key, "a string or null")
        }
    }

    func int(_ key: String) throws(WireError) -> Int {
        guard let value = object[key]?.intValue else { throw fail(key, "an integer") }
        return value
    }

    func optionalInt(_ key: String) throws(WireError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.intValue else { throw fail(key, "an integer or null") }
        return number
    }

    func id(_ key: String) throws(WireError) -> Int64 {
        guard let value = object[key]?.numberValue.flatMap({ Int64($0.text) }) else { throw fail(key, "a message id") }
        return value
    }

    func ids(_ key: String) throws(WireError) -> [Int64] {
        guard let list = object[key]?.arrayValue else { throw fail(key, "an array of message ids") }
        return try list.map { item throws(WireError) in
            guard let id = item.numberValue.flatMap({ Int64($0.text) }) else { throw fail(key, "an array of message ids") }
            return id
        }
    }

    func bool(_ key: String) throws(WireError) -> Bool {
        guard let value = object[key]?.boolValue else { throw fail(key, "true or false") }
        return value
    }

    func optionalBool(_ key: String) throws(WireError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case .some: throw fail(key, "true, false or null")
        }
    }
}
