import Foundation
import PushCore
import Testing
import TestSupport

/// Device offline vs app terminated: what the vendors store for an offline device and
/// what it gets when it comes back, on the manual clock.
@Suite("Device offline")
struct DeviceOfflineTests {
    let shop = "com.example.shop"
    let news = "com.example.news"

    private func offline(_ s: inout Scenario, token: String? = nil) {
        let effects = s.send(.device(.setOffline(token: token, true), at: s.clock.wallNow))
        #expect(effects.reply?["state"] == "offline")
    }

    @discardableResult
    private func online(_ s: inout Scenario, token: String? = nil) -> [Effect] {
        s.send(.device(.setOffline(token: token, false), at: s.clock.wallNow))
    }

    private func apns(_ body: String, app: String = "com.example.shop", expiration: Int? = nil, token: String? = nil) -> Push {
        var push = Push.apns(app: app, body: body)
        push.token = token
        if let expiration {
            push.via = .apns
            push.headers = ["apns-expiration": String(expiration)]
        }
        return push
    }

    private func jpush(_ body: String, token: String) -> Push {
        var push = Push.passThrough(app: news, body: body, msgId: body)
        push.via = .jpush
        push.token = token
        return push
    }

    @Test func apnsKeepsOnlyTheLatestNotificationPerAppAndDeliversItOnline() {
        var s = Scenario()
        offline(&s)
        #expect(s.inbox.isDeviceOffline(nil))
        let first = s.push(apns("one"))
        #expect(first.reply?["delivered"] == false && first.reply?["stored"] == true)
        #expect(s.inbox.totalUnread == 0 && s.inbox.banner == nil)
        s.push(apns("other app", app: news))
        let third = s.push(apns("two"))
        // The earlier notification of the same app is discarded, as Apple documents.
        #expect(third.writes.contains(.delete([1])))
        #expect(s.inbox.held.map(\.id) == [2, 3])
        #expect(s.inbox.storedOfflineCount == 2)
        // Coming back in the foreground: both delivered, one banner (the newest, +1).
        let back = online(&s)
        #expect(back.writes.contains(.release([2, 3])))
        #expect(back.reply?["state"] == "online")
        #expect(s.inbox.held.isEmpty)
        #expect(s.inbox.unread == [shop: 1, news: 1])
        #expect(s.inbox.banner?.message.body == "two")
        #expect(s.inbox.banner?.count == 2)
    }

    @Test func jpushKeepsAtMostTheLatestFivePassThroughMessagesPerDevice() {
        var s = Scenario()
        s.send(.device(.add(Device(token: "rid-1", app: news, vendor: .jpush)), at: s.clock.wallNow))
        s.send(.device(.add(Device(token: "rid-2", app: news, vendor: .jpush)), at: s.clock.wallNow))
        offline(&s, token: "rid-1")
        offline(&s, token: "rid-2")
        for index in 1...7 { s.push(jpush("m\(index)", token: "rid-1")) }
        s.push(jpush("other device", token: "rid-2"))
        #expect(s.inbox.held.map(\.body) == ["m3", "m4", "m5", "m6", "m7", "other device"])
        // Only rid-1 comes back: its five, the other device's message still waits.
        online(&s, token: "rid-1")
        #expect(s.inbox.held.map(\.body) == ["other device"])
        #expect(s.inbox.unread[news] == 5)
        #expect(!s.inbox.isDeviceOffline("rid-1") && s.inbox.isDeviceOffline("rid-2"))
    }

    @Test func storedMessagesExpireAndAreNeverDeliveredLate() {
        var s = Scenario()
        offline(&s)
        let now = Int(s.clock.wallNow.timeIntervalSince1970)
        s.push(apns("a minute", expiration: now + 60))
        s.push(apns("no expiration", app: news))
        var ttl = Push.passThrough(app: "com.example.chat", body: "ttl")
        ttl.payload = #"{"push_message":{"transmission":"ttl"},"settings":{"ttl":30000}}"#
        ttl.timeToLive = 30  // as the decoder reads `settings.ttl` (the inbox never parses the payload)
        s.push(ttl)
        s.clock.advance(by: 31)
        #expect(s.send(.expireHeld(at: s.clock.wallNow)).writes == [.expire([3])])
        s.clock.advance(by: 30)
        #expect(s.send(.expireHeld(at: s.clock.wallNow)).writes == [.expire([1])])
        // Without apns-expiration APNs keeps it up to 30 days; a day is not enough to lose it.
        #expect(s.send(.expireHeld(at: s.clock.wallNow.addingTimeInterval(86_400))).writes.isEmpty)
        #expect(s.send(.expireHeld(at: s.clock.wallNow.addingTimeInterval(30 * 86_400))).writes == [.expire([2])])
        online(&s)
        #expect(s.inbox.unread.isEmpty && s.inbox.held.isEmpty)
    }

    @Test func withinTheirExpiryStoredMessagesAreDelivered() {
        var s = Scenario()
        offline(&s)
        s.push(apns("a minute", expiration: Int(s.clock.wallNow.timeIntervalSince1970) + 60))
        s.clock.advance(by: 59)
        #expect(s.send(.expireHeld(at: s.clock.wallNow)).writes.isEmpty)
        online(&s)
        #expect(s.inbox.unread == [shop: 1])
        #expect(s.inbox.banner?.message.body == "a minute")
    }

    @Test func expirationZeroIsNotStoredAtAll() {
        var s = Scenario()
        offline(&s)
        let effects = s.push(apns("now or never", expiration: 0))
        #expect(effects.reply?["stored"] == false && effects.reply?["delivered"] == false)
        #expect(effects.writes.isEmpty)
        #expect(s.inbox.held.isEmpty && s.inbox.nextId == 1)
        // Online, the same push is delivered at once.
        online(&s)
        #expect(s.push(apns("now or never", expiration: 0)).reply?["delivered"] == true)
    }

    @Test func onceOnlineTheAppStateDecides() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        offline(&s)
        s.push(apns("launches"))
        s.push(.passThrough(body: "waits for the app"))
        let back = online(&s)
        // APNs reaches the device: listed, the app launched with it; no banner while terminated.
        #expect(back.writes.contains(.release([1])))
        #expect(back.writes.contains(.setLaunch(1)))
        #expect(s.inbox.launchId == 1 && s.inbox.banner == nil)
        // Pass-through waits for the app as it always has.
        #expect(s.inbox.held.map(\.id) == [2])
        s.setState(.foreground)
        #expect(s.inbox.held.isEmpty)
        #expect(s.inbox.unread == [shop: 1, news: 1])
    }

    @Test func pushOffKeepsStoredMessagesUntilItIsOnAgain() {
        var s = Scenario()
        offline(&s)
        s.push(apns("stored"))
        s.send(.setMode(.off))
        online(&s)
        #expect(s.inbox.held.count == 1)
        s.send(.setMode(.on))
        #expect(s.inbox.held.isEmpty && s.inbox.unread[shop] == 1)
    }

    @Test func anUnknownTokenIsRefusedAndNothingChanges() {
        var s = Scenario()
        let effects = s.send(.device(.setOffline(token: "abcd", true), at: s.clock.wallNow))
        #expect(effects.reply?["ok"] == false)
        #expect(effects.writes.isEmpty && !s.inbox.isDeviceOffline(nil))
    }

    @Test func theStateSurvivesInTheWireObjectAndTheDeviceList() throws {
        var s = Scenario()
        s.send(.device(.add(Device(token: "abcd", app: shop)), at: s.clock.wallNow))
        offline(&s, token: "abcd")
        let list = s.send(.device(.list, at: s.clock.wallNow)).reply
        guard case .array(let devices)? = list?["devices"] else { Issue.record("no devices"); return }
        #expect(devices.first?.objectValue?["state"] == "offline")
        #expect(list?["defaultDevice"] == "online")
        // Adding the token again keeps it offline.
        s.send(.device(.add(Device(token: "abcd", app: news)), at: s.clock.wallNow))
        #expect(s.inbox.isDeviceOffline("abcd"))
    }
}
