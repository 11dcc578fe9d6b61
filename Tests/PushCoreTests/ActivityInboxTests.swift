import Foundation
import PushCore
import PushJSON
import Testing

/// Live Activities in the inbox: what the device does with each `liveactivity` push (applied, or
/// discarded with why), the lifetimes on the clock, and the `activity` op's list.
@Suite struct ActivityInboxTests {
    static let app = "com.example.food"
    static let startToken = String(repeating: "5a", count: 32)
    static let t0 = Date(timeIntervalSince1970: 1_764_547_200)

    /// The engine's answer to a `liveactivity` push of `aps` to `token`, at `at`.
    @discardableResult
    func push(_ aps: JSON, to token: String = startToken, at: Date = t0, inbox: inout Inbox) -> (reply: Reply, effects: [Effect]) {
        let payload = JSON.object(["aps": aps]).compactText
        let request = PushRequest(
            payloadText: payload, app: Self.app, channel: .apns, pushType: "liveactivity", via: .apns, token: token,
            headers: ["apns-push-type": "liveactivity"])
        let handled = Engine.handle(.push(request), inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: at)
        return (handled.reply, handled.effects)
    }

    func startedInbox() -> (Inbox, Activity) {
        var inbox = Inbox()
        inbox.devices[Self.startToken] = Device(token: Self.startToken, app: Self.app, kind: .pushToStart)
        push(start(), inbox: &inbox)
        return (inbox, inbox.activities.all[0])
    }

    func start(timestamp: Int = 1_764_547_200) -> JSON {
        [
            "timestamp": .int(timestamp), "event": "start", "attributes-type": "DeliveryAttributes",
            "attributes": ["order": "A-17"], "content-state": ["status": "preparing", "eta": 25], "input-push-token": 1,
            "input-push-channel": "dGVzdA==", "stale-date": .int(1_764_547_200 + 1800),
        ]
    }

    @Test func aStartToAPushToStartTokenMakesAnActivityWithItsOwnPushToken() throws {
        var inbox = Inbox()
        inbox.devices[Self.startToken] = Device(token: Self.startToken, app: Self.app, kind: .pushToStart)
        let (reply, effects) = push(start(), inbox: &inbox)
        let activity = try #require(inbox.activities.all.first)
        #expect(activity.id == "activity-1" && activity.app == Self.app && activity.attributesType == "DeliveryAttributes")
        #expect(activity.contentState == ["status": "preparing", "eta": 25])
        #expect(activity.channel == "dGVzdA==" && activity.startToken == Self.startToken)
        let token = try #require(activity.pushToken)
        #expect(Device.isHexToken(token) && token.count == 64)
        #expect(inbox.devices[token]?.kind == .activity && inbox.devices[token]?.app == Self.app)
        #expect(reply == .activityPush(ActivityPushReply(activity: "activity-1", accepted: true, pushToken: token)))
        // The token and the activity are written in the push's own writes, and published.
        #expect(effects.contains(.store(.device(Device(token: token, app: Self.app, kind: .activity)))))
        #expect(effects.contains(.store(.activity(ActivityWrite(activity)))))
        #expect(effects.contains { if case .publish(let event) = $0 { event.topic == .activityChanged } else { false } })
        #expect(activity.state(at: Self.t0) == .active)
        #expect(activity.state(at: Self.t0.addingTimeInterval(1800)) == .stale)
    }

    @Test func updatesApplyInTimestampOrderAndAnOlderOneIsDiscardedWithWhy() throws {
        var (inbox, started) = startedInbox()
        let token = try #require(started.pushToken)
        let newer = push(["timestamp": .int(1_764_547_300), "event": "update", "content-state": ["status": "on the way", "eta": 10]],
                         to: token, at: Self.t0.addingTimeInterval(100), inbox: &inbox)
        #expect(newer.reply == .activityPush(ActivityPushReply(activity: "activity-1", accepted: true)))
        let stale = push(["timestamp": .int(1_764_547_250), "event": "update", "content-state": ["status": "late news", "eta": 20]],
                         to: token, at: Self.t0.addingTimeInterval(110), inbox: &inbox)
        #expect(stale.reply == .activityPush(ActivityPushReply(
            activity: "activity-1", accepted: false, why: "timestamp 1764547250 is older than the last applied (1764547300)")))
        let activity = try #require(inbox.activities.byId["activity-1"])
        #expect(activity.contentState == ["status": "on the way", "eta": 10])
        #expect(activity.history.map(\.accepted) == [true, true, false])
        #expect(activity.discarded == 1)
        // The update carried no stale-date: the new content has none.
        #expect(activity.staleDate == nil)
    }

    /// What the store is given for a push to an activity: the activity without its history and
    /// the one entry the push added, numbered among all the activity's pushes — never the whole
    /// history, which the inbox keeps growing.
    @Test func anUpdatesStoreWriteCarriesThePushItAddedNotTheHistory() throws {
        var (inbox, started) = startedInbox()
        let token = try #require(started.pushToken)
        let update = push(["timestamp": .int(1_764_547_300), "event": "update", "content-state": ["status": "on the way"]],
                          to: token, at: Self.t0.addingTimeInterval(100), inbox: &inbox)
        let writes = update.effects.compactMap { effect -> ActivityWrite? in
            if case .store(.activity(let write)) = effect { write } else { nil }
        }
        let activity = try #require(inbox.activities.byId["activity-1"])
        #expect(writes.count == 1)
        let write = try #require(writes.first)
        #expect(write.activity.history.isEmpty && write.activity.earlier == activity.earlier)
        #expect(write.added == activity.history.last && write.added?.event == "update")
        #expect(write.seq == 2)
        var bare = activity
        bare.history = []
        #expect(write.activity == bare)
    }

    /// `activity.changed` is built only when read: what it reads is the activity as that push
    /// left it, at the push's time, without its history, whatever came after.
    @Test func eachPushPublishesTheActivityAsThatPushLeftIt() throws {
        var (inbox, started) = startedInbox()
        let token = try #require(started.pushToken)
        func event(_ effects: [Effect]) -> BusEvent? {
            effects.lazy.compactMap { if case .publish(let event) = $0, event.topic == .activityChanged { event } else { nil } }.first
        }
        let applied = push(["timestamp": .int(1_764_547_300), "event": "update", "content-state": ["status": "on the way"]],
                           to: token, at: Self.t0.addingTimeInterval(100), inbox: &inbox)
        let afterFirst = try #require(inbox.activities.byId["activity-1"])
        let discarded = push(["timestamp": .int(1_764_547_250), "event": "update", "content-state": ["status": "late"]],
                             to: token, at: Self.t0.addingTimeInterval(110), inbox: &inbox)
        push(["timestamp": .int(1_764_547_400), "event": "end", "content-state": ["status": "done"]],
             to: token, at: Self.t0.addingTimeInterval(120), inbox: &inbox)

        let first = try #require(event(applied.effects))
        #expect(first.fields == [
            "activity": afterFirst.wireJSON(at: Self.t0.addingTimeInterval(100), history: false), "accepted": true, "discarded": nil,
        ])
        #expect(first.fields["activity"]?.objectValue?["contentState"] == ["status": "on the way"])
        #expect(first.fields["activity"]?.objectValue?["history"] == [])
        let second = try #require(event(discarded.effects))
        #expect(second.fields["accepted"] == false)
        #expect(second.fields["discarded"] == "timestamp 1764547250 is older than the last applied (1764547300)")
        #expect(second.fields["activity"]?.objectValue?["state"] == "active")
    }

    @Test func pushesTheDeviceWouldIgnoreAreDiscardedWithWhy() throws {
        var (inbox, started) = startedInbox()
        let token = try #require(started.pushToken)
        let cases: [(JSON, String)] = [
            (["event": "update", "content-state": ["a": 1]], "no timestamp"),
            (["timestamp": .int(1_764_547_300), "content-state": ["a": 1]], "no event"),
            (["timestamp": .int(1_764_547_300), "event": "update", "content-state": "not an object"],
             "content-state is not an object (got a string)"),
            (["timestamp": .int(1_764_547_300), "event": "update"], "no content-state"),
            (["timestamp": .int(1_764_547_300), "event": "start", "content-state": ["a": 1]],
             "start sent to an activity's push token: a start goes to a push-to-start token"),
            (["timestamp": .int(1_764_547_300), "event": "pause", "content-state": ["a": 1]], "event pause is not start, update or end"),
        ]
        for (aps, why) in cases {
            let answer = push(aps, to: token, inbox: &inbox)
            #expect(answer.reply == .activityPush(ActivityPushReply(activity: "activity-1", accepted: false, why: why)), "\(aps.compactText)")
        }
        let activity = try #require(inbox.activities.byId["activity-1"])
        #expect(activity.contentState == ["status": "preparing", "eta": 25], "nothing discarded changed the content")
        #expect(activity.history.map(\.why) == [nil] + cases.map { Optional($0.1) })
    }

    @Test func aStartWithoutAttributesStartsNothingAndIsKeptUnmatched() throws {
        var inbox = Inbox()
        inbox.devices[Self.startToken] = Device(token: Self.startToken, app: Self.app, kind: .pushToStart)
        let (reply, effects) = push(["timestamp": .int(1_764_547_200), "event": "start", "content-state": ["a": 1]], inbox: &inbox)
        let why = "a start needs attributes-type (a string) and attributes (an object)"
        #expect(reply == .activityPush(ActivityPushReply(activity: nil, accepted: false, why: why)))
        #expect(inbox.activities.all.isEmpty)
        #expect(inbox.activities.unmatched.map(\.why) == [why])
        #expect(effects.contains { if case .store(.activityUnmatched) = $0 { true } else { false } })
        // An update sent to the push-to-start token reaches no activity either.
        let update = push(["timestamp": .int(1_764_547_300), "event": "update", "content-state": ["a": 1]], inbox: &inbox)
        #expect(update.reply.isOK && inbox.activities.unmatched.count == 2 && inbox.activities.all.isEmpty)
    }

    @Test func anEndKeepsItShownUntilItsDismissalDateAndLaterUpdatesAreDiscarded() throws {
        var (inbox, started) = startedInbox()
        let token = try #require(started.pushToken)
        let endAt = Self.t0.addingTimeInterval(600)
        push(["timestamp": .int(1_764_547_800), "event": "end", "content-state": ["status": "delivered", "eta": 0],
              "dismissal-date": .int(1_764_547_800 + 3600)], to: token, at: endAt, inbox: &inbox)
        let ended = try #require(inbox.activities.byId["activity-1"])
        #expect(ended.state(at: endAt) == .ended)
        #expect(ended.dismissedAt == endAt.addingTimeInterval(3600))
        #expect(ended.state(at: endAt.addingTimeInterval(3600)) == .dismissed)
        let late = push(["timestamp": .int(1_764_547_900), "event": "update", "content-state": ["status": "x"]],
                        to: token, at: endAt.addingTimeInterval(60), inbox: &inbox)
        #expect(late.reply == .activityPush(ActivityPushReply(activity: "activity-1", accepted: false, why: "the activity has ended: it takes no more updates")))
    }

    @Test func theSystemEndsAnActivityAfterEightHoursAndRemovesItFourHoursLater() throws {
        let (_, activity) = startedInbox()
        #expect(activity.state(at: Self.t0.addingTimeInterval(8 * 3600 - 1)) == .stale)
        #expect(activity.state(at: Self.t0.addingTimeInterval(8 * 3600)) == .ended)
        #expect(activity.state(at: Self.t0.addingTimeInterval(12 * 3600 - 1)) == .ended)
        #expect(activity.state(at: Self.t0.addingTimeInterval(12 * 3600)) == .dismissed)
        // A dismissal date further off than 4 hours after the end is held to the 4 hours.
        var ended = activity
        ended.endedAt = Self.t0
        ended.dismissalDate = Self.t0.addingTimeInterval(24 * 3600)
        #expect(ended.dismissedAt == Self.t0.addingTimeInterval(4 * 3600))
        // One in the past removes it at once.
        ended.dismissalDate = Self.t0.addingTimeInterval(-1)
        #expect(ended.state(at: Self.t0) == .dismissed)
    }

    @Test func anUpdateToAnUnknownTokenRegistersAnActivityTheAppStarted() throws {
        var inbox = Inbox()
        let token = String(repeating: "7c", count: 32)
        let (reply, effects) = push(["timestamp": .int(1_764_547_200), "event": "update", "content-state": ["score": "1-0"]],
                                    to: token, inbox: &inbox)
        #expect(reply == .activityPush(ActivityPushReply(activity: "activity-1", accepted: true)))
        #expect(inbox.devices[token]?.kind == .activity)
        #expect(effects.first == .store(.device(Device(token: token, app: Self.app, kind: .activity))))
        #expect(inbox.activities.all.first?.attributesType == nil && inbox.activities.all.first?.pushToken == token)
    }

    @Test func theListShowsStatesOnTheClockAndResetForgetsTheApp() throws {
        var (inbox, _) = startedInbox()
        let later = Self.t0.addingTimeInterval(2 * 3600)
        let handled = Engine.handle(.activity(.list(app: nil)), inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: later)
        guard case .activities(let listed, let unmatched, let at) = handled.reply else {
            Issue.record("not a list: \(handled.reply)")
            return
        }
        #expect(listed.map(\.id) == ["activity-1"] && unmatched.isEmpty && at == later)
        let wire = try #require(handled.reply.wireObject["activities"]?.arrayValue?.first?.objectValue)
        #expect(wire["state"] == "stale")
        #expect(wire["history"]?.arrayValue?.count == 1)
        _ = Engine.handle(.reset(app: Self.app, all: false), inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: later)
        #expect(inbox.activities.all.isEmpty)
    }

    @Test func anActivityReadsBackFromItsStoredObject() throws {
        var (inbox, started) = startedInbox()
        let token = try #require(started.pushToken)
        push(["timestamp": .int(1_764_547_300), "event": "end", "content-state": ["status": "done"], "relevance-score": .number(JSONNumber(text: "0.5")),
              "dismissal-date": .int(1_764_548_000)], to: token, inbox: &inbox)
        let activity = try #require(inbox.activities.byId["activity-1"])
        let stored = try JSON.parse(activity.wireJSON(at: nil).compactText)
        #expect(Activity(stored: stored) == activity)
    }

    @Test func theWireDecodesTheActivityOpAndAKindOfDevice() throws {
        #expect(try Request.decode(frame: Array(#"{"op":"activity","action":"list","app":"com.example.food"}"#.utf8))
            == .activity(.list(app: "com.example.food")))
        #expect(try Request.decode(frame: Request.activity(.list(app: nil)).encode()) == .activity(.list(app: nil)))
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"activity","action":"start"}"#.utf8)) }
        let add = try Request.decode(frame: Array(#"{"op":"device","action":"add","token":"5a5a","app":"a.b","kind":"push-to-start"}"#.utf8))
        #expect(add == .device(.add(Device(token: "5a5a", app: "a.b", kind: .pushToStart))))
        #expect(throws: WireError.self) {
            try Request.decode(frame: Array(#"{"op":"device","action":"add","token":"cid1","app":"a","vendor":"getui","kind":"activity"}"#.utf8))
        }
    }
}

/// A store with nothing in it: the activity rules read nothing from the store.
struct EmptyReading: InboxReading {
    func replaceable(app: String, collapseId: String) throws -> ReplacedMessage? { nil }
    func messages(ids: [Int64], includeHeld: Bool) throws -> [Message] { [] }
    func page(_ query: ListQuery) throws -> [Message] { [] }
}
