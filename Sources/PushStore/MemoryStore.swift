import Foundation
import PushCore

/// The store's in-memory side: the same lookups and the same writes as the SQLite `Store`,
/// held in dictionaries, for the instant scenario player (the engine over memory on a manual
/// clock) and for tests. `StoreConformanceTests` holds both stores to the same answers.
///
/// Only messages are kept: the ledgers, unread counts, settings, devices, keys and Getui request
/// ids live in the inbox itself, and nothing in a session reads them back from the store.
public final class MemoryStore: InboxStore {
    /// Every message, held ones included, by id.
    private var messages: [Int64: Message] = [:]
    /// Ids in the order they were handed out (ascending); a deleted id stays until `compact`.
    private var order: [Int64] = []
    /// Ids per app and collapse id, ascending: a collapse lookup walks back from the newest.
    private var collapsed: [CollapseKey: [Int64]] = [:]
    /// Ids that may be unread, per app (read or deleted ones are skipped when used): reading all
    /// visits these, not every message, so a long session stays linear.
    private var maybeUnread: [String: [Int64]] = [:]

    public init() {}

    // MARK: - Lookups

    public func replaceable(app: String, collapseId: String) -> ReplacedMessage? {
        for id in (collapsed[CollapseKey(app: app, collapseId: collapseId)] ?? []).reversed() {
            if let message = messages[id], !message.held, message.collapseId == collapseId { return ReplacedMessage(message) }
        }
        return nil
    }

    public func messages(ids: [Int64], includeHeld: Bool) -> [Message] {
        var seen = Set<Int64>()
        return ids.compactMap { id in
            guard seen.insert(id).inserted, let message = messages[id], includeHeld || !message.held else { return nil }
            return message
        }
    }

    public func page(_ query: ListQuery) -> [Message] {
        var found: [Message] = []
        for id in order.reversed() {
            if found.count == query.limit { break }
            guard let message = messages[id], !message.held else { continue }
            if let before = query.before, id >= before { continue }
            if query.unread && message.read { continue }
            if let app = query.app, message.app != app { continue }
            found.append(message)
        }
        return found
    }

    // MARK: - Writes

    public func apply(_ change: StoreChange) {
        switch change {
        case .insert(let message):
            messages[message.id] = message
            order.append(message.id)
            index(message)
            noteUnread(message)
        case .replace(let message):
            guard messages[message.id] != nil else { return }
            // The row keeps its place and its delivery flags; the content is the new push's.
            let old = messages[message.id]
            var replaced = message
            replaced.held = old?.held ?? false
            replaced.launch = old?.launch ?? false
            replaced.expired = old?.expired ?? false
            messages[message.id] = replaced
            index(replaced)
            noteUnread(replaced)
        case .expire(let ids):
            for id in ids where messages[id]?.held == true {
                messages[id]?.held = false
                messages[id]?.read = true
                messages[id]?.expired = true
            }
        case .markRead(let ids):
            for id in ids where messages[id]?.held == false { messages[id]?.read = true }
        case .markAllRead(let app):
            for target in app.map({ [$0] }) ?? Array(maybeUnread.keys) {
                for id in maybeUnread[target] ?? [] where messages[id]?.held == false { messages[id]?.read = true }
                maybeUnread[target] = nil
            }
        case .delete(let ids):
            for id in ids { messages[id] = nil }
            compact()
        case .release(let ids):
            for id in ids where messages[id]?.held == true {
                messages[id]?.held = false
                messages[id]?.offline = true
                if let message = messages[id] { noteUnread(message) }
            }
        case .setLaunch(let id):
            for (other, message) in messages where message.launch && other != id { messages[other]?.launch = false }
            messages[id]?.launch = true
        case .reset(let app, _, _):
            messages = messages.filter { app != nil && $0.value.app != app }
            if let app { maybeUnread[app] = nil } else { maybeUnread = [:] }
            compact()
        case .badge, .unread, .settings, .device, .removeDevice, .providerKey, .removeProviderKey, .getuiRequestId, .activity,
            .activityUnmatched, .outboxAdd, .outboxRemove, .busPushSeen, .broadcastChannel, .removeBroadcastChannel:
            break
        }
    }

    private func noteUnread(_ message: Message) {
        if !message.read { maybeUnread[message.app, default: []].append(message.id) }
    }

    private func index(_ message: Message) {
        guard let collapseId = message.collapseId else { return }
        let key = CollapseKey(app: message.app, collapseId: collapseId)
        if collapsed[key]?.last != message.id { collapsed[key, default: []].append(message.id) }
    }

    /// Drops the ids of deleted messages from the indexes once they are a good part of them, so
    /// walks stay proportional to what is stored.
    private func compact() {
        guard order.count > 64, messages.count * 2 < order.count else { return }
        order.removeAll { messages[$0] == nil }
        for key in Array(collapsed.keys) {
            collapsed[key]?.removeAll { messages[$0] == nil }
            if collapsed[key]?.isEmpty == true { collapsed[key] = nil }
        }
    }

    private struct CollapseKey: Hashable {
        var app: String
        var collapseId: String
    }
}
