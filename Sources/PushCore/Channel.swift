/// The channel a push came by: Apple's push service, the SDK's own pass-through
/// ("transparent") connection, which Getui's iOS SDK uses while the app runs (APNs while it does
/// not) and FCM's data messages take, or an FCM notification message on an Android device.
public enum Channel: String, Sendable, Equatable, CaseIterable {
    case apns
    case transparent
    case android

    /// The channels a push request may name (`send --channel`, the socket's and a scenario's
    /// `channel`): an Android notification comes only from an FCM message to an Android device.
    public static let requestable: [Channel] = [.apns, .transparent]

    /// A requested channel, refused (with the accepted ones) when a request may not name it.
    static func requested(_ channel: Channel?) throws(WireError) -> Channel? {
        guard let channel, !requestable.contains(channel) else { return channel }
        throw WireError("\"channel\" must be one of \(requestable.map(\.rawValue).joined(separator: ", ")); got \"\(channel.rawValue)\" (an Android notification comes through FCM)")
    }

    /// Whether a later push with the same collapse id replaces a shown one: APNs'
    /// `apns-collapse-id`, Android's `android.notification.tag` ("If not specified, each request
    /// creates a new notification. If specified and a notification with the same tag is already
    /// being shown, the new notification replaces the existing one", AndroidNotification "tag").
    public var collapses: Bool { self != .transparent }

    /// The short name the list shows.
    public var shortName: String {
        switch self {
        case .apns: "APNs"
        case .transparent: "pass"
        case .android: "FCM"
        }
    }
}
