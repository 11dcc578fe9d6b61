/// `aps.interruption-level` (iOS 15): how much a notification may interrupt.
///
/// `passive` is listed without a banner, `active` is the default, `time-sensitive` and `critical`
/// break through mute and quiet hours (but not push mode off, which is unregistering).
public enum InterruptionLevel: String, Sendable, Equatable, CaseIterable {
    case passive, active
    case timeSensitive = "time-sensitive"
    case critical

    /// Breaks through mute and quiet hours.
    public var breaksThrough: Bool { self == .timeSensitive || self == .critical }
}
