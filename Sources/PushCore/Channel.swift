/// The channel a push came by (seed 002): Apple's push service, or the SDK's own pass-through
/// ("transparent") connection.
public enum Channel: String, Sendable, Equatable, CaseIterable {
    case apns
    case transparent

    /// The short name the list shows.
    public var shortName: String { self == .apns ? "APNs" : "pass" }
}
