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

    func count(filter: String, revision: Int) -> Int? {
        revision == self.revision ? counts[filter] : nil
    }

    func remember(_ count: Int, filter: String, revision: Int) {
        if revision != self.revision {
            self.revision = revision
            counts = [:]
        }
        counts[filter] = count
    }
}
