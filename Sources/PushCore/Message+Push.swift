import Foundation

extension Message {
    /// The message a push becomes, with its id and wall-clock arrival.
    init(_ push: Push, id: Int64, receivedAt: Date) {
        self.init(
            id: id, app: push.app, channel: push.channel, title: push.title, subtitle: push.subtitle,
            body: push.body, url: push.url, offline: push.offline, receivedAt: receivedAt,
            taskId: push.taskId, msgId: push.msgId, payload: push.payload, via: push.via, token: push.token,
            apnsHeaders: push.headers)
        collapseId = push.collapseId
        threadId = push.threadId
        relevance = push.relevance
        silent = push.silent
        interruption = push.interruption?.rawValue
        badgeDirective = push.badge
        timeToLive = push.timeToLive
        fcm = push.fcm
    }
}

extension Message {
    /// What the list's channel column says: `FCM` for every message through FCM (an Android
    /// notification, a data message, an iOS token's APNs push), else the channel's short name.
    public var sourceName: String { via == .fcm ? "FCM" : channel.shortName }
}
