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
