import Foundation

/// What an expectation checks of the inbox at one moment: the ledgers of an app (or the totals),
/// its unread and held counts, the dropped count, the banner showing and the callback a message
/// reached. One rule for every way of asking: a scenario's expect played instantly reads it
/// from the inbox, played live from the running server's `state` reply.
public struct InboxReport: Sendable, Equatable {
    public var badge: Badge
    public var unread: Int
    /// Messages held for the app (pass-through while it is terminated, or stored for an
    /// offline device), not delivered yet.
    public var held: Int
    /// Pushes dropped while push mode was off (one count for the inbox).
    public var dropped: Int
    /// The banner showing now: its title, else its body; nil when none shows.
    public var banner: String?
    /// The app callback the asked-for message reached in the current state, when one was asked.
    public var callback: String?

    public init(badge: Badge, unread: Int, held: Int, dropped: Int, banner: String?, callback: String?) {
        self.badge = badge
        self.unread = unread
        self.held = held
        self.dropped = dropped
        self.banner = banner
        self.callback = callback
    }
}

extension Inbox {
    /// The ledgers of `app` (every app's totals when nil): badges and the unread count.
    public func ledgers(of app: String?) -> Ledgers {
        Ledgers(app.map { badge(of: $0) } ?? Badge(icon: totalBadge, server: totalServerBadge),
                unread: app.map { unread[$0] ?? 0 } ?? totalUnread)
    }

    /// The report of `app` (every app's totals when nil) at `now`, with the callback of
    /// `message` when given.
    public func report(app: String?, at now: Instant, message: Message? = nil) -> InboxReport {
        let ledgers = ledgers(of: app)
        let banner: String? = if let banner, bannerIsUp(at: now) { banner.message.title ?? banner.message.body } else { nil }
        return InboxReport(
            badge: ledgers.badges, unread: ledgers.unread,
            held: app.map { app in held.count { $0.app == app } } ?? held.count, dropped: dropped, banner: banner,
            callback: message.map { callback(for: $0) })
    }
}
