import Foundation
import PushJSON

extension Message {
    /// The message object of the wire: every field, `null` when absent, `payload` as
    /// the parsed raw payload object.
    public var wireJSON: JSON {
        // A stored payload always parsed once; should it not, it is shown as the text it is.
        let parsedPayload = (try? JSON.parse(payload)) ?? .string(payload)
        return .object(JSONObject([
            (key: "id", value: .number(JSONNumber(id))),
            (key: "app", value: .string(app)),
            (key: "channel", value: .string(channel.rawValue)),
            (key: "title", value: .string(orNull: title)),
            (key: "subtitle", value: .string(orNull: subtitle)),
            (key: "body", value: .string(orNull: body)),
            (key: "url", value: .string(orNull: url)),
            (key: "read", value: .bool(read)),
            (key: "offline", value: .bool(offline)),
            (key: "receivedAt", value: .string(RFC3339.string(from: receivedAt))),
            (key: "taskId", value: .string(orNull: taskId)),
            (key: "msgId", value: .string(orNull: msgId)),
            (key: "payload", value: parsedPayload),
            (key: "launch", value: .bool(launch)),
            (key: "held", value: .bool(held)),
            (key: "collapseId", value: .string(orNull: collapseId)),
            (key: "threadId", value: .string(orNull: threadId)),
            (key: "silent", value: .bool(silent)),
            (key: "interruptionLevel", value: .string(orNull: interruption)),
            (key: "expired", value: .bool(expired)),
            (key: "via", value: .string(via.rawValue)),
            (key: "token", value: .string(orNull: token)),
            (key: "apnsHeaders", value: apnsHeaders.isEmpty ? .null : .object(Self.headerObject(apnsHeaders))),
            (key: "callback", value: .string(orNull: callback)),
            (key: "project", value: .string(orNull: fcm?.project)),
            (key: "messageName", value: .string(orNull: fcm?.messageName)),
            (key: "fcm", value: fcm?.optionsJSON ?? .null),
        ]))
    }

    /// Headers as a JSON object, by name, so the same headers always read the same.
    public static func headerObject(_ headers: [String: String]) -> JSONObject {
        JSONObject(headers.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSON.string($0.value)) })
    }

    /// `headerObject` as compact JSON text (how the store keeps a message's headers), written
    /// from the sorted pairs without building a tree of them first.
    public static func headerText(_ headers: [String: String]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headers.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        JSON.writeObject(strings: headers.sorted { $0.key < $1.key }, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A message read back from its wire object (what `list` and events carry), for clients.
    ///
    /// `payload` is re-encoded compactly: the wire carries the parsed object, not the raw text.
    public init(wire object: JSONObject) throws(WireError) {
        func text(_ key: String) throws(WireError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case let other?: throw WireError("message field \"\(key)\" must be a string or null; got \(other.kindName)")
            }
        }
        func flag(_ key: String) throws(WireError) -> Bool {
            switch object[key] {
            case nil, .null?: return false
            case .bool(let value)?: return value
            case let other?: throw WireError("message field \"\(key)\" must be true or false; got \(other.kindName)")
            }
        }
        guard case .number(let number)? = object["id"], let id = Int64(number.text) else {
            throw WireError("message field \"id\" must be an integer")
        }
        guard let channelName = try text("channel"), let channel = Channel(rawValue: channelName) else {
            throw WireError("message field \"channel\" must be one of \(Channel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let stamp = try text("receivedAt"), let receivedAt = RFC3339.date(from: stamp) else {
            throw WireError("message field \"receivedAt\" must be an RFC 3339 time like 2026-11-30T09:41:00.000Z")
        }
        var headers: [String: String] = [:]
        switch object["apnsHeaders"] {
        case nil, .null?: break
        case .object(let members)?:
            for (name, value) in members.members {
                guard case .string(let text) = value else {
                    throw WireError("message field \"apnsHeaders\" must hold strings; \"\(name)\" is \(value.kindName)")
                }
                headers[name] = text
            }
        case let other?: throw WireError("message field \"apnsHeaders\" must be an object or null; got \(other.kindName)")
        }
        let viaName = try text("via") ?? Via.socket.rawValue
        guard let via = Via(rawValue: viaName) else {
            throw WireError("message field \"via\" must be one of \(Via.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let payload: String = switch object["payload"] {
        case .string(let raw)?: raw
        case let value?: value.compactText
        case nil: "{}"
        }
        self.init(
            id: id, app: try text("app") ?? PushDecoder.defaultApp, channel: channel, title: try text("title"),
            subtitle: try text("subtitle"), body: try text("body"), url: try text("url"), read: try flag("read"),
            offline: try flag("offline"), launch: try flag("launch"), held: try flag("held"), receivedAt: receivedAt,
            taskId: try text("taskId"), msgId: try text("msgId"), payload: payload, via: via, token: try text("token"),
            apnsHeaders: headers)
        collapseId = try text("collapseId")
        threadId = try text("threadId")
        silent = try flag("silent")
        interruption = try text("interruptionLevel")
        expired = try flag("expired")
        callback = try text("callback")
        if let options = object["fcm"], !options.isNull {
            guard let facts = FCMFacts(project: try text("project") ?? "", messageName: try text("messageName") ?? "", options: options) else {
                throw WireError("message field \"fcm\" must be an object with a platform (android or ios), or null")
            }
            fcm = facts
        }
    }
}
