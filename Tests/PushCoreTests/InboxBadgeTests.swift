import Foundation
import PushCore
import Testing

/// The two badge ledgers, the icon badge and the server's, as the Getui and JPush sample apps
/// use them.
@Suite struct InboxBadgeTests {
    let shop = "com.example.shop"
    let news = "com.example.news"

    @Test("+1 on arrival, −1 on read, synced to server")
    func arrivalAndReadSyncTheServer() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let arrival = s.push(.apns())
        let message = try #require(Scenario.inserted(arrival))
        #expect(
            message
                == Message(
                    id: 1, app: shop, channel: .apns, title: "官方客服", body: "訂單 1270339 已發貨",
                    receivedAt: s.clock.wallNow, payload: Push.apns().payload))
        #expect(
            arrival == [
                .store(.insert(message)),
                .store(.unread(app: shop, count: 1)),
                .store(.badge(app: shop, Badge(icon: 1, server: 1))),
                .publish(BusEvent(.remoteReceived, ["message": message.wireJSON])),
                badgeChanged(shop, 1, 1),
                .reply(.push(PushReply(.delivered(id: 1), badge: 1))),
            ])

        let read = s.send(.read([message]))
        #expect(
            read == [
                .store(.markRead([1])),
                .store(.unread(app: shop, count: 0)),
                .store(.badge(app: shop, Badge(icon: 0, server: 0))),
                .publish(BusEvent(.messageRead, ["ids": [.id(1)]])),
                feedback(90002, message),
                badgeChanged(shop, 0, 0),
                .reply(.badge(0)),
            ])
        #expect(s.inbox.unread[shop] == 0)
        #expect(s.inbox.badge(of: shop) == Badge(icon: 0, server: 0))
    }

    @Test("read never takes the badge below 0")
    func readNeverTakesTheBadgeBelowZero() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let message = try #require(Scenario.inserted(s.push(.apns())))
        s.send(.badge(app: shop, change: .clear, sync: nil))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 0, server: 0))

        let read = s.send(.read([message]))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 0, server: 0))
        #expect(s.inbox.unread[shop] == 0)
        // Read, with its feedback, but the badge had nowhere to go: no write, no badge.changed.
        #expect(read.writes == [.markRead([1]), .unread(app: shop, count: 0)])
        #expect(read.topics == [.messageRead, .feedback])
        #expect(read.reply == ["ok": true, "badge": 0])
    }

    @Test("sync off, the server badge drifts")
    func syncOffTheServerBadgeDrifts() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let off = s.send(.badge(app: nil, change: nil, sync: false))
        #expect(
            off == [
                .store(.settings(InboxSettings(appState: .background, badgeSync: false))),
                .reply(.ledgers(Ledgers(badge: 0, serverBadge: 0, unread: 0))),
            ])

        s.push(.apns())
        let second = s.push(.apns())
        #expect(s.inbox.badge(of: shop) == Badge(icon: 2, server: 0))
        #expect(s.inbox.badge(of: shop).drifted)
        #expect(second.writes.last == .badge(app: shop, Badge(icon: 2, server: 0)))
        #expect(second.contains(badgeChanged(shop, 2, 0)))

        // Turning sync back on does not move the server by itself; the next local change does.
        s.send(.badge(app: nil, change: nil, sync: true))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 2, server: 0))
        s.push(.apns())
        #expect(s.inbox.badge(of: shop) == Badge(icon: 3, server: 3))
    }

    @Test("Getui autoBadge +2 then -1 moves the server and the icon follows")
    func autoBadgeMovesTheServer() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background, badgeSync: false)))
        s.send(.badge(app: news, change: .set(5), sync: nil))
        #expect(s.inbox.badge(of: news) == Badge(icon: 5, server: 0))

        let plusTwo = s.push(.passThrough(badge: .autoAdd(2)))
        #expect(s.inbox.badge(of: news) == Badge(icon: 2, server: 2))
        #expect(plusTwo.contains(.store(.badge(app: news, Badge(icon: 2, server: 2)))))
        #expect(plusTwo.reply?["badge"] == .int(2))

        s.push(.passThrough(msgId: "MSG-2", badge: .autoAdd(-1)))
        #expect(s.inbox.badge(of: news) == Badge(icon: 1, server: 1))

        s.push(.passThrough(msgId: "MSG-3", badge: .autoAdd(-5)))
        #expect(s.inbox.badge(of: news) == Badge(icon: 0, server: 0))

        s.push(.passThrough(msgId: "MSG-4", badge: .autoSet(9)))
        #expect(s.inbox.badge(of: news) == Badge(icon: 9, server: 9))
        #expect(s.inbox.unread[news] == 4)
    }

    @Test("aps.badge sets the icon absolutely")
    func apsBadgeSetsTheIcon() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        s.push(.apns(badge: .set(7)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 7, server: 7))
        let lower = s.push(.apns(badge: .set(3)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 3, server: 3))
        #expect(lower.reply == ["ok": true, "id": 3, "badge": 3, "delivered": true])
        #expect(s.inbox.unread[shop] == 3)

        // The same number again moves nothing: no badge write, no badge.changed.
        let same = s.push(.apns(badge: .set(3)))
        #expect(!same.topics.contains(.badgeChanged))
        #expect(!same.writes.contains { if case .badge = $0 { true } else { false } })
    }

    @Test("clear zeroes both ledgers of every app")
    func clearZeroesEveryApp() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background, badgeSync: false)))
        s.push(.apns())
        s.push(.passThrough(badge: .autoAdd(4)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 1, server: 0))
        #expect(s.inbox.badge(of: news) == Badge(icon: 4, server: 4))

        let clear = s.send(.badge(app: nil, change: .clear, sync: nil))
        #expect(
            clear == [
                .store(.badge(app: news, Badge(icon: 0, server: 0))),
                .store(.badge(app: shop, Badge(icon: 0, server: 0))),
                badgeChanged(news, 0, 0),
                badgeChanged(shop, 0, 0),
                .reply(.ledgers(Ledgers(badge: 0, serverBadge: 0, unread: 2))),
            ])
        // Clearing is not reading: the messages stay unread.
        #expect(s.inbox.totalUnread == 2)
    }

    @Test("clear of one app leaves the others")
    func clearOneApp() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        s.push(.passThrough())
        let clear = s.send(.badge(app: shop, change: .clear, sync: nil))
        #expect(clear.reply == ["ok": true, "badge": 0, "serverBadge": 0, "unread": 1])
        #expect(s.inbox.badge(of: news) == Badge(icon: 1, server: 1))
        #expect(clear.topics == [.badgeChanged])
    }

    @Test("set without an app sets the default app; sync off leaves the server")
    func setDefaultApp() {
        var s = Scenario()
        let set = s.send(.badge(app: nil, change: .set(4), sync: false))
        #expect(
            set == [
                .store(.settings(InboxSettings(badgeSync: false))),
                .store(.badge(app: "default", Badge(icon: 4, server: 0))),
                badgeChanged("default", 4, 0),
                .reply(.ledgers(Ledgers(badge: 4, serverBadge: 0, unread: 0))),
            ])
        s.send(.badge(app: nil, change: .set(6), sync: true))
        #expect(s.inbox.badge(of: "default") == Badge(icon: 6, server: 6))
    }

    @Test("totals over apps without an app, the app's own ledgers with one")
    func totalsOverApps() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        s.push(.apns())
        s.push(.passThrough(badge: .autoSet(5)))
        #expect(s.inbox.totalBadge == 7)
        #expect(s.inbox.totalUnread == 3)
        #expect(s.send(.badge(app: nil, change: nil, sync: nil)) == [.reply(.ledgers(Ledgers(badge: 7, serverBadge: 7, unread: 3)))])
        #expect(s.send(.badge(app: shop, change: nil, sync: nil)) == [.reply(.ledgers(Ledgers(badge: 2, serverBadge: 2, unread: 2)))])
        #expect(s.send(.badge(app: "com.example.none", change: nil, sync: nil)).reply?["badge"] == .int(0))
    }
}
