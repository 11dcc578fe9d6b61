import Foundation

/// The tokens `/auth` handed out, pruned as it hands out more: O(1) amortised per token.
///
/// Tokens live equally long, so they expire in the order they were issued: `order` keeps that
/// order (consumed from `head`), and an issue drops the expired ones from its front. An app's
/// own tokens are a queue in the same order, so its oldest is at its front when the per-app cap
/// takes it. A token taken that way stays in `order` until its turn comes; `order` is rebuilt
/// from the live tokens when it holds more than twice as many entries as there are live tokens.
struct TokenBook {
    struct Entry {
        var appId: String
        var expires: Date
    }

    /// A queue in an array, consumed from `head`; the consumed front is dropped once it is most of the array.
    struct Queue {
        var items: [String] = []
        var head = 0
        var count: Int { items.count - head }
        var first: String? { head < items.count ? items[head] : nil }

        mutating func append(_ item: String) { items.append(item) }

        mutating func removeFirst() {
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
        }
    }

    var live: [String: Entry] = [:]
    /// Every token issued and not yet passed over, oldest first (some no longer live).
    var order = Queue()
    /// Each appId's live tokens, oldest first.
    var byApp: [String: Queue] = [:]

    mutating func issue(_ token: String, appId: String, expires: Date, now: Date) {
        // The expired ones, from the oldest.
        while let oldest = order.first {
            if let entry = live[oldest] {
                guard entry.expires <= now else { break }
                forget(oldest, of: entry.appId)
            }
            order.removeFirst()
        }
        if let oldestOfApp = byApp[appId]?.first, (byApp[appId]?.count ?? 0) >= GetuiSessions.maxTokensPerApp {
            forget(oldestOfApp, of: appId)
        }
        while live.count >= GetuiSessions.maxTokens, let oldest = order.first {
            if let entry = live[oldest] { forget(oldest, of: entry.appId) }
            order.removeFirst()
        }
        live[token] = Entry(appId: appId, expires: expires)
        order.append(token)
        byApp[appId, default: Queue()].append(token)
        if order.count > 2 * live.count + 64 {
            // Mostly tokens the per-app cap took: keep the live ones, in their order.
            order = Queue(items: order.items[order.head...].filter { live[$0] != nil }, head: 0)
        }
    }

    /// Drops `token`, the oldest live token of `appId`.
    private mutating func forget(_ token: String, of appId: String) {
        live[token] = nil
        byApp[appId]?.removeFirst()
        if byApp[appId]?.count == 0 { byApp[appId] = nil }
    }
}
