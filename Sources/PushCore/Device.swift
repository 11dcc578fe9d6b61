import Foundation
import PushJSON

/// The push service a device token belongs to.
public enum Vendor: String, Sendable, Equatable, CaseIterable {
    case apns
    case jpush
    case getui
}

/// A device the gateway knows (DESIGN §8): its token belongs to one app of one vendor.
public struct Device: Sendable, Equatable {
    /// The token as the vendor hands it out (APNs: hex digits, lower-cased here).
    public var token: String
    /// The bundle id (APNs), appKey (JPush) or appId (Getui).
    public var app: String
    public var vendor: Vendor
    /// Set by `device unregister`: APNs answers 410 `Unregistered` with this time from then on.
    public var unregisteredAt: Date?
    /// Set by `device offline`: its pushes are stored by the vendor (APNs only the latest per
    /// app, JPush at most 5) until `device online` (issue 13).
    public var offline: Bool

    public init(token: String, app: String, vendor: Vendor = .apns, unregisteredAt: Date? = nil, offline: Bool = false) {
        self.offline = offline
        self.token = token
        self.app = app
        self.vendor = vendor
        self.unregisteredAt = unregisteredAt
    }

    /// The device's wire object (`device list`).
    public var wireJSON: JSON {
        .object(JSONObject([
            (key: "token", value: .string(token)),
            (key: "app", value: .string(app)),
            (key: "vendor", value: .string(vendor.rawValue)),
            (key: "unregisteredAt", value: .string(orNull: unregisteredAt.map(RFC3339.string(from:)))),
            (key: "state", value: .string(offline ? "offline" : "online")),
        ]))
    }

    /// A token as `device` commands take it: APNs hex digits (lower-cased), or a JPush
    /// registration id / Getui cid (letters, digits, `-`, `_`; up to 128, kept as written).
    public static func normalizedToken(_ text: String) -> String? {
        if isHexToken(text) { return text.lowercased() }
        let isVendorToken = !text.isEmpty && text.utf8.count <= 128 && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return isVendorToken ? text : nil
    }

    /// Whether `text` is a token pushdeck takes: hex digits, an even number of them (APNs tokens
    /// are 64 on devices and 160 on the simulator; no length is assumed beyond that).
    public static func isHexToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count.isMultiple(of: 2) && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
    }
}

/// What the gateway does with a token it does not know (`--devices`).
public enum DevicePolicy: String, Sendable, Equatable, CaseIterable {
    /// Registers it to the request's app on its first push, in the push's own transaction.
    case open
    /// Refuses it as the vendor would (APNs `BadDeviceToken`).
    case strict
}
