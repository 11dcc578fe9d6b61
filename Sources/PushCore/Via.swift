/// The front door a push came in by: the socket, a vendor's HTTP API through the
/// gateway, or the team bus.
public enum Via: String, Sendable, Equatable, CaseIterable {
    case socket
    case apns
    case jpush
    case getui
    case mqtt
    /// Firebase Cloud Messaging HTTP v1 (`messages:send` on the gateway).
    case fcm
}
