import Foundation
import PushJSON

/// A Live Activity as the device keeps it (ActivityKit's `Activity`): started by a push-to-start
/// push or by its app, updated and ended by `liveactivity` pushes to its own push token.
///
/// Its state is not stored but read off pushdeck's clock, as ActivityKit's `ActivityState` moves
/// on by itself: Apple's "Displaying live data with Live Activities" gives an activity at most
/// 8 hours active, after which the system ends it, and keeps an ended one on the Lock Screen at
/// most 4 hours more (12 in all) — sooner when the `end` push's `dismissal-date` says so, at once
/// for a date already past.
public struct Activity: Sendable, Equatable {
    /// The longest an activity stays active before the system ends it.
    public static let activeLifetime: TimeInterval = 8 * 3600
    /// The longest an ended activity stays on the Lock Screen.
    public static let endedLifetime: TimeInterval = 4 * 3600
    /// The most updates one activity's history keeps (the newest); `earlier` counts the rest.
    public static let historyLimit = 100

    /// pushdeck's id (`activity-N`), the same however the activity was started.
    public var id: String
    /// The app's bundle id.
    public var app: String
    /// `attributes-type` and `attributes` of the push that started it (nil: the app started it).
    public var attributesType: String?
    public var attributes: JSON?
    /// The last applied `content-state` (an object; `{}` before any).
    public var contentState: JSON
    /// The activity's own push token (`input-push-token: 1`), if it has one.
    public var pushToken: String?
    /// The push-to-start token it was started through, if it was.
    public var startToken: String?
    /// The broadcast channel it is subscribed to (`input-push-channel`).
    public var channel: String?
    public var startedAt: Date
    /// When pushdeck last applied a push to it.
    public var updatedAt: Date
    /// The `timestamp` of the last applied push (UNIX seconds).
    public var timestamp: Int64?
    public var staleDate: Date?
    /// When an `end` push ended it.
    public var endedAt: Date?
    /// The `end` push's `dismissal-date`.
    public var dismissalDate: Date?
    public var relevanceScore: Double?
    /// Every push that reached it, oldest first (at most `historyLimit`).
    public var history: ActivityHistory
    /// How many older entries were let go from `history`.
    public var earlier: Int = 0
    /// The broadcast push its channel keeps while its device is offline (policy 1).
    public var pending: ActivityPending?
    /// The user dismissed it from the screen (its `dismissalDate` is then that moment).
    public var dismissedByUser = false

    public init(
        id: String, app: String, attributesType: String? = nil, attributes: JSON? = nil,
        contentState: JSON = .object(JSONObject()), pushToken: String? = nil, startToken: String? = nil,
        channel: String? = nil, startedAt: Date, history: [ActivityUpdate] = []
    ) {
        self.id = id
        self.app = app
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.pushToken = pushToken
        self.startToken = startToken
        self.channel = channel
        self.startedAt = startedAt
        self.updatedAt = startedAt
        self.history = ActivityHistory(history)
    }

    /// When it ends (or ended): its `end` push, else the 8-hour limit.
    public var endsAt: Date {
        let systemEnd = startedAt.addingTimeInterval(Self.activeLifetime)
        return endedAt.map { min($0, systemEnd) } ?? systemEnd
    }

    /// When it leaves the Lock Screen: the `dismissal-date`, but no later than 4 hours after
    /// its end.
    public var dismissedAt: Date {
        let latest = endsAt.addingTimeInterval(Self.endedLifetime)
        return dismissalDate.map { min($0, latest) } ?? latest
    }

    /// ActivityKit's state at `now`.
    public func state(at now: Date) -> ActivityState {
        if now >= dismissedAt { return .dismissed }
        if now >= endsAt { return .ended }
        if let staleDate, now >= staleDate { return .stale }
        return .active
    }

    /// How many pushes its history shows discarded.
    public var discarded: Int { history.count { !$0.accepted } }

    /// Appends to the history, keeping the newest `historyLimit`.
    public mutating func record(_ update: ActivityUpdate) {
        earlier += history.append(update, keeping: Self.historyLimit)
    }
}

/// An activity's newest pushes, oldest first: a ring, so that taking one more when it is full
/// lets the oldest go without moving the others (an array moved all 99 entries, ~15 KB, at every
/// update of a long-lived activity).
public struct ActivityHistory: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
    private var storage: [ActivityUpdate]
    /// Where the oldest entry is in `storage`: 0 until the ring is full and wraps.
    private var head = 0

    public init(_ updates: [ActivityUpdate] = []) { storage = updates }
    public init(arrayLiteral updates: ActivityUpdate...) { storage = updates }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> ActivityUpdate {
        let index = head + position
        return storage[index < storage.count ? index : index - storage.count]
    }

    /// Appends `update`, keeping the newest `limit` (at least one); returns how many went.
    public mutating func append(_ update: ActivityUpdate, keeping limit: Int) -> Int {
        let limit = Swift.max(limit, 1)
        guard storage.count >= limit else {
            storage.append(update)
            return 0
        }
        var went = 0
        if storage.count > limit {
            // More than it keeps, as given: the newest `limit` in order, the ring from the start.
            went = storage.count - limit
            storage = Array(suffix(limit))
            head = 0
        }
        storage[head] = update
        head = head + 1 == storage.count ? 0 : head + 1
        return went + 1
    }

    public static func == (left: ActivityHistory, right: ActivityHistory) -> Bool {
        left.elementsEqual(right)
    }
}

/// What the store is given when a Live Activity is added or changes: the activity without its
/// history (the store keeps the history one row a push) and the push the history gained, if it
/// gained one. Given the whole activity, the store's write shared the history's buffer with the
/// inbox until the write was done, and the next push to the activity copied all of it (up to
/// `historyLimit` entries, each with its strings) to add one, then freed the old copy: an
/// eighth of an update's instructions (callgrind).
public struct ActivityWrite: Sendable, Equatable {
    /// The activity, its `history` empty (`earlier` as it is).
    public var activity: Activity
    /// The push the history gained (its newest entry), nil when the history did not change.
    public var added: ActivityUpdate?
    /// `added`'s number among all the pushes the activity's history took, from 1.
    public var seq: Int64

    /// The write of `activity` as it is now; with `adding`, its newest history entry is new.
    public init(_ activity: Activity, adding: Bool = true) {
        seq = Int64(activity.earlier + activity.history.count)
        added = adding ? activity.history.last : nil
        var bare = activity
        bare.history = []
        self.activity = bare
    }
}

/// ActivityKit's `ActivityState` (less `pending`: pushdeck schedules nothing).
public enum ActivityState: String, Sendable, Equatable, CaseIterable {
    case active
    case stale
    case ended
    case dismissed
}

/// One `liveactivity` push as the device took it: applied, or discarded and why.
public struct ActivityUpdate: Sendable, Equatable {
    /// When pushdeck received it.
    public var at: Date
    /// The token it was sent to.
    public var token: String?
    public var app: String
    /// `aps.event` and `aps.timestamp` as sent (nil when missing or not a string / number).
    public var event: String?
    public var timestamp: Int64?
    /// `aps.content-state` as sent, when it was sent.
    public var contentState: JSON?
    /// `aps.alert`'s title (or the alert when it is a string): an update that also alerts.
    public var alert: String?
    public var accepted: Bool
    /// Why the device discarded it (nil when accepted).
    public var why: String?
    /// The broadcast channel it came on (nil: sent to `token`).
    public var channel: String?

    public init(
        at: Date, token: String?, app: String, event: String?, timestamp: Int64?, contentState: JSON?,
        alert: String? = nil, accepted: Bool, why: String? = nil
    ) {
        self.at = at
        self.token = token
        self.app = app
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.alert = alert
        self.accepted = accepted
        self.why = why
    }
}

/// The inbox's Live Activities: by id, by push token, and the pushes that reached no activity
/// (a `start` the device refused, an update sent to a push-to-start token).
public struct ActivityBook: Sendable, Equatable {
    /// The most unmatched pushes kept (the newest).
    public static let unmatchedLimit = 100

    public var byId: [String: Activity] = [:]
    /// Activity push tokens to activity ids.
    public var idByToken: [String: String] = [:]
    public var unmatched: [ActivityUpdate] = []
    /// The number the next activity's id gets.
    public var nextNumber = 1

    public init() {}

    /// Every activity, by id number (the order they started in).
    public var all: [Activity] {
        byId.values.sorted { ($0.number, $0.id) < ($1.number, $1.id) }
    }

    /// Adds or replaces an activity, keeping the token index and the next number in step.
    public mutating func put(_ activity: Activity) {
        if let old = byId[activity.id], let token = old.pushToken { idByToken[token] = nil }
        byId[activity.id] = activity
        if let token = activity.pushToken { idByToken[token] = activity.id }
        nextNumber = max(nextNumber, activity.number + 1)
    }

    /// Takes an activity out of the book, to change it and `put` it back: changed while a copy
    /// stays in the book, its history would be copied whole.
    mutating func take(id: String) -> Activity? {
        byId.removeValue(forKey: id)
    }

    public mutating func note(unmatched update: ActivityUpdate) {
        unmatched.append(update)
        if unmatched.count > Self.unmatchedLimit { unmatched.removeFirst(unmatched.count - Self.unmatchedLimit) }
    }

    /// Forgets one app's activities (every app's when nil).
    mutating func remove(app: String?) {
        for activity in byId.values where app == nil || activity.app == app {
            byId[activity.id] = nil
            if let token = activity.pushToken { idByToken[token] = nil }
        }
        unmatched.removeAll { app == nil || $0.app == app }
    }
}

extension Activity {
    /// The number in `activity-N` (0 for an id of another shape).
    public var number: Int { Int(id.dropFirst("activity-".count)) ?? 0 }
}
