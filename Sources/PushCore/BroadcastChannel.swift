import Foundation
import PushJSON

/// A broadcast channel (iOS 18): one `liveactivity` push to it reaches every Live Activity
/// subscribed to it (`input-push-channel`, or ActivityKit's `pushType: .channel(id)`).
///
/// Apple's "Sending channel management requests to APNs": a channel belongs to one app (bundle
/// id), is made with a `message-storage-policy` — 0 "No message stored", 1 "Most recent message
/// stored" (for a device that is offline) — and the `push-type` `LiveActivity`; an app has at
/// most 10 000 channels (`CannotCreateChannelConfig` past it).
public struct BroadcastChannel: Sendable, Equatable {
    /// The most channels one app may have.
    public static let maxPerApp = 10_000

    /// The channel id APNs hands back (`apns-channel-id`): base64 text.
    public var id: String
    public var app: String
    /// `message-storage-policy`: 0 none, 1 the most recent message kept for an offline device.
    public var storagePolicy: Int
    public var createdAt: Date

    public init(id: String, app: String, storagePolicy: Int, createdAt: Date) {
        self.id = id
        self.app = app
        self.storagePolicy = storagePolicy
        self.createdAt = createdAt
    }

    /// Whether the channel keeps the most recent message for an offline device.
    public var storesLatest: Bool { storagePolicy == 1 }

    /// `{"id","app","messageStoragePolicy","pushType","createdAt"}`: the wire's and the store's form.
    public var wireJSON: JSON {
        .object(JSONObject([
            (key: "id", value: .string(id)), (key: "app", value: .string(app)),
            (key: "messageStoragePolicy", value: .number(JSONNumber(storagePolicy))),
            (key: "pushType", value: .string("LiveActivity")),
            (key: "createdAt", value: .string(RFC3339.string(from: createdAt))),
        ]))
    }

    public init?(stored json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue, let app = object["app"]?.stringValue,
              let policy = object["messageStoragePolicy"]?.intValue,
              let createdAt = object["createdAt"]?.stringValue.flatMap(RFC3339.date(from:))
        else { return nil }
        self.init(id: id, app: app, storagePolicy: policy, createdAt: createdAt)
    }

    /// Whether `text` has the shape of a channel id: base64 (RFC 4648's alphabet, padded), as
    /// APNs makes them — anything else is `BadChannelId`.
    public static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 256, bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }
}

/// The inbox's broadcast channels, by id, with how many each app has.
public struct ChannelBook: Sendable, Equatable {
    public var byId: [String: BroadcastChannel] = [:]
    public var countByApp: [String: Int] = [:]
    /// The number the next channel's id is made from.
    public var nextNumber = 1

    public init() {}

    /// The app's channel with this id (nil: none, or another app's).
    public func channel(_ id: String, app: String) -> BroadcastChannel? {
        byId[id].flatMap { $0.app == app ? $0 : nil }
    }

    /// The app's channels (every app's when nil), oldest first.
    public func all(app: String?) -> [BroadcastChannel] {
        byId.values.filter { app == nil || $0.app == app }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public mutating func put(_ channel: BroadcastChannel) {
        if let old = byId[channel.id] { countByApp[old.app, default: 1] -= 1 }
        byId[channel.id] = channel
        countByApp[channel.app, default: 0] += 1
        nextNumber = max(nextNumber, Self.number(of: channel.id) + 1)
    }

    public mutating func remove(_ id: String) {
        guard let old = byId.removeValue(forKey: id) else { return }
        countByApp[old.app, default: 1] -= 1
        if countByApp[old.app] == 0 { countByApp[old.app] = nil }
    }

    /// Forgets one app's channels (every app's when nil).
    mutating func remove(app: String?) {
        for channel in byId.values where app == nil || channel.app == app { remove(channel.id) }
    }

    /// A new channel id: the base64 of `pushdeck-channel-N`, so the instant and live players
    /// hand out the same ones.
    public func newId() -> String {
        var number = nextNumber
        while byId[Self.id(number)] != nil { number += 1 }
        return Self.id(number)
    }

    static func id(_ number: Int) -> String { Data("pushdeck-channel-\(number)".utf8).base64EncodedString() }

    /// N of an id made by `id(_:)` (0 for another).
    static func number(of id: String) -> Int {
        guard let data = Data(base64Encoded: id), let text = String(data: data, encoding: .utf8),
              text.hasPrefix("pushdeck-channel-")
        else { return 0 }
        return Int(text.dropFirst("pushdeck-channel-".count)) ?? 0
    }
}

/// The `channel` op (APNs' channel management, `/1/apps/{bundleId}/channels`): create a channel
/// with a storage policy, read one, delete one, list an app's.
public enum ChannelCommand: Sendable, Equatable {
    case create(app: String, storagePolicy: Int)
    case read(app: String, id: String)
    case delete(app: String, id: String)
    case list(app: String?)
}

/// A broadcast push as the route let it through (`POST /4/broadcasts/apps/{bundleId}`): its
/// channel, `apns-expiration`, and the payload's `aps` (the device's to judge, as for a push to
/// one activity's token).
public struct BroadcastPush: Sendable, Equatable {
    public var app: String
    public var channel: String
    /// `apns-expiration` (UNIX seconds; 0: only now).
    public var expiration: Int64
    public var aps: JSONObject?

    public init(app: String, channel: String, expiration: Int64, aps: JSONObject?) {
        self.app = app
        self.channel = channel
        self.expiration = expiration
        self.aps = aps
    }
}

// MARK: - The `channel` op on the wire

extension ChannelCommand {
    public static let actions = ["create", "read", "delete", "list"]

    /// Decodes `{"op":"channel","action":"create","app":A,"policy":0|1}`, `read`/`delete` with
    /// `"id"`, `list` with an optional `"app"`.
    init(_ object: JSONObject) throws(WireError) {
        let action = try RequestFields.action(of: "channel", object, Self.actions)
        switch action {
        case "create":
            let fields = try RequestFields(op: "channel", object, accepted: ["action", "app", "policy"])
            let app = try fields.requiredText("app", "the app's bundle id")
            let policy = try fields.integer("policy", in: 0...1, expected: "0 (no message stored) or 1 (the most recent stored)") ?? 0
            self = .create(app: app, storagePolicy: policy)
        case "read", "delete":
            let fields = try RequestFields(op: "channel", object, accepted: ["action", "app", "id"])
            let app = try fields.requiredText("app", "the app's bundle id")
            let id = try fields.requiredText("id", "the channel id (apns-channel-id)")
            self = action == "read" ? .read(app: app, id: id) : .delete(app: app, id: id)
        default:
            let fields = try RequestFields(op: "channel", object, accepted: ["action", "app"])
            self = .list(app: try fields.app("app"))
        }
    }

    func encode(into object: inout JSONObject) {
        switch self {
        case .create(let app, let policy):
            object["action"] = "create"
            object["app"] = .string(app)
            object["policy"] = .number(JSONNumber(policy))
        case .read(let app, let id), .delete(let app, let id):
            if case .read = self { object["action"] = "read" } else { object["action"] = "delete" }
            object["app"] = .string(app)
            object["id"] = .string(id)
        case .list(let app):
            object["action"] = "list"
            if let app { object["app"] = .string(app) }
        }
    }
}
