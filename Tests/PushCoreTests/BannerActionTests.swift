import PushCore
import Testing

/// What happens to the banner when messages arrive, `Esc` swipes it or `o` opens it, as a swipe up
/// dismisses the STPushView banner of the Getui sample app and a tap opens its message.
@Suite struct BannerActionTests {
    let shop = "com.example.shop"

    @Test("a message while shown replaces the content, counts +N and restarts the stay")
    func replaceWhileShown() throws {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 2)
        let second = try #require(Scenario.inserted(s.push(.apns(title: "物流", body: "已簽收"))))
        s.clock.advance(by: 1)
        let third = try #require(Scenario.inserted(s.push(.apns(title: "紅包", body: "您收到一個紅包"))))

        let banner = try #require(s.inbox.banner)
        #expect(banner.message == third)
        #expect(banner.message != second)
        #expect(banner.count == 3)
        #expect(banner.shownAt == Instant(seconds: 3))
        // Fully shown at once — no second slide — and 5 s from the last arrival.
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 3)) == .shown)
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 7.9)) == .shown)
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 8)) == .leaving(fraction: 1))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 8.25)) == .gone)
    }

    @Test("a message while entering keeps it sliding in")
    func replaceWhileEntering() throws {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 0.1)
        s.push(.apns(title: "物流"))
        let banner = try #require(s.inbox.banner)
        #expect(banner.count == 2)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .entering(fraction: 0.4))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 5.25)) == .leaving(fraction: 1))
    }

    @Test("a message while leaving brings it back down from where it is")
    func replaceWhileLeaving() throws {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 5.375)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .leaving(fraction: 0.5))
        s.push(.apns(title: "物流"))
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .entering(fraction: 0.5))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 5.5)) == .shown)
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 10.5)) == .leaving(fraction: 1))
        #expect(s.inbox.banner?.count == 2)
    }

    @Test("a message after it is gone starts a new banner at +0")
    func newBannerAfterGone() throws {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 6)
        let message = try #require(Scenario.inserted(s.push(.apns(title: "物流"))))
        #expect(s.inbox.banner == Banner(message: message, enteredAt: Instant(seconds: 6), shownAt: Instant(seconds: 6.25)))
    }

    @Test("Esc sends a shown banner up over 0.25 s from now")
    func escDismissesShown() {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 2)
        #expect(s.send(.dismissBanner) == [])
        #expect(s.inbox.banner?.dismissedAt == Instant(seconds: 2))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 2)) == .leaving(fraction: 1))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 2.125)) == .leaving(fraction: 0.5))
        #expect(s.inbox.nextDeadline(after: Instant(seconds: 2)) == Instant(seconds: 2.0625))
        s.clock.advance(by: 0.25)
        s.send(.tick)
        #expect(s.inbox.banner == nil)
        #expect(s.inbox.nextDeadline(after: s.clock.now) == nil)
    }

    @Test("Esc while entering slides up from the row it reached")
    func escWhileEntering() {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 0.0625)
        s.send(.dismissBanner)
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 0.0625)) == .leaving(fraction: 0.25))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 0.125)) == .gone)
        // A second Esc while it leaves changes nothing.
        s.send(.dismissBanner)
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 0.09375)) == .leaving(fraction: 0.125))
    }

    @Test("a message after Esc brings it back down")
    func messageAfterEsc() {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 1)
        s.send(.dismissBanner)
        s.clock.advance(by: 0.125)
        s.push(.apns(title: "物流"))
        #expect(s.inbox.banner?.dismissedAt == nil)
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 1.125)) == .entering(fraction: 0.5))
        #expect(s.inbox.bannerPhase(at: Instant(seconds: 1.25)) == .shown)
    }

    @Test("tapping the banner opens its message and takes it down")
    func openBannerReadsItsMessage() throws {
        var s = Scenario()
        let message = try #require(Scenario.inserted(s.push(.apns())))
        s.clock.advance(by: 1)
        let open = s.send(.openBanner)
        #expect(
            open == [
                .store(.markRead([1])),
                .store(.unread(app: shop, count: 0)),
                .store(.badge(app: shop, Badge(icon: 0, server: 0))),
                .publish(BusEvent(.messageRead, ["ids": [.id(1)]])),
                feedback(90002, message),
                badgeChanged(shop, 0, 0),
                .reply(.badge(0)),
            ])
        #expect(s.inbox.banner == nil)
        #expect(s.send(.openBanner) == [])
    }

    @Test("opening a banner whose message was already read counts nothing")
    func openBannerAfterRead() throws {
        var s = Scenario()
        let message = try #require(Scenario.inserted(s.push(.apns())))
        s.send(.read([message]))
        let open = s.send(.openBanner)
        #expect(open.writes.isEmpty)
        #expect(open.published.isEmpty)
        #expect(s.inbox.banner == nil)

        s.push(.apns())
        s.send(.readAll(app: nil))
        #expect(s.send(.openBanner).writes.isEmpty)
    }

    @Test("a banner that is gone cannot be opened")
    func openGoneBanner() {
        var s = Scenario()
        s.push(.apns())
        s.clock.advance(by: 5.5)
        #expect(s.send(.openBanner) == [])
        #expect(s.inbox.banner == nil)
        #expect(s.inbox.unread[shop] == 1)
    }
}
