import Foundation
import PushJSON

// MARK: - Live Activities on the wire (`activity list --json`) and in the store

extension Activity {
    /// The activity's wire object: with `state` at `now` (the `activity` op's list), or without
    /// it (how the store keeps it: the state is read off the clock when asked). Without
    /// `history` (the bus event's form) the updates are left out: `history` is then `[]`.
    public func wireJSON(at now: Date?, history withHistory: Bool = true) -> JSON {
        var members: [(key: String, value: JSON)] = [(key: "id", value: .string(id)), (key: "app", value: .string(app))]
        if let now { members.append((key: "state", value: .string(state(at: now).rawValue))) }
        members += [
            (key: "attributesType", value: .string(orNull: attributesType)),
            (key: "attributes", value: attributes ?? .null),
            (key: "contentState", value: contentState),
            (key: "pushToken", value: .string(orNull: pushToken)),
            (key: "startToken", value: .string(orNull: startToken)),
            (key: "channel", value: .string(orNull: channel)),
            (key: "startedAt", value: .string(RFC3339.string(from: startedAt))),
            (key: "updatedAt", value: .string(RFC3339.string(from: updatedAt))),
            (key: "timestamp", value: timestamp.map { .number(JSONNumber($0)) } ?? .null),
            (key: "staleDate", value: Self.date(staleDate)),
            (key: "endedAt", value: Self.date(endedAt)),
            (key: "dismissalDate", value: Self.date(dismissalDate)),
            (key: "relevanceScore", value: relevanceScore.map { .number(JSONNumber(text: Self.text($0))) } ?? .null),
        ]
        if now != nil {
            members.append((key: "dismissedAt", value: .string(RFC3339.string(from: dismissedAt))))
            members.append((key: "discarded", value: .number(JSONNumber(discarded))))
        }
        // Only when it happened: the user's swipe, not an end push's dismissal-date.
        if dismissedByUser { members.append((key: "dismissedByUser", value: .bool(true))) }
        if let pending {
            members.append((key: "pending", value: .object([
                "channel": .string(pending.channel), "aps": .object(pending.aps), "at": .string(RFC3339.string(from: pending.at)),
            ])))
        }
        members.append((key: "earlier", value: .number(JSONNumber(earlier))))
        members.append((key: "history", value: .array(withHistory ? history.map(\.wireJSON) : [])))
        return .object(JSONObject(members))
    }

    /// An activity from its stored object (`wireJSON(at: nil)`); nil when it is not one.
    public init?(stored json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue, let app = object["app"]?.stringValue,
              let startedAt = object["startedAt"]?.stringValue.flatMap(RFC3339.date(from:)),
              let updatedAt = object["updatedAt"]?.stringValue.flatMap(RFC3339.date(from:))
        else { return nil }
        self.init(
            id: id, app: app, attributesType: object["attributesType"]?.stringValue,
            // (`JSON` takes a `nil` literal as `null`: the absent value is spelled out.)
            attributes: object["attributes"].flatMap { $0.isNull ? Optional<JSON>.none : $0 },
            contentState: object["contentState"] ?? .object(JSONObject()), pushToken: object["pushToken"]?.stringValue,
            startToken: object["startToken"]?.stringValue, channel: object["channel"]?.stringValue, startedAt: startedAt,
            history: (object["history"]?.arrayValue ?? []).compactMap(ActivityUpdate.init(stored:)))
        self.updatedAt = updatedAt
        timestamp = object["timestamp"]?.numberValue.flatMap { Int64($0.text) }
        staleDate = object["staleDate"]?.stringValue.flatMap(RFC3339.date(from:))
        endedAt = object["endedAt"]?.stringValue.flatMap(RFC3339.date(from:))
        dismissalDate = object["dismissalDate"]?.stringValue.flatMap(RFC3339.date(from:))
        relevanceScore = object["relevanceScore"]?.numberValue.map(\.double)
        earlier = object["earlier"]?.intValue ?? 0
        dismissedByUser = object["dismissedByUser"]?.boolValue ?? false
        if let pending = object["pending"]?.objectValue, let channel = pending["channel"]?.stringValue,
           let aps = pending["aps"]?.objectValue, let at = pending["at"]?.stringValue.flatMap(RFC3339.date(from:)) {
            self.pending = ActivityPending(channel: channel, aps: aps, at: at)
        }
    }

    static func date(_ date: Date?) -> JSON { .string(orNull: date.map(RFC3339.string(from:))) }

    /// A score as JSON writes it: the shortest text that reads back as the same double.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}

extension ActivityUpdate {
    /// `{"at","token","app","event","timestamp","accepted","why","contentState","alert"}`.
    public var wireJSON: JSON {
        var members: [(key: String, value: JSON)] = [
            (key: "at", value: .string(RFC3339.string(from: at))),
            (key: "token", value: .string(orNull: token)),
            (key: "app", value: .string(app)),
            (key: "event", value: .string(orNull: event)),
            (key: "timestamp", value: timestamp.map { .number(JSONNumber($0)) } ?? .null),
            (key: "accepted", value: .bool(accepted)),
            (key: "why", value: .string(orNull: why)),
        ]
        if let contentState { members.append((key: "contentState", value: contentState)) }
        if let alert { members.append((key: "alert", value: .string(alert))) }
        if let channel { members.append((key: "channel", value: .string(channel))) }
        return .object(JSONObject(members))
    }

    public init?(stored json: JSON) {
        guard let object = json.objectValue, let at = object["at"]?.stringValue.flatMap(RFC3339.date(from:)),
              let app = object["app"]?.stringValue, let accepted = object["accepted"]?.boolValue
        else { return nil }
        self.init(
            at: at, token: object["token"]?.stringValue, app: app, event: object["event"]?.stringValue,
            timestamp: object["timestamp"]?.numberValue.flatMap { Int64($0.text) }, contentState: object["contentState"],
            alert: object["alert"]?.stringValue, accepted: accepted, why: object["why"]?.stringValue)
        channel = object["channel"]?.stringValue
    }
}
