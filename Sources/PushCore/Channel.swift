/// The channel a push came by: Apple's push service, or the SDK's own pass-through
/// ("transparent") connection, which Getui's iOS SDK uses while the app runs (APNs while it does
/// not).
public enum Channel: String, Sendable, Equatable, CaseIterable {
    case apns
    case transparent

    /// The short name the list shows.
    public var shortName: String { self == .apns ? "APNs" : "pass" }
}
