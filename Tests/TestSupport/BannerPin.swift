import PushCore

extension Inbox {
    /// The instant at which the banner is at `phase`: tests pin the banner on screen by choosing
    /// `now`, as the clock would, not by overriding where it is.
    ///
    /// `.leaving` and `.gone` of a paused banner never come (it stays until resumed): asked for
    /// them, this gives the instant they would have without the pause.
    public func instant(whereBannerIs phase: BannerPhase) -> Instant {
        guard let banner else { return .zero }
        let slide = Int64((Banner.slideSeconds * 1e9).rounded())
        var leave = banner.shownAt.nanoseconds + Int64((bannerSeconds * 1e9).rounded())
        if let dismissed = banner.dismissedAt { leave = min(leave, dismissed.nanoseconds) }
        func into(_ fraction: Double) -> Int64 { Int64((fraction * Double(slide)).rounded()) }
        switch phase {
        case .entering(let fraction): return Instant(nanoseconds: banner.enteredAt.nanoseconds + into(fraction))
        case .shown: return Instant(nanoseconds: max(banner.enteredAt.nanoseconds + slide, banner.shownAt.nanoseconds))
        case .leaving(let fraction): return Instant(nanoseconds: leave + slide - into(fraction))
        case .gone: return Instant(nanoseconds: leave + slide)
        }
    }
}
