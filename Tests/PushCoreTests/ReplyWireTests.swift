import Foundation
import PushCore
import PushJSON
import Testing

/// The one wire layer for replies: every kind of `Reply` against the exact bytes the wire has
/// always carried (key order included — scripts and the end-to-end tests compare lines).
@Suite struct ReplyWireTests {
    static let device = Device(token: "abcd01", app: "com.example.shop")
    static let key = ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "PEM")
    static let midnight = Date(timeIntervalSince1970: 1_764_547_200)

    /// Each reply kind and its line, as the reducer and the server wrote them before they were typed.
    static let goldens: [(Reply, String)] = [
        (.ok, #"{"ok":true}"#),
        (.push(PushReply(.delivered(id: 17), badge: 2)), #"{"ok":true,"id":17,"badge":2,"delivered":true}"#),
        (.push(PushReply(.replaced(id: 3), badge: 1)), #"{"ok":true,"id":3,"badge":1,"delivered":true,"replaced":true}"#),
        (.push(PushReply(.held(id: 4), badge: 0)), #"{"ok":true,"id":4,"delivered":false,"held":true,"badge":0}"#),
        (.push(PushReply(.storedOffline(id: 5), badge: 1)),
         #"{"ok":true,"id":5,"delivered":false,"stored":true,"reason":"device offline","badge":1}"#),
        (.push(PushReply(.dropped(.modeOff), badge: 1)), #"{"ok":true,"delivered":false,"reason":"push mode off","badge":1}"#),
        (.push(PushReply(.dropped(.expiresOffline), badge: 0)),
         #"{"ok":true,"delivered":false,"stored":false,"reason":"device offline and the push expires at once: not stored","badge":0}"#),
        (.push(PushReply(.delivered(id: 1), badge: 2, also: [
            FurtherPush(channel: .transparent, fate: .delivered(id: 2)),
            FurtherPush(channel: .transparent, fate: .held(id: 3)),
            FurtherPush(channel: .apns, fate: .replaced(id: 1)),
            FurtherPush(channel: .apns, fate: .storedOffline(id: 4)),
            FurtherPush(channel: .transparent, fate: .dropped(.modeOff)),
            FurtherPush(channel: .apns, fate: .dropped(.expiresOffline)),
        ])),
         #"{"ok":true,"id":1,"badge":2,"delivered":true,"also":[{"channel":"transparent","id":2,"delivered":true},"#
            + #"{"channel":"transparent","id":3,"delivered":false,"held":true},{"channel":"apns","id":1,"delivered":true},"#
            + #"{"channel":"apns","id":4,"delivered":false,"stored":true,"reason":"device offline"},"#
            + #"{"channel":"transparent","delivered":false,"reason":"push mode off"},"#
            + #"{"channel":"apns","delivered":false,"stored":false,"reason":"device offline and the push expires at once: not stored"}]}"#),
        (.push(PushReply(.held(id: 1), badge: 0, also: [FurtherPush(channel: .apns, fate: .delivered(id: 2))])),
         #"{"ok":true,"id":1,"delivered":false,"held":true,"badge":0,"also":[{"channel":"apns","id":2,"delivered":true}]}"#),
        (.badge(3), #"{"ok":true,"badge":3}"#),
        (.ledgers(Ledgers(badge: 4, serverBadge: 0, unread: 1_001)), #"{"ok":true,"badge":4,"serverBadge":0,"unread":1001}"#),
        (.policy(Ledgers(badge: 1, serverBadge: 2, unread: 3), .platform), #"{"ok":true,"badge":1,"serverBadge":2,"unread":3,"policy":"platform"}"#),
        (.mode(.off), #"{"ok":true,"mode":"off"}"#),
        (.appState(.terminated), #"{"ok":true,"state":"terminated"}"#),
        (.muted(app: "com.example.shop", until: nil), #"{"ok":true,"app":"com.example.shop","muted":true,"until":null}"#),
        (.muted(app: "a", until: midnight), #"{"ok":true,"app":"a","muted":true,"until":"2025-12-01T00:00:00.000Z"}"#),
        (.unmuted(app: "a"), #"{"ok":true,"app":"a","muted":false}"#),
        (.quiet(nil), #"{"ok":true,"quiet":"off"}"#),
        (.quiet(QuietHours(start: 22 * 60, end: 7 * 60)), #"{"ok":true,"quiet":"22:00-07:00"}"#),
        (.device(device),
         #"{"ok":true,"device":{"token":"abcd01","app":"com.example.shop","vendor":"apns","unregisteredAt":null,"state":"online"}}"#),
        (.devices([device], defaultOffline: true),
         #"{"ok":true,"devices":[{"token":"abcd01","app":"com.example.shop","vendor":"apns","unregisteredAt":null,"state":"online"}],"defaultDevice":"offline"}"#),
        (.devices([], defaultOffline: false), #"{"ok":true,"devices":[],"defaultDevice":"online"}"#),
        (.deviceState(token: nil, offline: true), #"{"ok":true,"token":null,"state":"offline"}"#),
        (.deviceState(token: "abcd01", offline: false), #"{"ok":true,"token":"abcd01","state":"online"}"#),
        (.key(key), #"{"ok":true,"key":{"id":"ABC123DEFG","vendor":"apns","team":"TEAM123456","appKey":null}}"#),
        (.keys([]), #"{"ok":true,"keys":[]}"#),
        (.messages([]), #"{"ok":true,"messages":[]}"#),
        (.version("1.2.3"), #"{"ok":true,"version":"1.2.3"}"#),
        (.state(InboxReport(badge: Badge(icon: 3, server: 5), unread: 2, held: 1, dropped: 4, banner: "订单", callback: nil)),
         #"{"ok":true,"badge":3,"serverBadge":5,"unread":2,"held":1,"dropped":4,"banner":"订单","callback":null}"#),
        (.gateway(address: "127.0.0.1:2197", ca: nil), #"{"ok":true,"address":"127.0.0.1:2197"}"#),
        (.gateway(address: "127.0.0.1:2197", ca: "/x/ca.pem"), #"{"ok":true,"address":"127.0.0.1:2197","ca":"/x/ca.pem"}"#),
        (.credentials(.apns(keyId: "K", team: "T", token: "a.b.c", registered: true), address: "127.0.0.1:2197"),
         #"{"ok":true,"vendor":"apns","registered":true,"address":"127.0.0.1:2197","keyId":"K","team":"T","token":"a.b.c"}"#),
        (.credentials(.jpush(appKey: "k", masterSecret: "s", registered: false), address: "[::1]:2197"),
         #"{"ok":true,"vendor":"jpush","registered":false,"address":"[::1]:2197","appKey":"k","masterSecret":"s"}"#),
        (.credentials(.getui(appId: "i", appKey: "k", masterSecret: "s", registered: true), address: "127.0.0.1:2197"),
         #"{"ok":true,"vendor":"getui","registered":true,"address":"127.0.0.1:2197","appId":"i","appKey":"k","masterSecret":"s"}"#),
        (.credentials(.fcm(serviceAccount: "{}", registered: false), address: "127.0.0.1:2197"),
         #"{"ok":true,"vendor":"fcm","registered":false,"address":"127.0.0.1:2197","serviceAccount":"{}"}"#),
        (.error("\"limit\" must be an integer from 1 to 1000; got 0"),
         #"{"ok":false,"error":"\"limit\" must be an integer from 1 to 1000; got 0"}"#),
    ]

    @Test("every reply kind is written as the wire has it", arguments: goldens)
    func golden(reply: Reply, line: String) {
        #expect(String(decoding: reply.wireLine, as: UTF8.self) == line + "\n")
        var buffer = Array("x".utf8)
        reply.writeLine(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x" + line + "\n")
    }

    @Test func aListedMessageIsItsWireObject() throws {
        let message = Message(
            id: 7, app: "com.example.shop", channel: .apns, title: "t", body: "b", receivedAt: Self.midnight,
            payload: #"{"aps":{"alert":"b"}}"#)
        #expect(Reply.messages([message]).wireObject == ["ok": true, "messages": [message.wireJSON]])
    }

    @Test func onlyAnErrorIsNotOK() {
        for (reply, _) in Self.goldens where reply != .error("\"limit\" must be an integer from 1 to 1000; got 0") {
            #expect(reply.isOK && reply.errorMessage == nil, "\(reply)")
        }
        #expect(!Reply.error("x").isOK && Reply.error("x").errorMessage == "x")
    }

    @Test func fatesSayWhatTheWireSays() {
        let fates: [PushFate] = [.delivered(id: 1), .replaced(id: 1), .held(id: 1), .storedOffline(id: 1), .dropped(.modeOff), .dropped(.expiresOffline)]
        #expect(fates.map(\.isDelivered) == [true, true, false, false, false, false])
        #expect(fates.map(\.isHeld) == [false, false, true, false, false, false])
        #expect(fates.map(\.isWaiting) == [false, false, true, true, false, false])
        #expect(fates.map(\.id) == [1, 1, 1, 1, nil, nil])
        #expect(fates.map(\.reason) == [nil, nil, nil, "device offline", "push mode off", PushDrop.expiresOffline.rawValue])
    }
}

/// The reducer's typed results for the requests whose reply it decides.
@Suite struct TypedResultTests {
    let shop = "com.example.shop"

    @Test func aPushGivesItsFateAndTheBadge() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        #expect(s.push(.apns()).typedReply == .push(PushReply(.delivered(id: 1), badge: 1)))
        s.setState(.terminated)
        #expect(s.push(.passThrough()).typedReply == .push(PushReply(.held(id: 2), badge: 0)))
        s.send(.setMode(.off))
        #expect(s.push(.apns()).typedReply == .push(PushReply(.dropped(.modeOff), badge: 1)))
    }

    @Test func requestsGiveTheirKinds() {
        var s = Scenario()
        #expect(s.send(.setMode(.on)).typedReply == .mode(.on))
        #expect(s.send(.setAppState(.background)).typedReply == .appState(.background))
        #expect(s.send(.badge(app: shop, change: .set(3), sync: nil)).typedReply == .ledgers(Ledgers(badge: 3, serverBadge: 3, unread: 0)))
        #expect(s.send(.setBadgePolicy(app: shop, .platform)).typedReply == .policy(Ledgers(badge: 3, serverBadge: 3, unread: 0), .platform))
        #expect(s.send(.readAll(app: nil)).typedReply == .badge(3))
        #expect(s.send(.mute(app: shop, until: nil)).typedReply == .muted(app: shop, until: nil))
        #expect(s.send(.unmute(app: shop)).typedReply == .unmuted(app: shop))
        #expect(s.send(.setQuiet(nil)).typedReply == .quiet(nil))
        #expect(s.send(.reset(app: nil, all: false)).typedReply == .badge(0))
        #expect(s.send(.device(.setOffline(token: nil, true), at: s.clock.wallNow)).typedReply == .deviceState(token: nil, offline: true))
        #expect(s.send(.key(.list)).typedReply == .keys([]))
    }

    /// The unread count moves as one `.unread` write per app and event, with the final count.
    @Test func unreadMovesAsAnEffect() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let one = try #require(Scenario.inserted(s.push(.apns())))
        let two = try #require(Scenario.inserted(s.push(.apns())))
        #expect(s.push(.passThrough()).writes.contains(.unread(app: "com.example.news", count: 1)))
        let read = s.send(.read([one, two]))
        #expect(read.writes.filter { if case .unread = $0 { true } else { false } } == [.unread(app: shop, count: 0)])
        // Nothing unread moved: no unread write.
        var stored = one
        stored.read = true
        #expect(!s.send(.read([stored])).writes.contains { if case .unread = $0 { true } else { false } })
        // Several apps: one write each, by app name.
        s.push(.apns())
        let all = s.send(.readAll(app: nil))
        #expect(all.writes.filter { if case .unread = $0 { true } else { false } }
            == [.unread(app: "com.example.news", count: 0), .unread(app: shop, count: 0)])
    }
}

/// The state report is read back by the live player and `expect` with the decoder beside its
/// encoder: what one writes the other reads.
@Suite struct InboxReportWireTests {
    @Test(arguments: [
        InboxReport(badge: Badge(icon: 3, server: 5), unread: 2, held: 1, dropped: 4, banner: "订单", callback: nil),
        InboxReport(badge: Badge(), unread: 0, held: 0, dropped: 0, banner: nil, callback: "launchOptions[UIApplicationLaunchOptionsRemoteNotificationKey]"),
    ])
    func roundTrips(_ report: InboxReport) throws {
        let line = Reply.state(report).wireObject
        let parsed = try #require(try JSON.parse(Array(JSON.object(line).compactText.utf8)).objectValue)
        #expect(InboxReport(wire: parsed) == report)
    }

    @Test func aRefusalIsNoReport() {
        #expect(InboxReport(wire: Reply.error("no").wireObject) == nil)
        #expect(InboxReport(wire: Reply.ledgers(Ledgers()).wireObject) == nil)
    }
}
