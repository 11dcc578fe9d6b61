/// The in-app banner, timed as the STPushView banner of the Getui sample app: slides down over
/// 0.25 s, stays, slides up over 0.25 s.
///
/// Only instants are stored; where the banner is at any moment is computed from `now`.
public struct Banner: Sendable, Equatable {
    public static let defaultSeconds = 5.0
    public static let slideSeconds = 0.25

    /// The message shown (the newest that arrived while the banner was up).
    public var message: Message
    /// When the banner started sliding in.
    public var enteredAt: Instant
    /// When the current content's stay began (restarted when a new message replaces it).
    public var shownAt: Instant
    /// How many messages arrived while it was up, the first included (`+N` shows `count - 1`).
    public var count: Int
    /// Set by `Esc`: it slides up from this instant.
    public var dismissedAt: Instant?
    /// Why its timer is paused: the pointer is over it, it has the focus (`Tab`). Empty: running.
    public var pauses: Set<BannerPause> = []
    /// Since when the stay has been frozen (set while `pauses` is not empty).
    public var pausedAt: Instant?

    public init(message: Message, enteredAt: Instant, shownAt: Instant, count: Int = 1, dismissedAt: Instant? = nil) {
        self.message = message
        self.enteredAt = enteredAt
        self.shownAt = shownAt
        self.count = count
        self.dismissedAt = dismissedAt
    }
}

/// What holds the banner's timer: the pointer over it, or the keyboard focus.
///
/// Desktop notification daemons likewise keep a notification up while the pointer is on it.
public enum BannerPause: String, Sendable, Hashable, CaseIterable {
    case pointer, focus
}

/// Where the banner is at one instant. `fraction` is how much of its height is on screen (0…1).
public enum BannerPhase: Sendable, Equatable {
    case entering(fraction: Double)
    case shown
    case leaving(fraction: Double)
    case gone
}
