import Foundation
import PushJSON

// MARK: - Live Activities: what the device does with a `liveactivity` push

extension Inbox {
    /// A `liveactivity` push, judged as ActivityKit judges it on the device. APNs checks only the
    /// request (the route did): a push the device ignores was still answered 200, so here it is
    /// recorded as discarded, with why, in its activity's history (or, reaching none, among the
    /// unmatched) — what a tester cannot see on a phone.
    ///
    /// The rules are Apple's "Starting and updating Live Activities with ActivityKit push
    /// notifications": `aps.event` is `start` (to a push-to-start token, with `attributes-type`
    /// and `attributes`), `update` or `end` (to the activity's own push token); `aps.timestamp`
    /// is required, and ActivityKit's `update(_:alertConfiguration:timestamp:)` says an update
    /// whose timestamp "is older than a previous update or push payload" is ignored, as are
    /// updates to an ended activity; `content-state` must decode into the app's `ContentState`,
    /// so it is an object.
    mutating func receive(_ push: ActivityPush, at date: Date, into outcome: inout Outcome) {
        var update = Self.update(aps: push.aps, token: push.token, app: push.app, at: date)
        let event = update.event

        // An unknown token reached here only under `--devices open`: it is registered as the
        // kind the push takes it for (a start goes to a push-to-start token, the rest to an
        // activity's), in the push's own transaction.
        let kind: DeviceKind
        if let device = devices[push.token] {
            kind = device.kind
        } else {
            kind = event == "start" ? .pushToStart : .activity
            let device = Device(token: push.token, app: push.app, kind: kind)
            devices[push.token] = device
            outcome.write(.device(device))
        }
        switch kind {
        case .app:
            update.why = "the token is the app's notification token, not a Live Activity's"
            noteUnmatched(update, into: &outcome)
        case .pushToStart:
            start(push, update, at: date, into: &outcome)
        case .activity:
            apply(push, update, at: date, into: &outcome)
        }
    }

    /// A push to a push-to-start token: a `start` with its attributes makes a new activity.
    private mutating func start(_ push: ActivityPush, _ update: ActivityUpdate, at date: Date, into outcome: inout Outcome) {
        var update = update
        let aps = push.aps ?? JSONObject()
        if let why = Self.missing(push.aps, update) {
            update.why = why
        } else if update.event != "start" {
            update.why = "\(update.event ?? "") sent to a push-to-start token: only start goes there (update and end go to the activity's push token)"
        } else if aps["attributes-type"]?.stringValue?.isEmpty != false || aps["attributes"]?.objectValue == nil {
            update.why = "a start needs attributes-type (a string) and attributes (an object)"
        } else if let why = Self.contentProblem(aps["content-state"], required: true) {
            update.why = why
        }
        guard update.why == nil else { return noteUnmatched(update, into: &outcome) }

        update.accepted = true
        var activity = Activity(
            id: "activity-\(activities.nextNumber)", app: push.app, attributesType: aps["attributes-type"]?.stringValue,
            attributes: aps["attributes"], startToken: push.token, startedAt: date)
        // `input-push-token: 1` asks ActivityKit for the activity's own push token, which
        // `pushTokenUpdates` hands the app; `input-push-channel` subscribes it to a broadcast
        // channel (iOS 18).
        if aps["input-push-token"]?.intValue == 1 {
            let token = newActivityToken()
            activity.pushToken = token
            let device = Device(token: token, app: push.app, kind: .activity)
            devices[token] = device
            outcome.write(.device(device))
        }
        activity.channel = aps["input-push-channel"]?.stringValue
        Self.take(aps, update, into: &activity, at: date)
        activity.record(update)
        activities.put(activity)
        changed(activity, update, at: date, into: &outcome)
    }

    /// The push as the history records it, not yet judged: its event, timestamp, content.
    static func update(aps: JSONObject?, token: String?, app: String, at date: Date) -> ActivityUpdate {
        ActivityUpdate(
            at: date, token: token, app: app, event: aps?["event"]?.stringValue,
            timestamp: aps?["timestamp"]?.numberValue.map { Int64($0.double.rounded(.down)) },
            contentState: aps?["content-state"], alert: aps.flatMap(Self.alertText), accepted: false)
    }

    /// A push to an activity's own token: `update` or `end`.
    private mutating func apply(_ push: ActivityPush, _ update: ActivityUpdate, at date: Date, into outcome: inout Outcome) {
        // A token registered as an activity's (`device add --kind activity`, or an update to an
        // unknown token) stands for an activity its app started with `Activity.request`.
        // It is taken out of the book while the push changes it: a copy left there would share
        // its history, and recording the push would copy every entry (up to `historyLimit`).
        let activity = activities.idByToken[push.token].flatMap { activities.take(id: $0) }
            ?? Activity(id: "activity-\(activities.nextNumber)", app: push.app, pushToken: push.token, startedAt: date)
        apply(to: activity, aps: push.aps, update, at: date, into: &outcome)
    }

    /// An `update` or `end` reaching `activity` (by its token, or on its broadcast channel),
    /// judged as the device judges it; the activity goes (back) into the book.
    mutating func apply(to activity: consuming Activity, aps given: JSONObject?, _ update: ActivityUpdate, at date: Date, into outcome: inout Outcome) {
        var update = update
        let aps = given ?? JSONObject()
        let state = activity.state(at: date)
        if let why = Self.missing(given, update) {
            update.why = why
        } else if update.event == "start" {
            update.why = update.channel == nil
                ? "start sent to an activity's push token: a start goes to a push-to-start token"
                : "start sent on a broadcast channel: a start goes to a push-to-start token"
        } else if update.event != "update" && update.event != "end" {
            update.why = "event \(update.event ?? "") is not start, update or end"
        } else if state == .ended || state == .dismissed {
            update.why = "the activity has ended: it takes no more updates"
        } else if let last = activity.timestamp, let timestamp = update.timestamp, timestamp < last {
            update.why = "timestamp \(timestamp) is older than the last applied (\(last))"
        } else if let why = Self.contentProblem(aps["content-state"], required: update.event == "update") {
            update.why = why
        }
        if update.why == nil {
            update.accepted = true
            Self.take(aps, update, into: &activity, at: date)
            if update.event == "end" {
                activity.endedAt = date
                activity.dismissalDate = Self.unixDate(aps["dismissal-date"])
            }
        }
        activity.record(update)
        activities.put(activity)
        changed(activity, update, at: date, into: &outcome)
    }

    /// The user removes a Live Activity from the Lock Screen: Apple's "Displaying live data with
    /// Live Activities" lets a person dismiss one at any time, and ActivityKit's
    /// `activityStateUpdates` then says `dismissed` — the activity has ended and its push token
    /// goes with it (a later push to it is APNs' `ExpiredToken`). An unknown id, or one already
    /// gone from the screen, refuses the request and changes nothing.
    mutating func dismissActivity(id: String, at date: Date, into outcome: inout Outcome) {
        guard var activity = activities.byId[id] else {
            return outcome.reply = .error("no activity \(id) ('pushdeck activity list' lists them); nothing was changed")
        }
        guard activity.state(at: date) != .dismissed else {
            return outcome.reply = .error("\(id) has already left the screen; nothing was changed")
        }
        activity.endedAt = min(activity.endedAt ?? date, date)
        activity.dismissalDate = date
        activity.dismissedByUser = true
        activities.put(activity)
        outcome.write(.activity(ActivityWrite(activity, adding: false)))
        outcome.publish(BusEvent(activityChanged: activity, accepted: true, discarded: nil, at: date))
        outcome.reply = .ok
    }

    /// What every push needs before its event is read: an `aps` object, an event, a timestamp.
    private static func missing(_ aps: JSONObject?, _ update: ActivityUpdate) -> String? {
        guard let aps else { return "no aps dictionary" }
        if update.event == nil { return aps["event"] == nil ? "no event" : "event is not a string" }
        if update.timestamp == nil { return aps["timestamp"] == nil ? "no timestamp" : "timestamp is not a number of seconds" }
        return nil
    }

    /// Why a `content-state` cannot decode into the app's `ContentState`, if it cannot.
    private static func contentProblem(_ content: JSON?, required: Bool) -> String? {
        guard let content, !content.isNull else { return required ? "no content-state" : nil }
        return content.objectValue == nil ? "content-state is not an object (got \(content.kindName))" : nil
    }

    /// An applied push's content: `content-state`, `stale-date` and `relevance-score` (each
    /// push's own, as each `ActivityContent` carries its own), the timestamp and the time.
    private static func take(_ aps: JSONObject, _ update: ActivityUpdate, into activity: inout Activity, at date: Date) {
        if let content = aps["content-state"], content.objectValue != nil { activity.contentState = content }
        activity.staleDate = unixDate(aps["stale-date"])
        activity.relevanceScore = aps["relevance-score"]?.numberValue.map(\.double)
        activity.timestamp = update.timestamp
        activity.updatedAt = date
    }

    /// A UNIX time in seconds as a date.
    private static func unixDate(_ value: JSON?) -> Date? {
        value?.numberValue.map { Date(timeIntervalSince1970: $0.double) }
    }

    /// `aps.alert`'s title, or the alert when it is a string.
    private static func alertText(_ aps: JSONObject) -> String? {
        switch aps["alert"] {
        case .string(let text): text
        case .object(let alert): alert["title"]?.stringValue ?? alert["body"]?.stringValue
        default: nil
        }
    }

    private mutating func noteUnmatched(_ update: ActivityUpdate, into outcome: inout Outcome) {
        activities.note(unmatched: update)
        outcome.write(.activityUnmatched(update))
        outcome.reply = .activityPush(ActivityPushReply(activity: nil, accepted: false, why: update.why))
    }

    func changed(_ activity: Activity, _ update: ActivityUpdate, at date: Date, into outcome: inout Outcome) {
        outcome.write(.activity(ActivityWrite(activity)))
        outcome.publish(BusEvent(activityChanged: activity, accepted: update.accepted, discarded: update.why, at: date))
        outcome.reply = .activityPush(ActivityPushReply(
            activity: activity.id, accepted: update.accepted, why: update.why,
            pushToken: update.event == "start" && update.accepted ? activity.pushToken : nil))
    }

    /// A new activity push token: 64 hex digits made from the activity's number (so the instant
    /// and live players hand out the same ones), stepping past any token already known.
    private func newActivityToken() -> String {
        var number = activities.nextNumber
        while true {
            let hex = String(number, radix: 16)
            let token = "1ac7" + String(repeating: "0", count: max(0, 60 - hex.count)) + hex
            if devices[token] == nil && activities.idByToken[token] == nil { return token }
            number += 1_000_003
        }
    }
}
