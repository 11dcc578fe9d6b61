import PushCore
import TestSupport
import Testing

/// One instant of a banner's life and what it should be then.
struct BannerMoment: Sendable, CustomTestStringConvertible {
    var seconds: Double
    var phase: BannerPhase
    var rows: Int
    var testDescription: String { "t=\(seconds)s" }
}

/// The STPushView timeline (down over 0.25 s, the stay, up over 0.25 s), read at exact instants
/// of a manual clock.
@Suite struct BannerTimelineTests {
    /// A banner that entered at 0, with the default 5 s stay.
    static let defaultStay: [BannerMoment] = [
        BannerMoment(seconds: 0, phase: .entering(fraction: 0), rows: 0),
        BannerMoment(seconds: 0.06, phase: .entering(fraction: 0.24), rows: 1),
        BannerMoment(seconds: 0.125, phase: .entering(fraction: 0.5), rows: 2),
        BannerMoment(seconds: 0.25, phase: .shown, rows: 4),
        BannerMoment(seconds: 2, phase: .shown, rows: 4),
        BannerMoment(seconds: 5.25, phase: .leaving(fraction: 1), rows: 4),
        BannerMoment(seconds: 5.3125, phase: .leaving(fraction: 0.75), rows: 3),
        BannerMoment(seconds: 5.5, phase: .gone, rows: 0),
    ]

    /// The same with `--banner-seconds 2`.
    static let twoSecondStay: [BannerMoment] = [
        BannerMoment(seconds: 0, phase: .entering(fraction: 0), rows: 0),
        BannerMoment(seconds: 0.25, phase: .shown, rows: 4),
        BannerMoment(seconds: 2.2, phase: .shown, rows: 4),
        BannerMoment(seconds: 2.25, phase: .leaving(fraction: 1), rows: 4),
        BannerMoment(seconds: 2.375, phase: .leaving(fraction: 0.5), rows: 2),
        BannerMoment(seconds: 2.5, phase: .gone, rows: 0),
    ]

    /// A foreground inbox whose banner entered at the clock's 0.
    static func entered(bannerSeconds: Double = 5) -> Scenario {
        var s = Scenario(Inbox(bannerSeconds: bannerSeconds))
        s.push(.apns())
        return s
    }

    @Test("STPushView timing: 0.25 s in, 5 s shown, 0.25 s out", arguments: defaultStay)
    func defaultTimeline(moment: BannerMoment) {
        let s = Self.entered()
        s.clock.advance(by: moment.seconds)
        let phase = s.inbox.bannerPhase(at: s.clock.now)
        #expect(phase == moment.phase)
        #expect(phase.visibleRows(of: 4) == moment.rows)
    }

    @Test("--banner-seconds 2 shortens the stay, not the slides", arguments: twoSecondStay)
    func shortTimeline(moment: BannerMoment) {
        let s = Self.entered(bannerSeconds: 2)
        s.clock.advance(by: moment.seconds)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == moment.phase)
    }

    @Test("one clock moved through the instants 0, 0.06, 0.25, 2, 5.25, 5.5 s")
    func oneClockThroughTheInstants() {
        var s = Self.entered()
        var seen: [BannerPhase] = []
        var last = 0.0
        for instant in [0, 0.06, 0.25, 2, 5.25, 5.5] {
            s.clock.advance(by: instant - last)
            last = instant
            seen.append(s.inbox.bannerPhase(at: s.clock.now))
            s.send(.tick)
        }
        #expect(seen == [.entering(fraction: 0), .entering(fraction: 0.24), .shown, .shown, .leaving(fraction: 1), .gone])
        #expect(s.clock.now == Instant(nanoseconds: 5_500_000_000))
        // The tick at 5.5 s cleared it.
        #expect(s.inbox.banner == nil)
    }

    @Test("nextDeadline: a step every 62.5 ms while sliding, the leave while shown, nil when idle")
    func deadlines() {
        let idle = Inbox()
        #expect(idle.nextDeadline(after: .zero) == nil)

        let inbox = Self.entered().inbox
        func deadline(_ seconds: Double) -> Instant? { inbox.nextDeadline(after: Instant(seconds: seconds)) }
        #expect(deadline(0) == Instant(seconds: 0.0625))
        #expect(deadline(0.06) == Instant(seconds: 0.0625))
        #expect(deadline(0.0625) == Instant(seconds: 0.125))
        #expect(deadline(0.2) == Instant(seconds: 0.25))
        #expect(deadline(0.25) == Instant(seconds: 5.25))
        #expect(deadline(2) == Instant(seconds: 5.25))
        #expect(deadline(5.25) == Instant(seconds: 5.3125))
        #expect(deadline(5.45) == Instant(seconds: 5.5))
        // Gone but not yet cleared: due now, so the loop ticks.
        #expect(deadline(5.5) == Instant(seconds: 5.5))
        #expect(deadline(9) == Instant(seconds: 9))
    }

    @Test("the deadlines walk the banner through 4 rows in, 4 rows out")
    func deadlinesWalkTheRows() {
        var s = Self.entered()
        var rows = [s.inbox.bannerPhase(at: s.clock.now).visibleRows(of: 4)]
        while let due = s.inbox.nextDeadline(after: s.clock.now) {
            s.clock.advance(by: due.seconds(since: s.clock.now))
            rows.append(s.inbox.bannerPhase(at: s.clock.now).visibleRows(of: 4))
            s.send(.tick)
        }
        #expect(rows == [0, 1, 2, 3, 4, 4, 3, 2, 1, 0])
        #expect(s.clock.now == Instant(seconds: 5.5))
        #expect(s.inbox.banner == nil)
    }

    @Test("tick keeps a banner that is still up")
    func tickKeepsALiveBanner() {
        var s = Self.entered()
        s.clock.advance(by: 5.4)
        #expect(s.send(.tick) == [])
        #expect(s.inbox.banner != nil)
    }
}

@Test("a silly --banner-seconds neither crashes nor shows forever", arguments: [-3, .infinity, .nan, 1e300])
func sillyBannerSeconds(seconds: Double) {
    var inbox = Inbox(bannerSeconds: seconds)
    _ = reduce(into: &inbox, .push(.apns(), at: ManualClock().wallNow), now: .zero)
    let phase = inbox.bannerPhase(at: Instant(seconds: 0.25))
    #expect(phase == .shown || phase == .leaving(fraction: 1))
    #expect(inbox.nextDeadline(after: Instant(seconds: 0.25)) != nil)
}
