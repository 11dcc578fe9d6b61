import Foundation
import PushCore
import PushJSON
import Testing
import TestSupport

/// FCM on a device, rule by rule: notification and data messages by app state, the tag, the
/// launcher count, what FCM stores for an offline device, and the `apns` block on iOS.
@Suite("FCM on the device")
struct FCMInboxTests {
    static let app = "com.example.shop"

    /// The push an FCM message is on a device, decoded as the engine decodes it.
    static func fcm(_ message: String, platform: DevicePlatform = .android, token: String = "tok:1", id: Int = 1) throws -> Push {
        let request = PushRequest.fcm(
            messageText: message, app: app, token: token,
            route: FCMRoute(platform: platform, project: "demo", messageName: "projects/demo/messages/\(id)"))
        return try PushDecoder().decode(request)
    }

    static let notification = #"{"token":"tok:1","notification":{"title":"Sale","body":"Today only"}}"#
    static let data = #"{"token":"tok:1","data":{"orderId":"1270339","body":"shipped"}}"#

    private func scenario(_ state: AppState, device: String? = "tok:1") -> Scenario {
        var s = Scenario()
        if let device { s.send(.device(.add(Device(token: device, app: Self.app)), at: s.clock.wallNow)) }
        s.setState(state)
        return s
    }

    @Test(arguments: [AppState.background, .terminated])
    func aNotificationMessageInTheBackgroundGoesToTheTray(_ state: AppState) throws {
        var s = scenario(state)
        let effects = s.push(try Self.fcm(Self.notification))
        let message = try #require(Scenario.inserted(effects))
        #expect(message.channel == .android && message.via == .fcm)
        #expect(message.callback == "system tray")
        #expect(!message.read && !message.silent)
        #expect(s.inbox.unread[Self.app] == 1)
        #expect(s.inbox.badge(of: Self.app).icon == 1)
        #expect(s.inbox.banner?.message.id == message.id)
        #expect(s.inbox.held.isEmpty)
        #expect(s.inbox.callback(for: message) == "system tray")
    }

    @Test func aNotificationMessageInTheForegroundReachesOnMessageReceivedAndShowsNothing() throws {
        var s = scenario(.foreground)
        let message = try #require(Scenario.inserted(s.push(try Self.fcm(Self.notification))))
        #expect(message.callback == "onMessageReceived")
        #expect(message.read)
        #expect(s.inbox.unread[Self.app, default: 0] == 0)
        #expect(s.inbox.badge(of: Self.app).icon == 0)
        #expect(s.inbox.banner == nil)
    }

    @Test(arguments: AppState.allCases)
    func aDataMessageReachesOnMessageReceivedInEveryState(_ state: AppState) throws {
        var s = scenario(state)
        let effects = s.push(try Self.fcm(Self.data))
        let message = try #require(Scenario.inserted(effects))
        #expect(effects.reply?["delivered"] == true)
        #expect(message.channel == .transparent && message.callback == "onMessageReceived")
        #expect(message.body == "shipped" && message.read && !message.held)
        #expect(s.inbox.banner == nil && s.inbox.badge(of: Self.app).icon == 0)
        // No Getui receipt: the app's own FCM service has none.
        #expect(!effects.topics.contains(.feedback))
    }

    @Test func aTagReplacesTheShownNotificationAndCountsOnce() throws {
        var s = scenario(.background)
        let tagged = #"{"token":"tok:1","android":{"notification":{"title":"Score","body":"1-0","tag":"match"}}}"#
        let first = try #require(Scenario.inserted(s.push(try Self.fcm(tagged))))
        var second = try Self.fcm(tagged.replacingOccurrences(of: "1-0", with: "2-0"), id: 2)
        second.replacing = ReplacedMessage(first)
        let effects = s.push(second)
        #expect(effects.typedReply?.pushReply?.fate == .replaced(id: first.id))
        #expect(s.inbox.unread[Self.app] == 1 && s.inbox.badge(of: Self.app).icon == 1)
        // Another tag is another notification.
        var other = try Self.fcm(tagged.replacingOccurrences(of: "match", with: "other"), id: 3)
        other.replacing = nil
        #expect(s.push(other).typedReply?.pushReply?.fate == .delivered(id: 2))
    }

    @Test func notificationCountIsWhatTheLauncherShows() throws {
        var s = scenario(.background)
        s.push(try Self.fcm(#"{"token":"tok:1","android":{"notification":{"title":"Mail","notification_count":7}}}"#))
        #expect(s.inbox.badge(of: Self.app).icon == 7)
        #expect(s.inbox.unread[Self.app] == 1)
    }

    @Test func priorityProjectAndNameAreRecorded() throws {
        var s = scenario(.background)
        let message = try #require(Scenario.inserted(s.push(try Self.fcm(
            #"{"token":"tok:1","notification":{"title":"t"},"android":{"priority":"HIGH","ttl":"90s","collapse_key":"k"}}"#, id: 42))))
        #expect(message.fcm == FCMFacts(
            project: "demo", messageName: "projects/demo/messages/42", platform: .android, collapseKey: "k",
            ttlSeconds: 90, priority: .high))
        #expect(message.wireJSON.objectValue?["messageName"] == "projects/demo/messages/42")
        #expect(message.wireJSON.objectValue?["callback"] == "system tray")
    }

    @Test func anFCMMessageReadsBackFromItsWireObject() throws {
        var s = scenario(.background)
        let message = try #require(Scenario.inserted(s.push(try Self.fcm(
            #"{"token":"tok:1","android":{"ttl":"1.5s","notification":{"title":"t","tag":"g","notification_count":2}}}"#))))
        let object = try #require(message.wireJSON.objectValue)
        // The badge directive and time to live the decoder kept for delivery and held expiry are
        // the store's, not the wire's (the wire shows them as `fcm.notificationCount` and `fcm.ttl`).
        var listed = message
        listed.badgeDirective = nil
        listed.timeToLive = nil
        #expect(try Message(wire: object) == listed)
        #expect(object["fcm"]?.objectValue?["ttl"] == .number(JSONNumber(text: "1.5")))
        #expect(message.sourceName == "FCM")
    }

    @Test func aSocketPushCannotNameTheAndroidChannel() {
        #expect(throws: WireError.self) {
            try Request.decode(frame: Array(#"{"op":"push","channel":"android","payload":{"aps":{"alert":"x"}}}"#.utf8))
        }
        #expect(Channel.requestable == [.apns, .transparent])
    }

    // MARK: Offline

    private func offline(_ s: inout Scenario) {
        s.send(.device(.setOffline(token: "tok:1", true), at: s.clock.wallNow))
    }

    @discardableResult
    private func online(_ s: inout Scenario) -> [Effect] {
        s.send(.device(.setOffline(token: "tok:1", false), at: s.clock.wallNow))
    }

    private func keyed(_ key: String, _ body: String) -> String {
        #"{"token":"tok:1","data":{"body":"\#(body)"},"android":{"collapse_key":"\#(key)"}}"#
    }

    @Test func offlineACollapseKeyKeepsOnlyTheLatest() throws {
        var s = scenario(.foreground)
        offline(&s)
        for body in ["1", "2", "3"] { s.push(try Self.fcm(keyed("score", body))) }
        s.push(try Self.fcm(#"{"token":"tok:1","data":{"body":"plain"}}"#))
        #expect(s.inbox.held.map(\.body) == ["3", "plain"])
        online(&s)
        #expect(s.inbox.held.isEmpty)
    }

    @Test func offlineAtMostFourCollapseKeysAreKept() throws {
        var s = scenario(.foreground)
        offline(&s)
        for key in ["a", "b", "c", "d", "e"] { s.push(try Self.fcm(keyed(key, key))) }
        // The key used longest ago goes.
        #expect(s.inbox.held.map(\.body) == ["b", "c", "d", "e"])
        s.push(try Self.fcm(keyed("b", "b2")))
        #expect(s.inbox.held.map(\.body) == ["c", "d", "e", "b2"])
    }

    @Test func offlineATtlOfZeroIsNowOrNever() throws {
        var s = scenario(.background)
        offline(&s)
        let effects = s.push(try Self.fcm(#"{"token":"tok:1","notification":{"title":"t"},"android":{"ttl":"0s"}}"#))
        #expect(effects.typedReply?.pushReply?.fate == .dropped(.expiresOffline))
        #expect(s.inbox.held.isEmpty)
        // Online, the same message is delivered at once.
        online(&s)
        #expect(s.push(try Self.fcm(#"{"token":"tok:1","notification":{"title":"t"},"android":{"ttl":"0s"}}"#))
            .typedReply?.pushReply?.fate.isDelivered == true)
    }

    @Test func offlineATtlExpiresAndTheDefaultIsFourWeeks() throws {
        var s = scenario(.background)
        offline(&s)
        s.push(try Self.fcm(#"{"token":"tok:1","notification":{"title":"short"},"android":{"ttl":"60s"}}"#))
        s.push(try Self.fcm(#"{"token":"tok:1","notification":{"title":"default"}}"#))
        s.clock.advance(by: 61)
        #expect(s.send(.expireHeld(at: s.clock.wallNow)).writes == [.expire([1])])
        #expect(s.send(.expireHeld(at: s.clock.wallNow.addingTimeInterval(27 * 86_400))).writes.isEmpty)
        #expect(s.send(.expireHeld(at: s.clock.wallNow.addingTimeInterval(28 * 86_400))).writes == [.expire([2])])
    }

    @Test func storedNotificationsGoToTheTrayWhenTheDeviceConnects() throws {
        var s = scenario(.background)
        offline(&s)
        s.push(try Self.fcm(Self.notification))
        #expect(s.inbox.unread[Self.app, default: 0] == 0)
        let back = online(&s)
        #expect(back.writes.contains(.release([1])))
        #expect(s.inbox.unread[Self.app] == 1)
        #expect(s.inbox.banner?.message.callback == "system tray")
    }

    @Test func moreThanAHundredStoredEndInOnDeletedMessages() throws {
        var s = scenario(.foreground)
        offline(&s)
        for index in 1...101 { s.push(try Self.fcm(#"{"token":"tok:1","data":{"body":"m\#(index)"}}"#)) }
        #expect(s.inbox.held.count == 101)
        let back = online(&s)
        #expect(s.inbox.held.isEmpty)
        #expect(back.writes.contains(.delete(Array(1...101))))
        let standIn = try #require(Scenario.inserted(back))
        #expect(standIn.callback == "onDeletedMessages" && standIn.via == .fcm)
        #expect(!back.writes.contains { if case .release = $0 { true } else { false } })
        // A hundred is still delivered.
        var t = scenario(.foreground)
        offline(&t)
        for index in 1...100 { t.push(try Self.fcm(#"{"token":"tok:1","data":{"body":"m\#(index)"}}"#)) }
        #expect(online(&t).writes.contains(.release(Array(1...100))))
    }

    // MARK: iOS

    @Test func anIOSTokenGetsTheApnsBlockAsAnAPNsPush() throws {
        let message = #"""
        {"token":"tok:1","notification":{"title":"Sale","body":"Today"},"data":{"orderId":"7"},
         "apns":{"headers":{"apns-collapse-id":"sale","apns-priority":"5"},"payload":{"aps":{"badge":3,"sound":"default"}}}}
        """#
        let push = try Self.fcm(message, platform: .ios)
        #expect(push.channel == .apns && push.via == .fcm)
        #expect(push.title == "Sale" && push.body == "Today")
        #expect(push.badge == .set(3))
        #expect(push.collapseId == "sale" && push.priority == 5)
        #expect(push.headers == ["apns-collapse-id": "sale", "apns-priority": "5"])
        #expect(push.payload == message)
        #expect(push.fcm?.platform == .ios)
        // The payload's own alert comes first.
        let own = try Self.fcm(
            #"{"token":"t","notification":{"title":"n"},"apns":{"payload":{"aps":{"alert":"own","content-available":1}}}}"#, platform: .ios)
        #expect(own.body == "own" && own.title == nil)
        // A silent apns block is silent.
        let silent = try Self.fcm(
            #"{"token":"t","apns":{"headers":{"apns-push-type":"background"},"payload":{"aps":{"content-available":1}}}}"#, platform: .ios)
        #expect(silent.silent)
    }

    @Test func anIOSApnsPayloadAPNsRefusesIsRefused() throws {
        #expect(throws: WireError.self) {
            try Self.fcm(#"{"token":"t","apns":{"payload":{"aps":{"badge":"x"}}}}"#, platform: .ios)
        }
        #expect(throws: WireError.self) {
            try Self.fcm(#"{"token":"t","apns":{"payload":{"aps":"x"}}}"#, platform: .ios)
        }
    }
}
