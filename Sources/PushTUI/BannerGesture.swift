import PushCore

/// What the user does to the banner (STPushView): only the screen can, so these are the
/// reducer's own events rather than requests.
public enum BannerGesture: Sendable, Equatable {
    /// `o` or a click on it: open its message (the tap).
    case open
    /// `Esc`: send it up at once (the swipe).
    case dismiss
    /// The pointer moved onto (true) or off it, or `Tab` gave it or took its focus.
    case pause(BannerPause, Bool)

    /// The reducer's event for it.
    public var event: Event {
        switch self {
        case .open: .openBanner
        case .dismiss: .dismissBanner
        case .pause(let reason, let on): .pauseBanner(reason, on)
        }
    }
}
