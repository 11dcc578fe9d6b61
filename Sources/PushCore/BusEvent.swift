/// The bus topics (seed 000's two notification names grew into these).
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
}

/// One event on the bus. On the wire it is one compact JSON line: `{"topic":"…", …fields}`.
public struct BusEvent: Sendable, Equatable {
    public var topic: Topic
    /// The event's fields, without `topic`.
    public var fields: JSONObject

    public init(_ topic: Topic, _ fields: JSONObject) {
        self.topic = topic
        self.fields = fields
    }

    /// The event as the wire shows it.
    public var json: JSON {
        .object(JSONObject([(key: "topic", value: .string(topic.rawValue))] + fields.members))
    }
}
