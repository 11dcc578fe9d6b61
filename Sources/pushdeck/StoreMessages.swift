import PushCore
import PushStore
import PushTUI

/// The store as the screen's message source. A read that fails shows an empty window and is
/// reported once through `failure`, never crashes the UI.
struct StoreMessages: MessageSource {
    let store: Store
    /// The counts taken at this store revision (the server's write counter).
    var counts = ListedCounts()
    var revision = 0
    /// The filter's matches so far; filtered counts and pages come from it.
    var search: FilterSearch?
    /// Thread sizes, kept up to date by the host while the list is grouped.
    var threads = ThreadIndex()
    let failure: (String) -> Void

    func count(filter: String) -> Int {
        if !filter.isEmpty, let search, search.filter == filter { return search.matches.count }
        if let known = counts.count(filter: filter, revision: revision) { return known }
        let counted = attempt { () throws(SQLiteError) in try store.count(filter: filter) } ?? 0
        counts.remember(counted, filter: filter, revision: revision)
        return counted
    }

    func page(offset: Int, limit: Int, filter: String) -> [Message] {
        if !filter.isEmpty, let search, search.filter == filter {
            return attempt { () throws(SQLiteError) in try search.page(offset: offset, limit: limit, in: store) } ?? []
        }
        let total = filter.isEmpty ? counts.count(filter: "", revision: revision) : nil
        return attempt { () throws(SQLiteError) in
            try store.page(offset: offset, limit: limit, filter: filter, total: total)
        } ?? []
    }

    func groupedCount() -> Int {
        let listed = count(filter: "")
        return max(0, listed - threads.threaded + threads.sizes.count)
    }

    func groupedPage(offset: Int, limit: Int) -> [Message] {
        let total = groupedCount()
        return attempt { () throws(SQLiteError) in try store.groupedPage(offset: offset, limit: limit, total: total) } ?? []
    }

    func threadSize(_ thread: ThreadKey) -> Int { threads.sizes[thread] ?? 0 }

    func groupedPosition(of thread: ThreadKey) -> Int? {
        if let known = counts.position(of: thread, revision: revision) { return known }
        let position = attempt { () throws(SQLiteError) in try store.groupedPosition(of: thread) } ?? nil
        counts.remember(position: position, of: thread, revision: revision)
        return position
    }

    func threadMembers(_ thread: ThreadKey, offset: Int, limit: Int) -> [Message] {
        attempt { () throws(SQLiteError) in try store.threadMembers(thread, offset: offset, limit: limit) } ?? []
    }

    func message(id: Int64) -> Message? {
        attempt { () throws(SQLiteError) in try store.message(id: id, includeHeld: true) } ?? nil
    }

    private func attempt<T>(_ body: () throws(SQLiteError) -> T) -> T? {
        do {
            return try body()
        } catch {
            failure("store: \(error)")
            return nil
        }
    }
}

/// Listed-message counts kept while the store does not change: counting a million rows took
/// longer than drawing the frame that needed the count, and a scroll needs it again.
final class ListedCounts {
    private var revision = -1
    private var counts: [String: Int] = [:]
    /// Where the expanded thread's row is in the grouped list (nil inside: it has none).
    private var positions: [ThreadKey: Int?] = [:]

    func count(filter: String, revision: Int) -> Int? {
        revision == self.revision ? counts[filter] : nil
    }

    func remember(_ count: Int, filter: String, revision: Int) {
        start(revision)
        counts[filter] = count
    }

    func position(of thread: ThreadKey, revision: Int) -> Int?? {
        revision == self.revision ? positions[thread] : nil
    }

    func remember(position: Int?, of thread: ThreadKey, revision: Int) {
        start(revision)
        positions[thread] = .some(position)
    }

    private func start(_ revision: Int) {
        guard revision != self.revision else { return }
        self.revision = revision
        counts = [:]
        positions = [:]
    }
}

/// How many listed messages each thread has, for the grouped list's length and its rows' counts.
///
/// Built once from `messages_thread` (a walk of the threaded messages' index entries), then kept:
/// new messages are added as they arrive (a lookup of the new ids); only a delete, a release or a
/// replacement (`Store.listingChanges`) builds it again.
final class ThreadIndex {
    private(set) var sizes: [ThreadKey: Int] = [:]
    /// Listed messages that are in a thread.
    private(set) var threaded = 0
    private var highestSeen: Int64 = -1
    private var listingChanges = -1

    func update(in store: Store) throws(SQLiteError) {
        let highest = try store.highestId()
        if store.listingChanges != listingChanges || highest < highestSeen || highestSeen < 0 {
            sizes = try store.threadSizes()
            threaded = sizes.values.reduce(0, +)
            listingChanges = store.listingChanges
        } else if highest > highestSeen {
            for key in try store.threads(in: (highestSeen + 1)..<(highest + 1)) {
                sizes[key, default: 0] += 1
                threaded += 1
            }
        }
        highestSeen = highest
    }

    /// Forgets everything (after a store error): the next update builds it again.
    func reset() {
        sizes = [:]
        threaded = 0
        highestSeen = -1
    }
}
