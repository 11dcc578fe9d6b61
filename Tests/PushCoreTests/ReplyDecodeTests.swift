import Foundation
import PushCore
import PushJSON
import Testing

/// `Reply(wire:)`, the wire layer's reader: every reply a server writes reads back as the value
/// it was written from, and a line that is no reply is a clear error.
@Suite struct ReplyDecodeTests {
    static let message = Message(
        id: 7, app: "com.example.shop", channel: .apns, title: "t", body: "b", receivedAt: ReplyWireTests.midnight,
        payload: #"{"aps":{"alert":"b"}}"#)
    static let taggedDevice = Device(
        token: "ffee", app: "appkey", vendor: .jpush, unregisteredAt: ReplyWireTests.midnight, offline: true,
        tags: ["vip", "beta"], alias: "ann")
    static let keyWithoutSecret = ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "")

    /// Every golden reply, and the kinds whose goldens hold no element (a page, keys, a tagged device).
    static let replies: [Reply] = ReplyWireTests.goldens.map(\.0).map(withoutSecrets) + [
        .messages([message]),
        .keys([keyWithoutSecret, ProviderKey(id: "appid", vendor: .getui, appKey: "k", secret: "")]),
        .device(taggedDevice),
        .devices([ReplyWireTests.device, taggedDevice], defaultOffline: false),
        .push(PushReply(.dropped(.modeOff), badge: 0, also: [FurtherPush(channel: .apns, fate: .dropped(.modeOff))])),
        .activityPush(ActivityPushReply(activity: "activity-1", accepted: true, pushToken: String(repeating: "ab", count: 32))),
        .activityPush(ActivityPushReply(activity: "activity-1", accepted: false, why: "its timestamp is older than the last applied")),
        .activities([], unmatched: [], at: ReplyWireTests.midnight),
        .activities([activity], unmatched: [
            ActivityUpdate(at: ReplyWireTests.midnight, token: "ffee", app: "com.example.food", event: "update", timestamp: 1_764_547_300,
                           contentState: ["status": "late"], accepted: false, why: "no activity has this push token"),
        ], at: ReplyWireTests.midnight.addingTimeInterval(60)),
        .requests([RequestLogTests.record(seq: 1), RequestLogTests.record(seq: 2, vendor: .getui, status: 429)]),
        .fault(FaultTests.armed),
        .faults([FaultTests.armed, ArmedFault(id: 2, spec: FaultSpec(action: .close, bound: .rate(0.25)), armedAt: ReplyWireTests.midnight, fired: 3)]),
        .faultsCleared(2),
        .push(PushReply(.dropped(.repeated), badge: 3)),
        .forwarded(id: "0b6c5a1e-8f0e-4c1a-9a57-3c0e0d6f4b21", topic: "pushdeck/v1/devices/abcd/push"),
        .unavailable("the team bus is not connected (bus reconnecting (2))"),
        .bus(JSONObject([("ok", true), ("bus", "bus connected"), ("instances", .object(JSONObject([("b", .object(JSONObject([("online", true)])))])))])),
        .channels([
            BroadcastChannel(id: "cHVzaGRlY2stY2hhbm5lbC0x", app: "com.example.food", storagePolicy: 1, createdAt: ReplyWireTests.midnight),
            BroadcastChannel(id: "cHVzaGRlY2stY2hhbm5lbC0y", app: "com.example.food", storagePolicy: 0, createdAt: ReplyWireTests.midnight),
        ]),
        .channels([]),
        .broadcast(BroadcastReply(channel: "cHVzaGRlY2stY2hhbm5lbC0x", reached: 2, stored: 1)),
        .clock(elapsed: nil),
        .clock(elapsed: 3600.25),
    ]

    /// A started activity with an applied and a discarded update.
    static let activity = Activity(
        id: "activity-1", app: "com.example.food", attributesType: "DeliveryAttributes", attributes: ["order": "A-17"],
        contentState: ["status": "preparing", "eta": 25], pushToken: String(repeating: "1a", count: 32),
        startToken: String(repeating: "5a", count: 32), channel: "dGVzdA==", startedAt: ReplyWireTests.midnight,
        history: [
            ActivityUpdate(at: ReplyWireTests.midnight, token: String(repeating: "5a", count: 32), app: "com.example.food", event: "start",
                           timestamp: 1_764_547_200, contentState: ["status": "preparing", "eta": 25], accepted: true),
            ActivityUpdate(at: ReplyWireTests.midnight, token: String(repeating: "1a", count: 32), app: "com.example.food", event: "update",
                           timestamp: 1_764_547_100, contentState: ["status": "old"], accepted: false, why: "its timestamp is older than the last applied"),
        ])

    /// The wire never carries a key's secret: it reads back empty. A further message's entry says
    /// only `delivered` (`FurtherPush.wireJSON`), so one that replaced reads back as delivered.
    static func withoutSecrets(_ reply: Reply) -> Reply {
        switch reply {
        case .push(var push):
            push.also = push.also.map { further in
                guard case .replaced(let id) = further.fate else { return further }
                return FurtherPush(channel: further.channel, fate: .delivered(id: id))
            }
            return .push(push)
        case .key(var key):
            key.secret = ""
            return .key(key)
        case .keys(let keys):
            return .keys(keys.map { key in
                var key = key
                key.secret = ""
                return key
            })
        default:
            return reply
        }
    }

    @Test("a reply read off its wire line is the reply written", arguments: replies)
    func roundTrip(reply: Reply) throws {
        let line = try #require(try JSON.parse(reply.wireLine.dropLast(), maxDepth: JSONParser.replyMaxDepth).objectValue)
        #expect(try Reply(wire: line) == reply)
    }

    /// The round trip covers every kind: a new kind without a case here does not compile.
    @Test func everyKindIsRoundTripped() {
        func kind(_ reply: Reply) -> String {
            switch reply {
            case .ok: "ok"
            case .push: "push"
            case .badge: "badge"
            case .ledgers: "ledgers"
            case .policy: "policy"
            case .mode: "mode"
            case .appState: "appState"
            case .muted: "muted"
            case .unmuted: "unmuted"
            case .quiet: "quiet"
            case .device: "device"
            case .devices: "devices"
            case .deviceState: "deviceState"
            case .key: "key"
            case .keys: "keys"
            case .messages: "messages"
            case .version: "version"
            case .gateway: "gateway"
            case .credentials: "credentials"
            case .state: "state"
            case .activityPush: "activityPush"
            case .activities: "activities"
            case .requests: "requests"
            case .fault: "fault"
            case .faults: "faults"
            case .faultsCleared: "faultsCleared"
            case .channels: "channels"
            case .broadcast: "broadcast"
            case .error: "error"
            case .forwarded: "forwarded"
            case .unavailable: "unavailable"
            case .bus: "bus"
            case .clock: "clock"
            }
        }
        #expect(Set(Self.replies.map(kind)).count == 33)
    }

    @Test("a line that is no reply is a clear error", arguments: [
        (#"{"badge":1}"#, #"a reply needs "ok": true or false"#),
        (#"{"ok":false}"#, #"an error reply needs "error": a string"#),
        (#"{"ok":true,"frobs":1}"#, "not a reply pushdeck writes: ok, frobs"),
        (#"{"ok":true,"badge":"1"}"#, #"reply field "badge" must be an integer"#),
        (#"{"ok":true,"badge":1,"serverBadge":1}"#, #"reply field "unread" must be an integer"#),
        (#"{"ok":true,"vendor":"hms","registered":true,"address":"a"}"#, #"a credentials reply's "vendor" must be one of apns, jpush, getui, fcm"#),
        (#"{"ok":true,"delivered":false,"reason":"sunspots","badge":0}"#, #"unknown "reason" of an undelivered push"#),
        (#"{"ok":true,"delivered":true,"badge":0}"#, #"a push kept as a message needs its "id""#),
    ])
    func notAReply(line: String, error: String) throws {
        let object = try #require(try JSON.parse(Array(line.utf8), maxDepth: 8).objectValue)
        #expect(throws: WireError(error)) { try Reply(wire: object) }
    }
}
