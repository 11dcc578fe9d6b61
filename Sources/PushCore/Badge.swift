/// The two badge ledgers of one app, as Getui and JPush keep them: the icon badge the app shows,
/// and the count the push server holds after the SDK's `setBadge`.
public struct Badge: Sendable, Equatable {
    public var icon: Int
    public var server: Int

    public init(icon: Int = 0, server: Int = 0) {
        self.icon = icon
        self.server = server
    }

    /// True when the ledgers disagree — Getui's server badge counting on from a number the icon no
    /// longer shows, because the app did not call `setBadge`; the UI flags it.
    public var drifted: Bool { icon != server }
}

/// The ledgers of one app (or the totals over apps) as a ledger reply and `expect` give them: the
/// icon badge, the server badge and the unread count — the inbox's own count, never a page of
/// messages counted.
public struct Ledgers: Sendable, Equatable {
    public var badge = 0
    public var serverBadge = 0
    public var unread = 0

    public init(badge: Int = 0, serverBadge: Int = 0, unread: Int = 0) {
        self.badge = badge
        self.serverBadge = serverBadge
        self.unread = unread
    }

    public init(_ badges: Badge, unread: Int) {
        self.init(badge: badges.icon, serverBadge: badges.server, unread: unread)
    }

    /// The icon and server badges.
    public var badges: Badge { Badge(icon: badge, server: serverBadge) }
}

/// How a payload moves the badge, when it says so itself.
public enum BadgeDirective: Sendable, Equatable {
    /// `aps.badge` N: the icon badge becomes N.
    case set(Int)
    /// Getui `autoBadge` "+N" / "-N": the server badge moves by N, then the icon takes its value.
    case autoAdd(Int)
    /// Getui `autoBadge` "N": the server badge becomes N, then the icon takes its value.
    case autoSet(Int)
}
