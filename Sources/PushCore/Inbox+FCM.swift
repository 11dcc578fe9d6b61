import Foundation
import PushJSON

// MARK: - FCM on Android, as a device does

extension Inbox {
    /// `FirebaseMessagingService.onMessageReceived`: a data message in any state, and a
    /// notification message while the app is in the foreground (Firebase, "Receive messages in
    /// an Android app": "Notification messages delivered when your app is in the foreground"
    /// and every data message reach it; nothing is shown by itself).
    public static let onMessageReceived = "onMessageReceived"
    /// A notification message while the app is in the background or swiped away: "Notification
    /// messages delivered when your app is in the background … go to the device's system tray"
    /// (same page); its data reaches the app when the user opens it.
    public static let systemTray = "system tray"
    /// `FirebaseMessagingService.onDeletedMessages`: "called when there are too many messages
    /// (>100) pending for your app on a particular device at the time it connects" (same page,
    /// "Override onDeletedMessages"); the messages themselves are gone.
    public static let onDeletedMessages = "onDeletedMessages"

    /// How long FCM keeps a message for an offline device without `android.ttl`: "the default
    /// and maximum TTL is four weeks" (Firebase, "Setting the lifespan of a message").
    public static let fcmStorage: TimeInterval = 28 * 86_400
    /// Collapse keys FCM keeps per device: "FCM allows a maximum of four different collapse keys
    /// … per device at any given time. If you exceed this number, FCM only keeps four collapse
    /// keys, with no guarantees about which ones are kept" (Firebase, "Non-collapsible and
    /// collapsible messages"); pushdeck keeps the four used last.
    public static let fcmCollapseKeyLimit = 4
    /// More than this many messages stored for one app on one device end in `onDeletedMessages`.
    public static let fcmPendingLimit = 100

    /// Whether `message` is an FCM message to an Android device.
    static func isFCMAndroid(_ message: Message) -> Bool { message.fcm?.platform == .android }

    /// The callback an Android FCM message reaches now: the tray for a notification message
    /// while the app is not in the foreground, else `onMessageReceived`.
    func fcmCallback(channel: Channel) -> String {
        channel == .android && settings.appState != .foreground ? Self.systemTray : Self.onMessageReceived
    }

    /// An Android FCM message as the device hands it on now: in the tray it is unread and counts
    /// (its `notification_count` is what the launcher shows); through `onMessageReceived` it is
    /// the app's alone — listed, already read, no banner, no badge (as a silent push is).
    func fcmDelivered(_ message: Message) -> Message {
        var message = message
        message.callback = fcmCallback(channel: message.channel)
        if message.callback == Self.onMessageReceived {
            message.silent = true
            message.read = true
        }
        return message
    }

    /// The push as it reaches the app (see `fcmDelivered`): `onMessageReceived` takes no
    /// badge directive.
    func fcmArriving(_ push: Push) -> Push {
        guard push.fcm?.platform == .android, fcmCallback(channel: push.channel) == Self.onMessageReceived else { return push }
        var push = push
        push.silent = true
        push.badge = nil
        push.collapseId = nil
        return push
    }

    /// When an Android FCM message stored for an offline device expires: its arrival plus
    /// `android.ttl` (four weeks without one; `0s` is "now or never": never stored).
    static func fcmExpiry(of message: Message) -> Date? {
        guard let fcm = message.fcm, fcm.platform == .android else { return nil }
        return message.receivedAt.addingTimeInterval(min(fcm.ttlSeconds ?? fcmStorage, fcmStorage))
    }

    /// What storing `message` for an offline device discards of `stored` (the device's messages
    /// of the same app): the earlier one with its `collapse_key`, and past four collapse keys the
    /// messages of the key used longest ago.
    static func fcmDiscarded(for message: Message, among stored: [Message]) -> [Message] {
        guard let key = message.fcm?.collapseKey else { return [] }
        let sameApp = stored.filter { isFCMAndroid($0) && $0.app == message.app && $0.fcm?.collapseKey != nil }
        var discarded = sameApp.filter { $0.fcm?.collapseKey == key }
        let others = sameApp.filter { $0.fcm?.collapseKey != key }
        // Keys by when they were last used, oldest first; the new message's key is the newest.
        var keys: [String] = []
        for stored in others { if let other = stored.fcm?.collapseKey { keys.removeAll { $0 == other }; keys.append(other) } }
        let over = keys.count + 1 - fcmCollapseKeyLimit
        if over > 0 {
            let dropped = Set(keys.prefix(over))
            discarded += others.filter { dropped.contains($0.fcm?.collapseKey ?? "") }
        }
        return discarded
    }

    /// The message `onDeletedMessages` stands for: what the app learns instead of `count`
    /// messages of `app` it will never get (listed, read: the app's, not the user's).
    func fcmDeletedMessages(app: String, token: String?, count: Int, project: String, at date: Date) -> Message {
        var message = Message(
            id: nextId, app: app, channel: .transparent, title: Self.onDeletedMessages,
            body: "\(count) pending messages were deleted (more than \(Self.fcmPendingLimit) stored)", read: true,
            offline: true, receivedAt: date, payload: "{}", silent: true, via: .fcm, token: token)
        message.callback = Self.onDeletedMessages
        message.fcm = FCMFacts(project: project, messageName: "", platform: .android)
        return message
    }
}

extension Inbox {
    /// A device connecting again with more than 100 FCM messages stored for one app: they are
    /// deleted, and the app gets `onDeletedMessages` instead (one listed message standing for
    /// them, delivered now at wall time `date`).
    mutating func deleteExcessFCM(token: String?, at date: Date, into outcome: inout Outcome) {
        let device = deviceKey(of: token)
        let stored = held.filter { Self.isFCMAndroid($0) && deviceKey(of: $0.token) == device }
        let byApp = Dictionary(grouping: stored, by: \.app)
        for app in byApp.keys.sorted() {
            guard let pending = byApp[app], pending.count > Self.fcmPendingLimit else { continue }
            let ids = pending.map(\.id)
            removeHeld(Set(ids))
            outcome.write(.delete(ids))
            outcome.publish(.messageDropped, [
                "reason": "onDeletedMessages", "app": .string(app), "ids": .array(ids.map { .number(JSONNumber($0)) }),
            ])
            let message = fcmDeletedMessages(
                app: app, token: pending.last?.token, count: pending.count, project: pending.last?.fcm?.project ?? "", at: date)
            nextId += 1
            outcome.write(.insert(message))
            outcome.publish(.messageReceived, message: message)
        }
    }
}
