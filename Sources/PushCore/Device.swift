import Foundation
import PushJSON

/// The push service a device token belongs to.
public enum Vendor: String, Sendable, Equatable, CaseIterable {
    case apns
    case jpush
    case getui
    /// Firebase Cloud Messaging (HTTP v1): a registration token of an Android or iOS app.
    case fcm
}

/// A device the gateway knows: its token belongs to one app of one vendor.
public struct Device: Sendable, Equatable {
    /// The token as the vendor hands it out (APNs: hex digits, lower-cased here).
    public var token: String
    /// The bundle id (APNs), appKey (JPush) or appId (Getui).
    public var app: String
    public var vendor: Vendor
    /// Set by `device unregister`: APNs answers 410 `Unregistered` with this time from then on.
    public var unregisteredAt: Date?
    /// Set by `device offline`: its pushes are stored by the vendor (APNs only the latest per
    /// app, JPush at most 5) until `device online`.
    public var offline: Bool
    /// The tags the app set on this device (`device add --tag`), sorted, each once: a JPush
    /// `audience` of `tag`/`tag_and`/`tag_not` finds the device by them (Getui's tag pushes are
    /// not served).
    public var tags: [String]
    /// The device's alias (`device add --alias`; one per device, as JPush and Getui bind it): a
    /// JPush `audience.alias` or Getui's `push/single/alias` finds the device by it.
    public var alias: String?
    /// The FCM topics the device is subscribed to, sorted, each once (the topic-management APIs
    /// set them): a `topic` or `condition` message reaches the devices they match.
    public var topics: [String]
    /// An FCM device's platform (`device add --platform`; a token first seen by a send is an
    /// Android one): the message is an Android message on one and its `apns` block on the other.
    /// Nil for the other vendors.
    public var platform: DevicePlatform?

    /// FCM's limit: "One app instance can be subscribed to no more than 2000 topics" (FCM's
    /// "Topic messaging" → "Manage topic subscriptions from the server").
    public static let maxTopics = 2000

    /// What the token is for: the app's notifications, or (APNs) a Live Activity's push-to-start
    /// or push token.
    public var kind: DeviceKind = .app

    public init(
        token: String, app: String, vendor: Vendor = .apns, unregisteredAt: Date? = nil, offline: Bool = false,
        tags: [String] = [], alias: String? = nil, topics: [String] = [], platform: DevicePlatform? = nil,
        kind: DeviceKind = .app
    ) {
        self.kind = kind
        self.platform = platform ?? (vendor == .fcm ? .android : nil)
        self.offline = offline
        self.token = token
        self.app = app
        self.vendor = vendor
        self.unregisteredAt = unregisteredAt
        self.tags = Array(Set(tags)).sorted()
        self.alias = alias
        self.topics = Array(Set(topics)).sorted()
    }

    /// Whether `text` is a tag or an alias as JPush takes them: 1 to 40 bytes of UTF-8 (its
    /// Push API v3 `audience` table), no control characters (JPush allows letters, digits, `_`,
    /// CJK and `@!#$&*+=.|￥`; pushdeck is more lenient but keeps a tag on one line).
    public static func isTagOrAlias(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 40 && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The device's wire object (`device list`); `tags` and `alias` only when it has them, so a
    /// device without them is written as before they existed.
    public var wireJSON: JSON {
        var members: [(key: String, value: JSON)] = [
            (key: "token", value: .string(token)),
            (key: "app", value: .string(app)),
            (key: "vendor", value: .string(vendor.rawValue)),
            (key: "unregisteredAt", value: .string(orNull: unregisteredAt.map(RFC3339.string(from:)))),
            (key: "state", value: .string(offline ? "offline" : "online")),
        ]
        if !tags.isEmpty { members.append((key: "tags", value: .array(tags.map(JSON.string)))) }
        if let alias { members.append((key: "alias", value: .string(alias))) }
        if let platform { members.append((key: "platform", value: .string(platform.rawValue))) }
        if !topics.isEmpty { members.append((key: "topics", value: .array(topics.map(JSON.string)))) }
        if kind != .app { members.append((key: "kind", value: .string(kind.rawValue))) }
        return .object(JSONObject(members))
    }

    /// A token as `device` commands take it: APNs hex digits (lower-cased), or a JPush
    /// registration id / Getui cid (letters, digits, `-`, `_`; up to 128, kept as written).
    public static func normalizedToken(_ text: String) -> String? {
        if isHexToken(text) { return lowercasedHex(text) }
        let isVendorToken = !text.isEmpty && text.utf8.count <= 128 && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return isVendorToken ? text : nil
    }

    /// Whether `text` is an FCM registration token as pushdeck takes one, kept exactly as written:
    /// letters, digits, `:`, `-` and `_` (a real one is an instance id, `:`, then base64url, about
    /// 160 characters), at most 4096 bytes.
    public static func isFCMToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 4096 && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
        }
    }

    /// A hex token in lower case (how pushdeck keeps APNs tokens): `token` itself when it has no
    /// upper-case digit, as backends nearly always send them — `lowercased()` made a new string
    /// every time (1 000 instructions a gateway push).
    public static func lowercasedHex(_ token: String) -> String {
        var text = token
        let hasUpperCase = text.withUTF8 { $0.contains { (0x41...0x5A).contains($0) } }
        return hasUpperCase ? token.lowercased() : token
    }

    /// Whether `text` is a token pushdeck takes: hex digits, an even number of them (APNs tokens
    /// are 64 on devices and 160 on the simulator; no length is assumed beyond that).
    public static func isHexToken(_ text: String) -> Bool {
        var text = text
        // On the string's bytes as a buffer: through `utf8`'s indices it was 40 instructions a
        // byte, and the gateway checks every APNs request's token.
        return text.withUTF8 { bytes in
            !bytes.isEmpty && bytes.count.isMultiple(of: 2) && bytes.allSatisfy { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x46, 0x61...0x66: true
                default: false
                }
            }
        }
    }
}

/// What an APNs token is for. ActivityKit hands an app two more kinds of token besides its
/// notification token ("Starting and updating Live Activities with ActivityKit push
/// notifications"): `pushToStartTokenUpdates` gives the push-to-start token a `start` push goes
/// to, and each activity's `pushTokenUpdates` its own token for `update` and `end`. All of them
/// take `liveactivity` pushes only, on the topic `{bundle}.push-type.liveactivity`.
public enum DeviceKind: String, Sendable, Equatable, CaseIterable {
    case app
    case pushToStart = "push-to-start"
    case activity

    /// Whether the token takes Live Activity pushes (and only those).
    public var isLiveActivity: Bool { self != .app }
}

/// What the gateway does with a token it does not know (`--devices`).
public enum DevicePolicy: String, Sendable, Equatable, CaseIterable {
    /// Registers it to the request's app on its first push, in the push's own transaction.
    case open
    /// Refuses it as the vendor would (APNs `BadDeviceToken`).
    case strict
}
