import Foundation
import PushCore
import Testing

/// Platform fidelity through the reducer on the manual clock: what a device would do with a push.
@Suite("Platform fidelity in the inbox")
struct FidelityInboxTests {
    static let jpushBoth = #"{"platform":"ios","audience":"all","notification":{"ios":{"alert":"note","badge":"+1"}},"message":{"msg_content":"in-app"}}"#

    private func decode(_ text: String, app: String = "com.example.shop") throws -> Push {
        try PushDecoder().decode(PushRequest(payloadText: text, app: app))
    }

    @Test func aJPushBodyWithBothBecomesTwoMessagesAndOneReply() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let effects = s.push(try decode(Self.jpushBoth))
        let inserted = effects.writes.compactMap { if case .insert(let message) = $0 { message } else { nil } }
        #expect(inserted.map(\.channel) == [.apns, .transparent])
        #expect(inserted.map(\.body) == ["note", "in-app"])
        #expect(effects.topics.filter { $0 == .remoteReceived || $0 == .messageReceived } == [.remoteReceived, .messageReceived])
        let reply = try #require(effects.reply)
        #expect(reply["id"] == 1)
        #expect(reply["delivered"] == true)
        #expect(reply["also"] == [["channel": "transparent", "id": 2, "delivered": true]])
        // "+1" moved JPush's server badge to 1 and the icon took it; the in-app message then
        // counted +1 as the Getui and JPush sample apps' badge code does (policy `app`).
        #expect(reply["badge"] == 2)
        #expect(s.inbox.unread["com.example.shop"] == 2)
    }

    @Test func whileTerminatedTheNotificationIsDeliveredAndTheMessageHeld() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        let reply = try #require(s.push(try decode(Self.jpushBoth)).reply)
        #expect(reply["delivered"] == true)
        #expect(reply["also"] == [["channel": "transparent", "id": 2, "delivered": false, "held": true]])
        #expect(s.inbox.held.map(\.body) == ["in-app"])
        // Released in the foreground, the held message counts +1 (its own part, not the "+1").
        s.setState(.foreground)
        #expect(s.inbox.badge(of: "com.example.shop").icon == 2)
    }
}

/// Badge policies (the app's code moves the icon, or only pushes do) and the SDK badge calls.
@Suite("Badge policies and SDK calls")
struct BadgePolicyTests {
    let shop = "com.example.shop"

    private func platformScenario() -> Scenario {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.send(.setBadgePolicy(app: shop, .platform))
        return s
    }

    @Test func theDefaultPolicyIsTheSampleAppsRule() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        #expect(s.inbox.badgePolicy(of: shop) == .app)
        s.push(.apns())
        s.push(.passThrough(app: shop))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 2, server: 2))
    }

    @Test func underPlatformOnlyAPushThatSaysSoMovesTheIcon() throws {
        var s = platformScenario()
        let plain = s.push(.apns())
        #expect(s.inbox.badge(of: shop) == Badge())
        #expect(plain.reply?["badge"] == 0)
        #expect(plain.topics.contains(.badgeChanged) == false)
        s.push(.apns(badge: .set(4)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 4, server: 0))
        s.push(.apns(badge: .autoAdd(1)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 1, server: 1))
        // Pass-through never touches it, even with an autoBadge.
        s.push(.passThrough(app: shop, badge: .autoAdd(5)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 1, server: 1))
        #expect(s.inbox.unread[shop] == 4)
    }

    @Test func underPlatformReadingLeavesTheIcon() throws {
        var s = platformScenario()
        let message = try #require(Scenario.inserted(s.push(.apns(badge: .set(3)))))
        let read = s.send(.read([message]))
        #expect(s.inbox.unread[shop] == 0)
        #expect(s.inbox.badge(of: shop).icon == 3)
        #expect(read.reply?["badge"] == 3)
        s.send(.readAll(app: nil))
        #expect(s.inbox.badge(of: shop).icon == 3)
    }

    @Test func thePolicyIsAStoredSetting() {
        var s = Scenario()
        let effects = s.send(.setBadgePolicy(app: shop, .platform))
        #expect(effects.writes == [.settings(InboxSettings(badgePolicies: [shop: .platform]))])
        #expect(effects.reply?["policy"] == "platform")
        let back = s.send(.setBadgePolicy(app: shop, .app))
        #expect(back.writes == [.settings(InboxSettings())])
    }

    @Test("JPush setBadge moves only JPush's server badge, and the drift shows the fix")
    func sdkCallsMoveTheirOwnLedger() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        s.push(.apns(badge: .set(6)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 6, server: 6))
        let jpush = s.send(.sdkBadge(app: shop, try SDKBadgeCall(sdk: .jpush, call: "setBadge", value: 0)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 6, server: 0))
        #expect(jpush.reply?["badge"] == 6 && jpush.reply?["serverBadge"] == 0)
        #expect(jpush.topics == [.badgeChanged])
        #expect(s.inbox.driftFix(of: shop) == "icon 6, server 0: [JPUSHService setBadge:6] or [GeTuiSdk setBadge:6]")
        s.send(.sdkBadge(app: shop, try SDKBadgeCall(sdk: .getui, call: "setLocalBadge", value: 2)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 2, server: 0))
        s.send(.sdkBadge(app: shop, try SDKBadgeCall(sdk: .getui, call: "setBadge", value: 2)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 2, server: 2))
        #expect(s.inbox.driftFix(of: shop) == nil)
        s.send(.sdkBadge(app: shop, try SDKBadgeCall(sdk: .jpush, call: "resetBadge", value: nil)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 2, server: 0))
        s.send(.sdkBadge(app: shop, try SDKBadgeCall(sdk: .ios, call: "setApplicationIconBadgeNumber", value: 0)))
        #expect(s.inbox.badge(of: shop) == Badge(icon: 0, server: 0))
    }

    @Test func unknownSDKCallsAreRefusedSayingWhatThereIs() {
        #expect(throws: WireError("jpush has no badge call 'setLocalBadge'; it has setBadge, resetBadge")) {
            try SDKBadgeCall(sdk: .jpush, call: "setLocalBadge", value: 1)
        }
        #expect(throws: WireError("getui setBadge needs a \"value\": the badge number, an integer ≥ 0")) {
            try SDKBadgeCall(sdk: .getui, call: "setBadge", value: nil)
        }
    }

    @Test func badgeVerbsOnTheWire() throws {
        #expect(try Request.decode(frame: Array(#"{"op":"badge","app":"a","policy":"platform"}"#.utf8)) == .badgePolicy(app: "a", .platform))
        #expect(try Request.decode(frame: Array(#"{"op":"badge","policy":true}"#.utf8)) == .badgePolicy(app: nil, nil))
        #expect(try Request.decode(frame: Array(#"{"op":"badge","sdk":"getui","call":"setLocalBadge","value":3}"#.utf8))
            == .sdkBadge(app: nil, try SDKBadgeCall(sdk: .getui, call: "setLocalBadge", value: 3)))
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"badge","policy":"device"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"badge","policy":"app","set":1}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"badge","call":"setBadge"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"badge","sdk":"jpush"}"#.utf8)) }
    }
}

/// Collapse and replace, silent pushes, interruption levels.
@Suite("Collapse, silent and interruption levels")
struct CollapseSilentTests {
    let shop = "com.example.shop"

    private func push(_ text: String, collapseId: String? = nil, pushType: String? = nil, priority: Int? = nil) throws -> Push {
        try PushDecoder().decode(PushRequest(payloadText: text, app: shop, collapseId: collapseId, pushType: pushType, priority: priority))
    }

    @Test func aPushWithTheSameCollapseIdReplacesInPlaceAndCountsOnce() throws {
        var s = Scenario()
        let first = try #require(Scenario.inserted(s.push(try push(#"{"aps":{"alert":"score 1:0"}}"#, collapseId: "match"))))
        #expect(first.collapseId == "match")
        s.clock.advance(by: 1)
        var second = try push(#"{"aps":{"alert":"score 2:0"}}"#, collapseId: "match")
        second.replacing = ReplacedMessage(first)
        let effects = s.push(second)
        let replaced = try #require(effects.writes.compactMap { if case .replace(let message) = $0 { message } else { nil } }.first)
        #expect(replaced.id == first.id && replaced.body == "score 2:0" && !replaced.read)
        // Unread before and after: the count does not move, so no unread write.
        #expect(!effects.writes.contains { if case .unread = $0 { true } else { false } })
        #expect(effects.writes.contains { if case .insert = $0 { true } else { false } } == false)
        #expect(effects.reply?["id"] == 1 && effects.reply?["replaced"] == true && effects.reply?["badge"] == 1)
        #expect(s.inbox.unread[shop] == 1 && s.inbox.badge(of: shop).icon == 1)
        #expect(s.inbox.nextId == 2)
        // The banner showing the first shows the second, counted once.
        #expect(s.inbox.banner?.message.body == "score 2:0" && s.inbox.banner?.count == 1)
    }

    @Test func replacingAReadMessageMakesItUnreadAndCountsIt() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        var first = try #require(Scenario.inserted(s.push(try push(#"{"aps":{"alert":"a"}}"#, collapseId: "c"))))
        s.send(.read([first]))
        first.read = true
        var second = try push(#"{"aps":{"alert":"b"}}"#, collapseId: "c")
        second.replacing = ReplacedMessage(first)
        let effects = s.push(second)
        let replaced = effects.writes.compactMap { if case .replace(let message) = $0 { message } else { nil } }
        #expect(replaced.count == 1 && replaced.first?.read == false && replaced.first?.body == "b")
        #expect(effects.writes.contains(.unread(app: shop, count: 1)))
        #expect(s.inbox.unread[shop] == 1 && s.inbox.badge(of: shop).icon == 1)
    }

    @Test func aSilentReplacementOfAnUnreadMessageTakesItOffLikeARead() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let first = try #require(Scenario.inserted(s.push(try push(#"{"aps":{"alert":"a"}}"#, collapseId: "c"))))
        #expect(s.inbox.badge(of: shop).icon == 1)
        var silent = try push(#"{"aps":{"content-available":1}}"#, collapseId: "c")
        silent.replacing = ReplacedMessage(first)
        let effects = s.push(silent)
        #expect(effects.reply?["badge"] == 0 && effects.reply?["replaced"] == true)
        #expect(s.inbox.totalUnread == 0 && s.inbox.badge(of: shop) == Badge())
        #expect(effects.writes.contains(.unread(app: shop, count: 0)))
    }

    @Test func anotherAppOrIdDoesNotReplace() throws {
        var s = Scenario()
        let first = try #require(Scenario.inserted(s.push(try push(#"{"aps":{"alert":"a"}}"#, collapseId: "c"))))
        var other = try push(#"{"aps":{"alert":"b"}}"#, collapseId: "d")
        other.replacing = ReplacedMessage(first)
        #expect(Scenario.inserted(s.push(other))?.id == 2)
        #expect(s.inbox.unread[shop] == 2)
    }

    @Test func jpushApnsCollapseIdIsTheCollapseId() throws {
        let jpush = try push(#"{"notification":{"ios":{"alert":"x"}},"options":{"apns_collapse_id":"j1","time_to_live":60}}"#)
        #expect(jpush.collapseId == "j1")
        #expect(try push(#"{"notification":{"ios":{"alert":"x"}},"options":{"apns_collapse_id":"j1"}}"#, collapseId: "req").collapseId == "req")
    }

    @Test func aSilentPushIsListedReadWithoutBannerOrBadgeUnderEitherPolicy() throws {
        for policy in BadgePolicy.allCases {
            var s = Scenario()
            s.send(.setBadgePolicy(app: shop, policy))
            let silent = try push(#"{"aps":{"content-available":1}}"#)
            #expect(silent.silent)
            let effects = s.push(silent)
            let message = try #require(Scenario.inserted(effects))
            #expect(message.silent && message.read)
            #expect(s.inbox.banner == nil)
            #expect(s.inbox.badge(of: shop) == Badge())
            #expect(s.inbox.totalUnread == 0)
            #expect(effects.topics.contains(.remoteReceived))
            // …unless it sets the badge.
            s.push(try push(#"{"aps":{"content-available":1,"badge":3}}"#))
            #expect(s.inbox.badge(of: shop).icon == 3)
            #expect(s.inbox.banner == nil)
        }
    }

    @Test func pushTypeBackgroundIsSilentAndLowPriorityNeverShowsABanner() throws {
        var s = Scenario()
        let background = try push(#"{"aps":{"alert":"hidden"}}"#, pushType: "background", priority: 5)
        #expect(background.silent && background.priority == 5)
        s.push(background)
        #expect(s.inbox.banner == nil)
        let lowPrioritySilent = try push(#"{"aps":{"content-available":1}}"#, priority: 1)
        s.push(lowPrioritySilent)
        #expect(s.inbox.banner == nil)
    }

    @Test func contentAvailableWithAnAlertIsNotSilent() throws {
        #expect(try !push(#"{"aps":{"content-available":1,"alert":"shown"}}"#).silent)
    }

    @Test func passiveNeverShowsABannerActiveDoes() throws {
        var s = Scenario()
        let passive = try push(#"{"aps":{"alert":"quiet","interruption-level":"passive"}}"#)
        #expect(passive.interruption == .passive)
        s.push(passive)
        #expect(s.inbox.banner == nil)
        #expect(s.inbox.unread[shop] == 1)
        s.push(try push(#"{"aps":{"alert":"loud","interruption-level":"active"}}"#))
        #expect(s.inbox.banner?.message.body == "loud")
    }

    @Test func silentMessagesGetTheBackgroundFetchCallback() throws {
        let inbox = Inbox()
        let message = Message(id: 1, app: shop, channel: .apns, receivedAt: Date(), payload: "{}", silent: true)
        #expect(inbox.callback(for: message) == "application:didReceiveRemoteNotification:fetchCompletionHandler:")
    }
}

/// Mute and quiet hours on the manual clock.
@Suite("Mute and quiet hours")
struct MuteQuietTests {
    let shop = "com.example.shop"

    private func push(_ level: String? = nil, app: String = "com.example.shop") throws -> Push {
        let extra = level.map { #","interruption-level":"\#($0)""# } ?? ""
        return try PushDecoder().decode(PushRequest(payloadText: #"{"aps":{"alert":"hi"\#(extra)}}"#, app: app))
    }

    /// The clock's wall time as minutes after midnight UTC.
    private func minutes(_ s: Scenario) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.hour, .minute], from: s.clock.wallNow)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    @Test func aMutedAppIsListedWithoutABannerUntilTheMuteEnds() throws {
        var s = Scenario()
        s.send(.mute(app: shop, until: s.clock.wallNow.addingTimeInterval(3600)))
        s.push(try push())
        #expect(s.inbox.banner == nil)
        #expect(s.inbox.unread[shop] == 1 && s.inbox.badge(of: shop).icon == 1)
        // Another app is not muted.
        s.push(try push(app: "com.example.news"))
        #expect(s.inbox.banner?.message.app == "com.example.news")
        s.send(.dismissBanner)
        s.clock.advance(by: 1)
        s.send(.tick)
        // time-sensitive breaks through.
        s.push(try push("time-sensitive"))
        #expect(s.inbox.banner?.message.app == shop)
        s.send(.dismissBanner)
        s.clock.advance(by: 3600)
        s.send(.tick)
        s.push(try push())
        #expect(s.inbox.banner?.message.app == shop, "the mute ended an hour later")
    }

    @Test func unmuteEndsAnEndlessMuteAndBothAreStored() throws {
        var s = Scenario()
        let muted = s.send(.mute(app: shop, until: nil))
        #expect(muted.writes == [.settings(InboxSettings(muted: [shop: Date?.none]))])
        #expect(muted.reply?["until"] == .null)
        s.push(try push())
        #expect(s.inbox.banner == nil)
        let unmuted = s.send(.unmute(app: shop))
        #expect(unmuted.writes == [.settings(InboxSettings())])
        s.push(try push())
        #expect(s.inbox.banner != nil)
    }

    @Test func quietHoursAcrossMidnightHoldBannersButNotTimeSensitiveOrCritical() throws {
        var s = Scenario()
        s.inbox.timeZone = TimeZone(identifier: "UTC") ?? .current
        let now = minutes(s)
        // From ten minutes ago until 23 hours later: across midnight, now inside.
        let quiet = QuietHours(start: (now + 1430) % 1440, end: (now + 60 * 23) % 1440)
        s.send(.setQuiet(quiet))
        s.push(try push())
        #expect(s.inbox.banner == nil)
        #expect(s.inbox.unread[shop] == 1)
        s.push(try push("critical"))
        #expect(s.inbox.banner != nil)
        s.send(.dismissBanner)
        s.clock.advance(by: 1)
        s.send(.tick)
        // Past the end of the quiet hours the banner shows again.
        s.clock.advance(by: 3600 * 23)
        s.push(try push())
        #expect(s.inbox.banner != nil)
    }

    @Test func pushModeOffDropsEvenCritical() throws {
        var s = Scenario()
        s.send(.setMode(.off))
        let reply = s.push(try push("critical")).reply
        #expect(reply?["delivered"] == false)
        #expect(s.inbox.totalUnread == 0)
    }

    @Test func quietHoursParse() {
        #expect(QuietHours("22:00-07:00") == QuietHours(start: 1320, end: 420))
        #expect(QuietHours("22:00-07:00")?.description == "22:00-07:00")
        for bad in ["22-07", "24:00-07:00", "22:00-22:00", "7:00-08:00", "22:00", "aa:bb-cc:dd"] {
            #expect(QuietHours(bad) == nil, "\(bad)")
        }
        let day = QuietHours(start: 9 * 60, end: 17 * 60)
        let utc = TimeZone(identifier: "UTC") ?? .current
        #expect(day.contains(Date(timeIntervalSince1970: 12 * 3600), in: utc))
        #expect(!day.contains(Date(timeIntervalSince1970: 17 * 3600), in: utc))
    }

    @Test func muteAndQuietOnTheWire() throws {
        #expect(try Request.decode(frame: Array(#"{"op":"mute","app":"a","for":3600}"#.utf8)) == .mute(app: "a", seconds: 3600))
        #expect(try Request.decode(frame: Array(#"{"op":"unmute","app":"a"}"#.utf8)) == .unmute(app: "a"))
        #expect(try Request.decode(frame: Array(#"{"op":"quiet"}"#.utf8)) == .quiet(nil))
        #expect(try Request.decode(frame: Array(#"{"op":"quiet","set":"off"}"#.utf8)) == .quiet(.some(nil)))
        #expect(try Request.decode(frame: Array(#"{"op":"quiet","set":"22:00-07:00"}"#.utf8)) == .quiet(.some(QuietHours(start: 1320, end: 420))))
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"quiet","set":"late"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"mute"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"mute","app":"a","for":0}"#.utf8)) }
    }
}

/// Held pass-through messages expire per their time to live.
@Suite("Expiry of held messages")
struct ExpiryTests {
    let news = "com.example.news"

    private func held(_ text: String) throws -> Push {
        try PushDecoder().decode(PushRequest(payloadText: text, app: news))
    }

    /// Decoded once, with the push (and kept on its message): nil when the payload names none.
    @Test func timeToLiveComesFromEachVendorsField() throws {
        #expect(try held(#"{"message":{"msg_content":"x"},"options":{"time_to_live":60}}"#).timeToLive == 60)
        #expect(try held(#"{"push_message":{"transmission":"x"},"settings":{"ttl":7200000}}"#).timeToLive == 7200)
        // Getui's -1: no offline keeping at all.
        #expect(try held(#"{"push_message":{"transmission":"x"},"settings":{"ttl":-1}}"#).timeToLive == 0)
        #expect(try held(#"{"payload":"x","offLine":true,"offLineExpireTime":30000}"#).timeToLive == 30)
        #expect(try held(#"{"payload":"x"}"#).timeToLive == nil)
        #expect(try held(#"{"payload":"x","options":[1],"offLineExpireTime":1000}"#).timeToLive == 1)
        let both = try held(#"{"notification":{"alert":"a"},"message":{"msg_content":"m"},"options":{"time_to_live":5}}"#)
        #expect(both.timeToLive == 5 && both.also.first?.timeToLive == 5)
    }

    @Test func aHeldMessagePastItsTTLExpiresAndIsNeverDelivered() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        s.push(try held(#"{"message":{"msg_content":"short"},"options":{"time_to_live":60}}"#))
        s.push(try held(#"{"message":{"msg_content":"a day"}}"#))
        #expect(s.inbox.held.count == 2)
        s.clock.advance(by: 61)
        let expired = s.send(.expireHeld(at: s.clock.wallNow))
        #expect(expired.writes == [.expire([1])])
        #expect(s.inbox.held.map(\.id) == [2])
        let released = s.send(.setAppState(.foreground))
        #expect(released.writes.contains(.release([2])))
        #expect(s.inbox.unread[news] == 1)
        #expect(s.inbox.banner?.message.body == "a day")
        // A day later the other one would have expired too.
        #expect(s.send(.expireHeld(at: s.clock.wallNow.addingTimeInterval(86_400))).writes.isEmpty)
    }

    /// A held message as the store loads it: what it expires by and how it moves the badge are
    /// the message's own (decoded once, with its push), not its payload's — the payload here
    /// names neither, and is never decoded again.
    @Test func aHeldMessageExpiresAndMovesTheBadgeByWhatItKeeps() {
        let payload = #"{"payload":"x"}"#
        var short = Message(id: 1, app: news, channel: .transparent, held: true, receivedAt: Date(timeIntervalSince1970: 0), payload: payload)
        short.timeToLive = 10
        var counted = Message(id: 2, app: news, channel: .transparent, held: true, receivedAt: Date(timeIntervalSince1970: 0), payload: payload)
        counted.badgeDirective = .autoSet(5)
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated), held: [short, counted]))
        #expect(s.send(.expireHeld(at: Date(timeIntervalSince1970: 11))).writes == [.expire([1])])
        s.setState(.foreground)
        #expect(s.inbox.held.isEmpty)
        #expect(s.inbox.badge(of: news) == Badge(icon: 5, server: 5))
    }

    @Test func withinItsTTLItIsDelivered() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        s.push(try held(#"{"message":{"msg_content":"short"},"options":{"time_to_live":60}}"#))
        s.clock.advance(by: 59)
        #expect(s.send(.expireHeld(at: s.clock.wallNow)).writes.isEmpty)
        s.setState(.foreground)
        #expect(s.inbox.unread[news] == 1)
    }
}

/// The banner's timer pauses while the pointer is over it or it has the focus.
@Suite("Banner pause")
struct BannerPauseTests {
    /// A foreground inbox whose banner entered at the clock's 0 (5 s stay, in at 0.25 s).
    private func entered() -> Scenario {
        var s = Scenario()
        s.push(.apns())
        return s
    }

    @Test func focusHoldsTheBannerAndReleasingGivesBackWhatWasLeftOfItsStay() {
        var s = entered()
        s.clock.advance(by: 2.25)  // 2 s of the 5 s stay have run
        s.send(.pauseBanner(.focus, true))
        #expect(s.inbox.nextDeadline(after: s.clock.now) == nil, "nothing to wake for while held")
        s.clock.advance(by: 60)
        s.send(.tick)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
        #expect(s.inbox.banner?.pauses == [.focus])
        s.send(.pauseBanner(.focus, false))
        s.clock.advance(by: 2.9)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
        s.clock.advance(by: 0.1)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .leaving(fraction: 1))
        s.clock.advance(by: 0.25)
        s.send(.tick)
        #expect(s.inbox.banner == nil)
    }

    @Test func pointerAndFocusBothHoldIt() {
        var s = entered()
        s.clock.advance(by: 1)
        s.send(.pauseBanner(.pointer, true))
        s.send(.pauseBanner(.focus, true))
        s.clock.advance(by: 10)
        s.send(.pauseBanner(.pointer, false))
        s.clock.advance(by: 10)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown, "still focused")
        s.send(.pauseBanner(.focus, false))
        s.clock.advance(by: 4.24)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
        s.clock.advance(by: 0.02)
        #expect(s.inbox.bannerPhase(at: s.clock.now) != .shown)
    }

    @Test func pausedWhileEnteringItFinishesSlidingInThenStays() {
        var s = entered()
        s.clock.advance(by: 0.1)
        s.send(.pauseBanner(.pointer, true))
        s.clock.advance(by: 0.1)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .entering(fraction: 0.8))
        s.clock.advance(by: 30)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
        s.send(.pauseBanner(.pointer, false))
        // The whole 5 s stay is still ahead.
        s.clock.advance(by: 4.99)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
    }

    @Test func escStillSendsAPausedBannerUpAndAGoneBannerIgnoresPauses() {
        var s = entered()
        s.clock.advance(by: 1)
        s.send(.pauseBanner(.focus, true))
        s.send(.dismissBanner)
        s.clock.advance(by: 0.25)
        s.send(.tick)
        #expect(s.inbox.banner == nil)
        s.send(.pauseBanner(.focus, true))
        #expect(s.inbox.banner == nil)
    }

    @Test func aNewArrivalWhilePausedStaysPaused() {
        var s = entered()
        s.clock.advance(by: 1)
        s.send(.pauseBanner(.focus, true))
        s.clock.advance(by: 20)
        s.push(.apns(body: "second"))
        #expect(s.inbox.banner?.message.body == "second" && s.inbox.banner?.count == 2)
        s.clock.advance(by: 20)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
        s.send(.pauseBanner(.focus, false))
        s.clock.advance(by: 4.99)
        #expect(s.inbox.bannerPhase(at: s.clock.now) == .shown)
    }
}
