import PushJSON

// MARK: - The two badge ledgers: the icon and the push server's count

extension Inbox {
    /// The app's badge after a delivery: +1, or what the payload says.
    ///
    /// `aps.badge` sets the icon; Getui's `autoBadge` moves the server's count and the icon takes
    /// it, as a server-side badge push does. With sync on the server then follows the icon, as
    /// the Getui sample app calls `setBadge` after every change (after `autoBadge` they already
    /// agree).
    /// Returns the app's ledgers after it.
    ///
    /// Under the `platform` policy only a directive on an APNs message moves anything, and
    /// nothing syncs the server badge.
    @discardableResult
    mutating func countDelivery(app: String, directive: BadgeDirective?, channel: Channel = .apns, into outcome: inout Outcome) -> Badge {
        if badgePolicy(of: app) == .platform, directive == nil || channel == .transparent { return badge(of: app) }
        return changeLedgers(of: app, into: &outcome) { badge in
            switch directive {
            case nil:
                badge.icon += 1
            case .set(let value):
                badge.icon = max(0, value)
            case .autoAdd(let delta):
                badge.server = max(0, badge.server + delta)
                badge.icon = badge.server
            case .autoSet(let value):
                badge.server = max(0, value)
                badge.icon = badge.server
            }
        }
    }

    /// A delivered message of `app` is unread: unread +1 (the badge is `countDelivery`'s).
    /// With `uncount`, the one place the unread count moves; the store keeps what it is told.
    mutating func countUnread(app: String, into outcome: inout Outcome) {
        noteCounts(of: app, in: &outcome)
        unread[app, default: 0] += 1
    }

    /// One unread message of `app` was read or deleted: unread −1 and icon −1, neither below 0
    /// (at 0 a Getui SDK wrapper shared by several apps cancels all local notifications and sets
    /// 0 rather than going negative).
    /// Under the `platform` policy reading leaves the icon.
    mutating func uncount(app: String, messages: Int = 1, into outcome: inout Outcome) {
        noteCounts(of: app, in: &outcome)
        unread[app] = max(0, unread[app, default: 0] - messages)
        guard badgePolicy(of: app) == .app else { return }
        changeLedgers(of: app, into: &outcome) { badge in badge.icon = max(0, badge.icon - messages) }
    }

    /// Changes the app's ledgers locally, the server following the icon when synced, after
    /// noting in `outcome` what they were before, and returns them.
    @discardableResult
    private mutating func changeLedgers(of app: String, into outcome: inout Outcome, _ change: (inout Badge) -> Void) -> Badge {
        // Syncing is app code (`setBadge` after each change); the platform policy has none.
        let sync = settings.badgeSync && badgePolicy(of: app) == .app
        noteCounts(of: app, in: &outcome)
        // `default:` stores the app's ledgers even when unchanged, as assigning them did.
        return Self.update(&badges[app, default: Badge()]) { badge in
            change(&badge)
            if sync { badge.server = badge.icon }
        }
    }

    private static func update(_ badge: inout Badge, _ body: (inout Badge) -> Void) -> Badge {
        body(&badge)
        return badge
    }

    /// The `badge` op: an optional sync switch, then an optional change.
    ///
    /// Sync is applied first, so `--set 3 --sync off` leaves the server where it was. Turning
    /// sync on does not move the server by itself; the next local change does, as the Getui sample
    /// app's `setBadge` follows a change. `clear` zeroes both ledgers (JPush `resetBadge`, Getui
    /// `setBadge:0`), of every app when no app is given; `set` without an app sets `default`.
    mutating func applyBadgeRequest(app: String?, change: BadgeChange?, sync: Bool?, into outcome: inout Outcome) {
        if let sync, sync != settings.badgeSync {
            settings.badgeSync = sync
            outcome.write(.settings(settings))
        }
        switch change {
        case nil:
            break
        case .set(let value):
            let target = app ?? Inbox.defaultApp
            changeLedgers(of: target, into: &outcome) { badge in badge.icon = max(0, value) }
        case .clear:
            for target in app.map({ [$0] }) ?? Array(badges.keys) {
                noteCounts(of: target, in: &outcome)
                badges[target] = Badge(icon: 0, server: 0)
            }
        }
        outcome.reply = .ledgers(ledgers(of: app))
    }

    /// The app a push or badge command goes to when none is named.
    public static let defaultApp = "default"
}
