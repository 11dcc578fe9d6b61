// MARK: - Where the banner is, from `now` alone

extension Banner {
    /// How long one slide (in or out) takes, in nanoseconds: integers keep the instants exact.
    static let slideNanoseconds = Int64((slideSeconds * 1e9).rounded())

    /// Steps a slide is drawn in: the view shows `ceil(fraction × height)` rows of the banner, so a
    /// 4-row banner moves a row per step, one step every 62.5 ms over the 0.25 s.
    public static let slideSteps = 4

    static let stepNanoseconds = slideNanoseconds / Int64(slideSteps)

    /// When it starts sliding up: the end of its stay, or the swipe when that came first.
    func leaveStart(stay: Int64) -> Instant {
        let natural = shownAt.nanoseconds + stay
        guard let dismissedAt else { return Instant(nanoseconds: natural) }
        return Instant(nanoseconds: min(natural, dismissedAt.nanoseconds))
    }

    /// Where the banner is at `now`, given how long it stays (`stay`, nanoseconds).
    ///
    /// Fractions are one division of two exact integers, so 0.06 s in is exactly `0.24`.
    func phase(at now: Instant, stay: Int64) -> BannerPhase {
        let slide = Self.slideNanoseconds
        let t = now.nanoseconds
        // Paused: it finishes sliding in and then stays, however long (until resumed or swiped).
        if pausedAt != nil, dismissedAt == nil {
            let entered = t - enteredAt.nanoseconds
            return entered < slide ? .entering(fraction: Double(max(0, entered)) / Double(slide)) : .shown
        }
        let leave = leaveStart(stay: stay).nanoseconds
        if t >= leave + slide { return .gone }
        if t >= leave { return .leaving(fraction: Double(leave + slide - t) / Double(slide)) }
        let entered = t - enteredAt.nanoseconds
        if entered < slide { return .entering(fraction: Double(max(0, entered)) / Double(slide)) }
        return .shown
    }

    /// The next instant at which the drawn banner changes: the next slide step while sliding, the
    /// start of the leave while shown, `now` when it is gone (so the loop ticks and clears it).
    func nextDeadline(after now: Instant, stay: Int64) -> Instant {
        switch phase(at: now, stay: stay) {
        case .gone: now
        case .shown: leaveStart(stay: stay)
        case .entering: Self.nextStep(after: now, from: enteredAt)
        case .leaving: Self.nextStep(after: now, from: leaveStart(stay: stay))
        }
    }

    /// The first step boundary (`start + k × step`) strictly after `now`.
    private static func nextStep(after now: Instant, from start: Instant) -> Instant {
        let elapsed = now.nanoseconds - start.nanoseconds
        guard elapsed >= 0 else { return start }
        return Instant(nanoseconds: start.nanoseconds + (elapsed / stepNanoseconds + 1) * stepNanoseconds)
    }

    // MARK: - Changes

    /// A new banner for `message`, sliding in from `now`.
    init(arriving message: Message, at now: Instant, count: Int = 1) {
        self.init(
            message: message, enteredAt: now, shownAt: Instant(nanoseconds: now.nanoseconds + Self.slideNanoseconds),
            count: count)
    }

    /// Another message arrives while the banner is up: it takes the new content, counts the
    /// arrivals, and restarts its stay. It never re-slides: entering keeps entering (its stay has
    /// not begun), shown restarts the stay now, and leaving (or swiped) comes back down from
    /// where it is.
    mutating func replace(with message: Message, at now: Instant, arrivals: Int, stay: Int64) {
        let phase = phase(at: now, stay: stay)
        self.message = message
        count += arrivals
        switch phase {
        case .entering, .gone:
            break
        case .shown:
            shownAt = now
            if pausedAt != nil { pausedAt = now }
        case .leaving:
            // Enter again from the row it has reached: as far in as it still is.
            let remaining = leaveStart(stay: stay).nanoseconds + Self.slideNanoseconds - now.nanoseconds
            enteredAt = Instant(nanoseconds: now.nanoseconds - remaining)
            shownAt = Instant(nanoseconds: enteredAt.nanoseconds + Self.slideNanoseconds)
            dismissedAt = nil
        }
    }

    /// Holds the timer for `reason` (from `now`), or lets it go; the stay runs again once no
    /// reason is left, for what was left of it when it stopped.
    mutating func setPause(_ reason: BannerPause, _ on: Bool, at now: Instant, stay: Int64) {
        switch phase(at: now, stay: stay) {
        case .gone, .leaving: return
        case .entering, .shown: break
        }
        if on { pauses.insert(reason) } else { pauses.remove(reason) }
        if !pauses.isEmpty {
            if pausedAt == nil { pausedAt = now }
        } else if let paused = pausedAt {
            // The stay does not run before `shownAt`: frozen from the later of the two.
            let frozenFrom = max(paused.nanoseconds, shownAt.nanoseconds)
            if now.nanoseconds > frozenFrom { shownAt = Instant(nanoseconds: shownAt.nanoseconds + now.nanoseconds - frozenFrom) }
            pausedAt = nil
        }
    }

    /// `Esc`: slide up from where it is now. Half way in, it leaves from half way; already
    /// leaving, nothing changes.
    mutating func dismiss(at now: Instant, stay: Int64) {
        switch phase(at: now, stay: stay) {
        case .gone, .leaving:
            break
        case .shown:
            dismissedAt = now
            pauses = []
            pausedAt = nil
        case .entering:
            pauses = []
            pausedAt = nil
            let entered = max(0, now.nanoseconds - enteredAt.nanoseconds)
            dismissedAt = Instant(nanoseconds: now.nanoseconds - (Self.slideNanoseconds - entered))
        }
    }
}

extension BannerPhase {
    /// How many of a banner's `height` rows are on screen: `ceil(fraction × height)`.
    public func visibleRows(of height: Int) -> Int {
        switch self {
        case .gone: 0
        case .shown: height
        case .entering(let fraction), .leaving(let fraction):
            min(height, max(0, Int((fraction * Double(height)).rounded(.up))))
        }
    }
}

// MARK: - The inbox's view of its banner

extension Inbox {
    /// The stay of `--banner-seconds` in nanoseconds.
    ///
    /// Kept within 0…a year so a silly `--banner-seconds` (negative, huge, NaN) cannot overflow
    /// the instant arithmetic.
    var bannerStay: Int64 {
        guard bannerSeconds.isFinite else { return bannerSeconds > 0 ? Self.longestStay : 0 }
        return min(Self.longestStay, Int64((max(0, min(bannerSeconds, 31_536_000)) * 1e9).rounded()))
    }

    private static let longestStay: Int64 = 31_536_000 * 1_000_000_000

    /// Where the banner is at `now` (`.gone` when there is none).
    public func bannerPhase(at now: Instant) -> BannerPhase {
        banner?.phase(at: now, stay: bannerStay) ?? .gone
    }

    /// The next instant at which time alone changes what is shown, or nil when nothing animates
    /// — then the loop sleeps until input arrives.
    ///
    /// While sliding it is the next slide step (every 62.5 ms: the view shows
    /// `ceil(fraction × height)` rows, one more or less per step on a 4-row banner), while shown
    /// the instant it starts leaving, and `now` once it is gone so a `tick` clears it.
    public func nextDeadline(after now: Instant) -> Instant? {
        // A paused banner that is fully shown changes only with input: nothing to wake for.
        if let banner, banner.pausedAt != nil, banner.dismissedAt == nil, bannerPhase(at: now) == .shown { return nil }
        return banner?.nextDeadline(after: now, stay: bannerStay)
    }

    /// True while a banner is on screen (entering, shown or leaving).
    public func bannerIsUp(at now: Instant) -> Bool { bannerPhase(at: now) != .gone }

    /// Shows `message` in the banner: a new one when none is up, else a replacement counting
    /// `arrivals` more.
    mutating func showBanner(_ message: Message, at now: Instant, arrivals: Int = 1) {
        let stay = bannerStay
        // Replaced in place: copying the banner out and back retained and released every
        // field of two messages, a push's worth of work at each arrival.
        if let phase = banner?.phase(at: now, stay: stay), phase != .gone {
            banner?.replace(with: message, at: now, arrivals: arrivals, stay: stay)
        } else {
            banner = Banner(arriving: message, at: now, count: arrivals)
        }
    }
}
