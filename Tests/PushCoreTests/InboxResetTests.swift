import Foundation
import PushCore
import Testing

/// `reset` and the `banner.shown` event `expect --banner` waits for.
@Suite struct InboxResetTests {
    let shop = "com.example.shop"
    let news = "com.example.news"

    @Test("reset of every app: ledgers, unread, held, dropped to nothing; push on, foreground")
    func resetAll() {
        var s = Scenario()
        s.push(.apns())
        s.push(.passThrough())
        s.send(.badge(app: news, change: nil, sync: false))
        s.setState(.terminated)
        s.push(.passThrough(msgId: "MSG-2"))
        s.send(.setMode(.off))
        s.push(.apns())
        #expect(s.inbox.held.count == 1)
        #expect(s.inbox.dropped == 1)
        let nextId = s.inbox.nextId

        let effects = s.send(.reset(app: nil, all: false))
        #expect(s.inbox.totalBadge == 0 && s.inbox.totalServerBadge == 0 && s.inbox.totalUnread == 0)
        #expect(s.inbox.held.isEmpty && s.inbox.banner == nil)
        #expect(s.inbox.settings == InboxSettings())
        #expect(s.inbox.nextId == nextId)
        #expect(effects.writes.first == .reset(app: nil, all: false, idFloor: nextId - 1))
        #expect(effects.writes.contains(.badge(app: shop, Badge())))
        #expect(effects.writes.contains(.badge(app: news, Badge())))
        #expect(effects.writes.contains(.settings(InboxSettings())))
        #expect(effects.topics.contains(.reset) && effects.topics.contains(.modeChanged) && effects.topics.contains(.appChanged))
        #expect(effects.reply == ["ok": true, "badge": 0])
    }

    @Test("reset of one app leaves the others' ledgers")
    func resetOneApp() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        s.push(.passThrough())
        let effects = s.send(.reset(app: shop, all: false))
        #expect(s.inbox.badge(of: shop) == Badge())
        #expect(s.inbox.badge(of: news) == Badge(icon: 1, server: 1))
        #expect(s.inbox.unread == [news: 1])
        #expect(effects.writes.first == .reset(app: shop, all: false, idFloor: 2))
        #expect(effects.reply == ["ok": true, "badge": 0])
    }

    @Test("a banner coming down or taking a new message publishes banner.shown; background does not")
    func bannerShown() {
        var s = Scenario()
        let first = s.push(.apns())
        #expect(first.events(.bannerShown).map(\.fields) == [
            ["id": 1, "app": .string(shop), "title": "官方客服", "body": "訂單 1270339 已發貨", "count": 1],
        ])
        s.clock.advance(by: 1)
        #expect(s.push(.apns(title: "Second")).events(.bannerShown).first?.fields["count"] == 2)
        #expect(s.send(.tick).events(.bannerShown).isEmpty)
        s.setState(.background)
        #expect(s.push(.apns()).events(.bannerShown).isEmpty)
    }
}
