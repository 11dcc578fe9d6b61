import Foundation

extension Message {
    /// The message a push becomes, with its id and wall-clock arrival (its fields made in one
    /// go: a write through each property is an exclusive access of the box each).
    init(_ push: Push, id: Int64, receivedAt: Date) {
        let pushed = push.box.fields
        box = SharedFields(Fields(
            id: id, app: pushed.app, channel: pushed.channel, title: pushed.title, subtitle: pushed.subtitle, body: pushed.body,
            url: pushed.url, read: false, offline: pushed.offline, launch: false, held: false, receivedAt: receivedAt,
            taskId: pushed.taskId, msgId: pushed.msgId, payload: pushed.payload, collapseId: pushed.collapseId,
            threadId: pushed.threadId, relevance: pushed.relevance, silent: pushed.silent,
            interruption: pushed.interruption?.rawValue, via: pushed.via, token: pushed.token, apnsHeaders: pushed.headers,
            badgeDirective: pushed.badge, timeToLive: pushed.timeToLive, fcm: pushed.fcm))
    }
}

extension Message {
    /// What the list's channel column says: `FCM` for every message through FCM (an Android
    /// notification, a data message, an iOS token's APNs push), else the channel's short name.
    public var sourceName: String { via == .fcm ? "FCM" : channel.shortName }
}
