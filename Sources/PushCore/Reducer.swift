import Foundation

/// The inbox reducer: the one place where pushes, reads, badge commands, mode and app-state
/// switches and the banner's timeline are decided (DESIGN §5, §6). Pure: the world is changed only
/// through the returned effects, carried out in order by the loop.
///
/// STUB — to be written (issue 2).
public func reduce(into inbox: inout Inbox, _ event: Event, now: Instant) -> [Effect] {
    []
}

extension Inbox {
    /// Where the banner is at `now` (`.gone` when there is none).
    /// STUB — to be written (issue 2).
    public func bannerPhase(at now: Instant) -> BannerPhase { .gone }

    /// The next instant at which time alone changes what is shown (a banner frame, its stay
    /// ending), or nil when nothing animates — then the loop sleeps until input arrives.
    /// STUB — to be written (issue 2).
    public func nextDeadline(after now: Instant) -> Instant? { nil }
}
