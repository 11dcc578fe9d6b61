import PushJSON

/// What one event does, gathered while the reducer works and handed out in effect order:
/// store writes, then bus events, then the reply.
///
/// One array holds the effects as they come, writes kept ahead of events, so a push costs one
/// allocation for its effects rather than a list per kind joined at the end.
struct Outcome {
    private var list: [Effect] = []
    /// How many of `list`'s first effects are store writes.
    private var writeCount = 0
    var reply: Reply?
    /// The apps whose ledgers or unread count the event touched, with both as they were before
    /// it: at the end each one that moved is written once, with its final value. Nearly every
    /// event touches one app, kept in `first`; `others` has the rest. With one dictionary for
    /// all, each push paid for a dictionary's storage and four more hashes of its app's name
    /// (callgrind: 4 % of a socket push's instructions).
    private var first: (app: String, counts: Counts)?
    private var others: [String: Counts] = [:]

    /// An app's two badge ledgers and unread count.
    struct Counts {
        var badge: Badge
        var unread: Int
    }

    mutating func write(_ change: StoreChange) {
        // A delivered push has seven: insert, unread, badge, its event, badge.changed,
        // banner.shown, the reply (room for one more: growing the list copies it).
        if list.isEmpty { list.reserveCapacity(8) }
        if writeCount == list.count {
            list.append(.store(change))
        } else {
            list.insert(.store(change), at: writeCount)
        }
        writeCount += 1
    }

    mutating func publish(_ topic: Topic, _ fields: JSONObject) { list.append(.publish(BusEvent(topic, fields))) }
    mutating func publish(_ topic: Topic, message: Message) { list.append(.publish(BusEvent(topic, message: message))) }
    mutating func publish(_ event: BusEvent) { list.append(.publish(event)) }

    /// Whether `app`'s counts are noted already.
    func hasNoted(_ app: String) -> Bool {
        guard let first else { return false }
        return first.app == app || others[app] != nil
    }

    /// Notes `app`'s counts as they are before the event changes them; only the first note of
    /// an app counts. Call it before changing either.
    mutating func noteCounts(of app: String, _ counts: @autoclosure () -> Counts) {
        if first == nil {
            first = (app, counts())
        } else if !hasNoted(app) {
            others[app] = counts()
        }
    }

    /// For each app whose counts moved, by app name: one `.unread` write when its unread count
    /// moved; one `.badge` write and one `badge.changed` when its ledgers did.
    mutating func recordCounts(of inbox: Inbox) {
        guard let first else { return }
        if others.isEmpty {
            record(first.app, first.counts, inbox)
            return
        }
        var noted = others
        noted[first.app] = first.counts
        for (app, counts) in noted.sorted(by: { $0.key < $1.key }) { record(app, counts, inbox) }
    }

    private mutating func record(_ app: String, _ old: Counts, _ inbox: Inbox) {
        let unread = inbox.unread[app] ?? 0
        if unread != old.unread { write(.unread(app: app, count: unread)) }
        let badge = inbox.badge(of: app)
        if badge != old.badge {
            write(.badge(app: app, badge))
            list.append(.publish(BusEvent(badgeChangedOf: app, badge)))
        }
    }

    /// The effects in order: writes, events, then the reply.
    mutating func effects() -> [Effect] {
        if let reply { list.append(.reply(reply)) }
        reply = nil
        return list
    }
}

extension Inbox {
    /// Notes `app`'s ledgers and unread count in `outcome` before they change (see `Outcome`).
    func noteCounts(of app: String, in outcome: inout Outcome) {
        outcome.noteCounts(of: app, Outcome.Counts(badge: badge(of: app), unread: unread[app] ?? 0))
    }
}
