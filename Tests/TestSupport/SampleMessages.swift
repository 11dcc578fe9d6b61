import Foundation
import PushCore

/// Messages and inboxes for UI tests, with fixed times so snapshots do not move.
public enum SampleMessages {
    /// The wall clock's "now" in UI tests (2025-11-30 10:00:00 UTC, a Sunday).
    public static let now = Date(timeIntervalSince1970: 1_764_496_800)

    public static func message(
        _ id: Int64, app: String = "com.example.shop", channel: Channel = .apns, title: String? = nil,
        subtitle: String? = nil, body: String? = nil, url: String? = nil, read: Bool = false,
        secondsAgo: Double = 0, payload: String? = nil, taskId: String? = nil, msgId: String? = nil
    ) -> Message {
        Message(
            id: id, app: app, channel: channel, title: title, subtitle: subtitle, body: body, url: url,
            read: read, receivedAt: now.addingTimeInterval(-secondsAgo), taskId: taskId, msgId: msgId,
            payload: payload ?? #"{"aps":{"alert":{"title":"\#(title ?? "")","body":"\#(body ?? "")"}}}"#)
    }

    /// The store changes that put `messages` in a store as the loop would have: their rows and,
    /// as the reducer's `.unread` effect, each app's unread count (the store never recounts rows).
    public static func storeChanges(_ messages: [Message]) -> [StoreChange] {
        var unread: [String: Int] = [:]
        for message in messages where !message.read && !message.held { unread[message.app, default: 0] += 1 }
        return messages.map(StoreChange.insert) + unread.sorted { $0.key < $1.key }.map { .unread(app: $0.key, count: $0.value) }
    }

    /// A mixed inbox of English, Chinese and emoji messages across both channels, newest first.
    public static func sampleMessages() -> [Message] {
        [
            message(7, title: "官方客服", body: "您有一條新消息：訂單 1270339 已發貨，點擊查看物流", secondsAgo: 10),
            message(6, app: "com.example.news", channel: .transparent, title: "Morning brief",
                    body: "早報：今日天氣晴 ☀️ 氣溫 18°C", secondsAgo: 180, taskId: "GT-0001", msgId: "5077"),
            message(5, app: "com.example.chat", title: "👨‍👩‍👧 Family", body: "Dinner at 7? ❤️🇯🇵", read: true,
                    secondsAgo: 7200),
            message(4, title: "Order shipped", body: "Order 1270339 is on its way", read: true, secondsAgo: 2 * 86_400),
            message(3, app: "com.example.news", channel: .transparent, body: "ｆｕｌｌｗｉｄｔｈ ＡＳＣＩＩ and café",
                    secondsAgo: 40 * 86_400),
            message(2, app: "com.example.bank", title: "Security alert", body: "New sign-in from Linux", read: true,
                    secondsAgo: 400 * 86_400),
        ]
    }

    /// An inbox whose counters match `sampleMessages()`.
    public static func sampleInbox(mode: PushMode = .on, appState: AppState = .foreground, dropped: Int = 0,
                                   serverBadge: Int? = nil) -> Inbox {
        var inbox = Inbox()
        inbox.unread = ["com.example.shop": 1, "com.example.news": 2]
        inbox.badges = ["com.example.shop": Badge(icon: 1, server: 1),
                        "com.example.news": Badge(icon: 2, server: serverBadge.map { $0 - 1 } ?? 2)]
        inbox.settings = InboxSettings(mode: mode, appState: appState, dropped: dropped)
        inbox.nextId = 8
        return inbox
    }
}
