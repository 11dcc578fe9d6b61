import Foundation
import PushCore
import Testing

/// Push mode, app states, the held queue, feedback: the inbox's behaviour as Getui and JPush
/// apps see it.
@Suite struct InboxDeliveryTests {
    let shop = "com.example.shop"
    let news = "com.example.news"

    @Test("push mode off drops and counts, badge unmoved")
    func pushModeOffDrops() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        let off = s.send(.setMode(.off))
        #expect(
            off == [
                .store(.settings(InboxSettings(mode: .off, appState: .background))),
                .publish(BusEvent(.modeChanged, ["mode": "off"])),
                .reply(.mode(.off)),
            ])

        let dropped = s.push(.apns())
        #expect(
            dropped == [
                .store(.settings(InboxSettings(mode: .off, appState: .background, dropped: 1))),
                .publish(BusEvent(.messageDropped, ["app": .string(shop), "dropped": 1])),
                .reply(.push(PushReply(.dropped(.modeOff), badge: 1))),
            ])
        s.push(.passThrough())
        #expect(s.inbox.dropped == 2)
        #expect(s.inbox.nextId == 2)
        #expect(s.inbox.badge(of: shop) == Badge(icon: 1, server: 1))
        #expect(s.inbox.totalUnread == 1)

        // On again: delivered again; the dropped count is history and stays.
        s.send(.setMode(.on))
        #expect(s.inbox.dropped == 2)
        #expect(s.push(.apns()).reply == ["ok": true, "id": 2, "badge": 2, "delivered": true])
    }

    @Test("terminated holds pass-through, foreground delivers it offline")
    func terminatedHoldsPassThrough() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        let first = s.push(.passThrough(msgId: "MSG-1"))
        let held = try #require(Scenario.inserted(first))
        #expect(held.held && !held.offline && held.channel == .transparent)
        #expect(
            first == [
                .store(.insert(held)),
                .reply(.push(PushReply(.held(id: 1), badge: 0))),
            ])
        s.push(.passThrough(msgId: "MSG-2"))
        #expect(s.inbox.held.map(\.id) == [1, 2])
        #expect(s.inbox.totalUnread == 0)
        #expect(s.inbox.totalBadge == 0)

        // Background is not enough: Getui's offline queue arrives in the foreground.
        s.setState(.background)
        #expect(s.inbox.held.count == 2)

        let foreground = s.send(.setAppState(.foreground))
        #expect(s.inbox.held.isEmpty)
        let released = [Int64(1), 2].map { id in
            Message(
                id: id, app: news, channel: .transparent, body: "早報：今日要聞", offline: true,
                receivedAt: s.clock.wallNow, taskId: "TASK-1", msgId: "MSG-\(id)",
                payload: Push.passThrough(msgId: "MSG-\(id)").payload)
        }
        #expect(
            foreground == [
                .store(.settings(InboxSettings(appState: .foreground))),
                .store(.release([1, 2])),
                .store(.unread(app: news, count: 2)),
                .store(.badge(app: news, Badge(icon: 2, server: 2))),
                .publish(BusEvent(.appChanged, ["state": "foreground"])),
                .publish(BusEvent(.messageReceived, ["message": released[0].wireJSON])),
                feedback(90001, released[0]),
                .publish(BusEvent(.messageReceived, ["message": released[1].wireJSON])),
                feedback(90001, released[1]),
                .publish(BusEvent(.bannerShown, [
                    "id": 2, "app": .string(news), "title": nil, "body": "早報：今日要聞", "count": 2,
                ])),
                badgeChanged(news, 2, 2),
                .reply(.appState(.foreground)),
            ])
        #expect(s.inbox.unread[news] == 2)
        // No banner storm: one banner, the newest, counting both.
        let banner = try #require(s.inbox.banner)
        #expect(banner.message == released[1])
        #expect(banner.count == 2)
    }

    @Test("terminated passes APNs through as in background, marked as the launch notification")
    func terminatedApnsIsTheLaunchNotification() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        let first = s.push(.apns())
        let launch = try #require(Scenario.inserted(first))
        #expect(launch.launch && !launch.held)
        #expect(
            first.writes == [
                .insert(launch), .setLaunch(1), .unread(app: shop, count: 1), .badge(app: shop, Badge(icon: 1, server: 1)),
            ])
        #expect(first.topics == [.remoteReceived, .badgeChanged])
        #expect(first.reply == ["ok": true, "id": 1, "badge": 1, "delivered": true])
        #expect(s.inbox.launchId == 1)
        #expect(s.inbox.banner == nil)

        // The newest one is the launch notification.
        let second = s.push(.apns(title: "物流"))
        #expect(second.writes.contains(.setLaunch(2)))
        #expect(s.inbox.launchId == 2)

        // Launching keeps it: it is the notification the app was launched with.
        s.setState(.foreground)
        #expect(s.inbox.launchId == 2)
        #expect(s.inbox.banner == nil)
        #expect(s.inbox.callback(for: launch) == "launchOptions[UIApplicationLaunchOptionsRemoteNotificationKey]")
    }

    @Test("Getui feedback 90001 on pass-through delivery and 90002 on open")
    func feedbackOnDeliveryAndOpen() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let arrival = s.push(.passThrough(taskId: "OSS-1130_abc", msgId: "d6a1f"))
        let message = try #require(Scenario.inserted(arrival))
        #expect(
            arrival.published == [
                BusEvent(.messageReceived, ["message": message.wireJSON]),
                BusEvent(.feedback, [
                    "action": 90001, "id": 1, "app": .string(news), "taskId": "OSS-1130_abc", "msgId": "d6a1f",
                ]),
                BusEvent(.badgeChanged, ["app": .string(news), "badge": 1, "serverBadge": 1]),
            ])
        let open = s.send(.read([message]))
        #expect(
            open.events(.feedback) == [
                BusEvent(.feedback, [
                    "action": 90002, "id": 1, "app": .string(news), "taskId": "OSS-1130_abc", "msgId": "d6a1f",
                ])
            ])

        // APNs delivery has no 90001 (it goes to the app, not the SDK), and null ids on open.
        let apns = try #require(Scenario.inserted(s.push(.apns())))
        #expect(!s.push(.apns()).topics.contains(.feedback))
        #expect(s.send(.read([apns])).events(.feedback) == [BusEvent(.feedback, [
            "action": 90002, "id": 2, "app": .string(shop), "taskId": nil, "msgId": nil,
        ])])
    }

    @Test("reading twice decrements once")
    func readingTwiceCountsOnce() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let one = try #require(Scenario.inserted(s.push(.apns())))
        s.push(.apns())
        // The same id twice in one request counts once.
        let first = s.send(.read([one, one]))
        #expect(first.writes == [.markRead([1]), .unread(app: shop, count: 1), .badge(app: shop, Badge(icon: 1, server: 1))])
        // The loop looks it up again: now stored as read.
        var stored = one
        stored.read = true
        let again = s.send(.read([stored]))
        #expect(again == [.reply(.badge(1))])
        #expect(s.inbox.badge(of: shop) == Badge(icon: 1, server: 1))
        #expect(s.inbox.unread[shop] == 1)
    }

    @Test("reading a held message changes nothing")
    func readingHeldDoesNothing() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        let held = try #require(Scenario.inserted(s.push(.passThrough())))
        #expect(s.send(.read([held])) == [.reply(.badge(0))])
    }

    @Test("delete: unread counts down like a read without feedback; read ones move nothing")
    func deleteCountsDownUnread() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let unread = try #require(Scenario.inserted(s.push(.apns())))
        var read = try #require(Scenario.inserted(s.push(.apns())))
        s.send(.read([read]))
        read.read = true
        #expect(s.inbox.badge(of: shop) == Badge(icon: 1, server: 1))

        let delete = s.send(.delete([unread, read]))
        #expect(
            delete == [
                .store(.delete([1, 2])),
                .store(.unread(app: shop, count: 0)),
                .store(.badge(app: shop, Badge(icon: 0, server: 0))),
                .publish(BusEvent(.messageDeleted, ["ids": [.id(1), .id(2)]])),
                badgeChanged(shop, 0, 0),
                .reply(.badge(0)),
            ])
        #expect(s.inbox.unread[shop] == 0)
        #expect(s.send(.delete([])) == [.reply(.badge(0))])
    }

    @Test("delete takes a held message out of the queue")
    func deleteHeld() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        let held = try #require(Scenario.inserted(s.push(.passThrough())))
        let delete = s.send(.delete([held]))
        #expect(delete.writes == [.delete([1])])
        #expect(s.inbox.held.isEmpty)
        // Nothing left to deliver in the foreground.
        #expect(s.send(.setAppState(.foreground)).writes == [.settings(InboxSettings(appState: .foreground))])
        #expect(s.inbox.totalBadge == 0)
    }

    @Test("deleting the banner's message takes the banner down")
    func deleteBannerMessage() throws {
        var s = Scenario()
        let message = try #require(Scenario.inserted(s.push(.apns())))
        #expect(s.inbox.banner != nil)
        s.send(.delete([message]))
        #expect(s.inbox.banner == nil)
    }

    @Test("read all of one app, then of every app")
    func readAll() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        s.push(.apns())
        s.push(.passThrough())
        let shopOnly = s.send(.readAll(app: shop))
        #expect(
            shopOnly == [
                .store(.markAllRead(app: shop)),
                .store(.unread(app: shop, count: 0)),
                .store(.badge(app: shop, Badge(icon: 0, server: 0))),
                .publish(BusEvent(.messageRead, ["all": true, "app": .string(shop)])),
                badgeChanged(shop, 0, 0),
                .reply(.badge(0)),
            ])
        #expect(s.inbox.unread[news] == 1)

        let all = s.send(.readAll(app: nil))
        #expect(all.writes == [.markAllRead(app: nil), .unread(app: news, count: 0), .badge(app: news, Badge(icon: 0, server: 0))])
        #expect(all.events(.messageRead) == [BusEvent(.messageRead, ["all": true, "app": nil])])
        #expect(s.inbox.totalUnread == 0)
        // Nothing unread: nothing written or published.
        #expect(s.send(.readAll(app: nil)) == [.reply(.badge(0))])
    }

    @Test("read all takes off only the unread, never below 0")
    func readAllAfterAbsoluteBadge() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns(badge: .set(10)))
        s.push(.apns())
        #expect(s.inbox.badge(of: shop).icon == 11)
        s.send(.readAll(app: nil))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 9, server: 9))
        s.push(.apns())
        s.push(.apns())
        s.send(.badge(app: shop, change: .set(1), sync: nil))
        s.send(.readAll(app: shop))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 0, server: 0))
    }

    @Test("held messages wait while push is off and come when it is on in the foreground")
    func heldWaitWhilePushOff() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        s.push(.passThrough())
        s.send(.setMode(.off))
        s.setState(.foreground)
        #expect(s.inbox.held.count == 1)
        #expect(s.inbox.banner == nil)
        let on = s.send(.setMode(.on))
        #expect(on.writes.contains(.release([1])))
        #expect(on.topics == [.modeChanged, .messageReceived, .feedback, .bannerShown, .badgeChanged])
        #expect(s.inbox.unread[news] == 1)
        #expect(s.inbox.banner?.count == 1)
    }

    @Test("banner only in the foreground: background and terminated deliver without one")
    func bannerOnlyInForeground() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns())
        #expect(s.inbox.banner == nil)
        s.setState(.foreground)
        let message = try #require(Scenario.inserted(s.push(.passThrough())))
        #expect(s.inbox.banner == Banner(message: message, enteredAt: .zero, shownAt: Instant(seconds: 0.25)))
        // The banner is an in-app view: it goes with the app.
        s.setState(.background)
        #expect(s.inbox.banner == nil)
    }

    @Test("same mode or state again: no write, no event")
    func idempotentSwitches() {
        var s = Scenario()
        #expect(s.send(.setMode(.on)) == [.reply(.mode(.on))])
        #expect(s.send(.setAppState(.foreground)) == [.reply(.appState(.foreground))])
    }

    @Test("the iOS callback each app state reaches")
    func callbacks() {
        let wall = Date(timeIntervalSince1970: 0)
        let apns = Message(id: 1, app: shop, channel: .apns, receivedAt: wall, payload: "{}")
        let pass = Message(id: 2, app: news, channel: .transparent, receivedAt: wall, payload: "{}")
        let offline = Message(id: 3, app: news, channel: .transparent, offline: true, receivedAt: wall, payload: "{}")
        var inbox = Inbox()
        #expect(inbox.callback(for: pass) == "GeTuiSdkDidReceivePayloadData offLine:NO")
        #expect(inbox.callback(for: offline) == "GeTuiSdkDidReceivePayloadData offLine:YES")
        #expect(inbox.callback(for: apns) == "userNotificationCenter:willPresentNotification:")
        inbox.settings.appState = .background
        #expect(inbox.callback(for: apns).hasPrefix("didReceiveRemoteNotification:fetchCompletionHandler:"))
        inbox.settings.appState = .terminated
        #expect(inbox.callback(for: apns) == "launchOptions[UIApplicationLaunchOptionsRemoteNotificationKey]")
    }
}
