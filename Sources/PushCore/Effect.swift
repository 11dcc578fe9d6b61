import Foundation
import PushJSON

/// What the reducer asks the world to do; the loop carries these out in order.
///
/// Every push moves half a dozen effects through arrays, so an effect is kept small (56 bytes):
/// the cases here, in `StoreChange`, `BusEvent` and `Reply` whose values are large and rare
/// (activities, devices, keys, outbox pushes, reports) are `indirect`, boxed. When the largest
/// of them made every effect 336 bytes, copying and destroying effects was a seventh of a
/// socket push's instructions (callgrind).
public enum Effect: Sendable, Equatable {
    /// A write to the store. All writes of one loop turn go into one transaction.
    case store(StoreChange)
    /// An event for the bus (watchers, subscribers, the UI).
    case publish(BusEvent)
    /// The reply to the request that caused this event (ignored for keys and timers); the wire
    /// layer (`Reply+Wire.swift`) turns it into the reply line.
    case reply(Reply)
    /// A push for another instance of the team bus, in the outbox by this turn's commit: the
    /// host's bus publishes it after the commit.
    indirect case forward(RemotePush)
}

/// One change to persisted state.
public enum StoreChange: Sendable, Equatable {
    /// A new message, delivered or held.
    case insert(Message)
    /// A message written over the stored one with its id (a collapse-id replacement).
    case replace(Message)
    /// Held messages whose time to live ran out: no longer held, read, marked expired.
    case expire([Int64])
    case markRead([Int64])
    /// Every unread message of `app` (all apps when nil) becomes read.
    case markAllRead(app: String?)
    case delete([Int64])
    /// Held messages delivered now: no longer held, marked offline.
    case release([Int64])
    /// This message becomes the launch notification; any earlier one stops being it.
    case setLaunch(Int64)
    case badge(app: String, Badge)
    /// The app's unread count is now `count` (0: none). The reducer alone decides what is
    /// unread — a delivered message not yet read, never a held one — and the store keeps the
    /// number it is given, as it keeps the badge: one rule in one place.
    case unread(app: String, count: Int)
    indirect case settings(InboxSettings)
    /// A device added or changed (by token).
    indirect case device(Device)
    case removeDevice(token: String)
    /// A key added or replaced (by id).
    indirect case providerKey(ProviderKey)
    case removeProviderKey(id: String)
    /// A Getui push used `requestId` of `app` at `at` (written with the push; kept a day).
    case getuiRequestId(app: String, requestId: String, at: Date)
    /// `reset`: delete one app's messages (every app's when nil), held ones included, and keep
    /// ids above `idFloor` from being handed out again (the zeroed unread counts and ledgers
    /// come as their own changes). With `all`, the
    /// store also forgets devices, keys and Getui request ids.
    case reset(app: String?, all: Bool, idFloor: Int64)
    /// A Live Activity added or changed (by id), and the push its history gained.
    indirect case activity(ActivityWrite)
    /// A `liveactivity` push that reached no activity (kept, the newest `unmatchedLimit`).
    indirect case activityUnmatched(ActivityUpdate)
    /// A push for another instance, kept until its owner's receipt (the outbox).
    indirect case outboxAdd(RemotePush)
    /// Its receipt came, or it expired: out of the outbox.
    case outboxRemove(id: String)
    /// A push by the bus taken (its id, from `sender`): a repeat of it is dropped, after a restart too.
    case busPushSeen(sender: String, id: String, at: Date)
    /// A broadcast channel made (by id).
    indirect case broadcastChannel(BroadcastChannel)
    case removeBroadcastChannel(id: String)
}

/// The small persisted settings of the inbox.
public struct InboxSettings: Sendable, Equatable {
    public var mode: PushMode
    public var appState: AppState
    public var dropped: Int
    public var badgeSync: Bool
    /// The apps whose badge policy is not the default `app`.
    public var badgePolicies: [String: BadgePolicy]
    /// Muted apps and until when (nil: until `unmute`).
    public var muted: [String: Date?]
    /// Scheduled do-not-disturb, when set.
    public var quiet: QuietHours?
    /// The socket's default device is offline: pushes without a known device token
    /// are stored as APNs and the vendors store them, delivered on `device online`.
    public var deviceOffline: Bool = false

    public init(
        mode: PushMode = .on, appState: AppState = .foreground, dropped: Int = 0, badgeSync: Bool = true,
        badgePolicies: [String: BadgePolicy] = [:], muted: [String: Date?] = [:], quiet: QuietHours? = nil
    ) {
        self.muted = muted
        self.quiet = quiet
        self.mode = mode
        self.appState = appState
        self.dropped = dropped
        self.badgeSync = badgeSync
        self.badgePolicies = badgePolicies
    }
}
