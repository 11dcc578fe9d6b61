import Foundation
import PushJSON

// MARK: - Broadcast channels (iOS 18): channel management, and a push to every subscribed activity

extension Inbox {
    /// The `channel` op: Apple's "Sending channel management requests to APNs" — create (at most
    /// `BroadcastChannel.maxPerApp` per app), read, delete, list. An unknown channel (or one of
    /// another app) is refused whole, as APNs refuses it with `ChannelNotRegistered`.
    mutating func changeChannels(_ command: ChannelCommand, at date: Date, into outcome: inout Outcome) {
        switch command {
        case .create(let app, let policy):
            guard policy == 0 || policy == 1 else {
                outcome.reply = .error("message-storage-policy must be 0 (no message stored) or 1 (the most recent stored); got \(policy)")
                return
            }
            guard channels.countByApp[app, default: 0] < BroadcastChannel.maxPerApp else {
                outcome.reply = .error("\(Self.cannotCreateChannel): \(app) has \(BroadcastChannel.maxPerApp) channels, the most APNs allows; delete one first")
                return
            }
            // Whole milliseconds, as the store and the wire keep it.
            let createdAt = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
            let channel = BroadcastChannel(id: channels.newId(), app: app, storagePolicy: policy, createdAt: createdAt)
            channels.put(channel)
            outcome.write(.broadcastChannel(channel))
            outcome.reply = .channels([channel])
        case .read(let app, let id):
            guard let channel = channels.channel(id, app: app) else { return outcome.reply = Self.notRegistered(id, app) }
            outcome.reply = .channels([channel])
        case .delete(let app, let id):
            guard channels.channel(id, app: app) != nil else { return outcome.reply = Self.notRegistered(id, app) }
            channels.remove(id)
            outcome.write(.removeBroadcastChannel(id: id))
            outcome.reply = .ok
        case .list(let app):
            outcome.reply = .channels(channels.all(app: app))
        }
    }

    /// APNs' reason for a channel the app has not made (or deleted).
    public static let channelNotRegistered = "ChannelNotRegistered"
    /// APNs' reason for a channel past the app's limit.
    public static let cannotCreateChannel = "CannotCreateChannelConfig"

    private static func notRegistered(_ id: String, _ app: String) -> Reply {
        .error("\(channelNotRegistered): no channel \(id) of \(app); nothing was changed")
    }

    /// A broadcast push, as Apple's "Sending broadcast push notification requests to APNs" has
    /// it: APNs checks the channel, then sends the payload to every device subscribed to it —
    /// here each subscribed activity of the app that is not yet dismissed takes it by the same
    /// rules as a push to its own token (`Inbox+Activities`). "If APNs can't deliver a
    /// notification immediately, it may store the notification based on the channel's message
    /// storage policy": for an activity whose device is offline, a channel with policy 1 keeps
    /// the most recent push (delivered when the device comes online), one with policy 0 none —
    /// that push is discarded, and the history says so.
    mutating func receive(_ push: BroadcastPush, at date: Date, into outcome: inout Outcome) {
        guard let channel = channels.channel(push.channel, app: push.app) else {
            return outcome.reply = Self.notRegistered(push.channel, push.app)
        }
        // The channel management page: with "No message stored", apns-expiration must be 0.
        guard channel.storesLatest || push.expiration == 0 else {
            return outcome.reply = .error("BadExpirationDate: channel \(channel.id) stores no message (message-storage-policy 0), so apns-expiration must be 0")
        }
        var reached = 0
        var stored = 0
        for var activity in activities.all where activity.app == push.app && activity.channel == push.channel {
            guard activity.state(at: date) != .dismissed else { continue }
            reached += 1
            var update = Self.update(aps: push.aps, token: nil, app: push.app, at: date)
            update.channel = push.channel
            if isOffline(activity) {
                if channel.storesLatest {
                    stored += 1
                    activity.pending = ActivityPending(channel: push.channel, aps: push.aps ?? JSONObject(), at: date)
                    activities.put(activity)
                    outcome.write(.activity(ActivityWrite(activity, adding: false)))
                    continue
                }
                update.why = "the device was offline and channel \(push.channel) stores no message (message-storage-policy 0)"
                activity.record(update)
                activities.put(activity)
                changed(activity, update, at: date, into: &outcome)
                continue
            }
            apply(to: activity, aps: push.aps, update, at: date, into: &outcome)
        }
        outcome.reply = .broadcast(BroadcastReply(channel: push.channel, reached: reached, stored: stored))
    }

    /// Whether the device an activity lives on (its push-to-start token's, or its own push
    /// token's) is offline (`device offline TOKEN`).
    func isOffline(_ activity: Activity) -> Bool {
        [activity.startToken, activity.pushToken].contains { token in token.flatMap { devices[$0]?.offline } == true }
    }

    /// A device came online: each of its activities takes the broadcast push its channel kept.
    mutating func deliverPendingBroadcasts(to token: String, at date: Date, into outcome: inout Outcome) {
        for activity in activities.all where activity.pending != nil && (activity.startToken == token || activity.pushToken == token) {
            guard !isOffline(activity), let pending = activity.pending else { continue }
            var activity = activity
            activity.pending = nil
            var update = Self.update(aps: pending.aps, token: nil, app: activity.app, at: date)
            update.channel = pending.channel
            apply(to: activity, aps: pending.aps, update, at: date, into: &outcome)
        }
    }
}

/// A broadcast push a channel kept for an activity whose device was offline (policy 1: only
/// the most recent).
public struct ActivityPending: Sendable, Equatable {
    public var channel: String
    public var aps: JSONObject
    /// When the broadcast arrived.
    public var at: Date

    public init(channel: String, aps: JSONObject, at: Date) {
        self.channel = channel
        self.aps = aps
        self.at = at
    }
}

/// What a broadcast push came to: how many subscribed activities it reached, and for how many
/// of those (their device offline) the channel kept it.
public struct BroadcastReply: Sendable, Equatable {
    public var channel: String
    public var reached: Int
    public var stored: Int

    public init(channel: String, reached: Int, stored: Int) {
        self.channel = channel
        self.reached = reached
        self.stored = stored
    }
}
