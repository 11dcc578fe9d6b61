import PushCore
import PushStore

/// The UI's `/` filter over a large inbox, searched a range of ids at a time.
///
/// Matching text needs a scan of every row: ~3.5 s for a million messages here, which in one
/// go would freeze the loop — keys, the banner and every client's pushes — at each key typed,
/// and again at each push while the filter is open. Instead the ids of the matches are kept,
/// newest first: a new filter searches the newest `rangeSize` ids at once and the older ones one
/// range per loop turn (the loop does not sleep meanwhile); new messages are searched alone as
/// they arrive; a page is a lookup of ids. Only a delete or a release (`Store.listingChanges`)
/// starts the search over.
final class FilterSearch {
    /// Ids searched per step: ~40 ms of the loop for the slowest match here.
    static let defaultRangeSize: Int64 = 10_000

    let rangeSize: Int64

    private(set) var filter = ""
    /// Matching ids, newest first, from `searched` up to `highestSearched`.
    private(set) var matches: [Int64] = []
    /// The lowest id searched so far; the search is done when it reaches 1.
    private var searched: Int64 = 1
    private var highestSearched: Int64 = 0
    private var listingChanges = -1
    /// Changes whenever the matches or the search's progress do: the screen reloads then.
    private(set) var generation = 0

    init(rangeSize: Int64 = FilterSearch.defaultRangeSize) {
        self.rangeSize = rangeSize
    }

    /// True while older ids are still to be searched.
    var isSearching: Bool { !filter.isEmpty && searched > 1 }

    /// Brings the matches up to date with `store` for `filter` and searches one more range of
    /// older ids. Call once a turn while the filter is set.
    func advance(filter: String, in store: Store) throws(SQLiteError) {
        let highest = try store.highestId()
        let before = (matches.count, searched, self.filter)
        defer { if before != (matches.count, searched, self.filter) { generation += 1 } }
        if filter != self.filter || store.listingChanges != listingChanges || highest < highestSearched {
            self.filter = filter
            listingChanges = store.listingChanges
            matches = []
            highestSearched = highest
            searched = highest + 1
        } else if highest > highestSearched {
            // New messages: searched alone, and they go first.
            matches.insert(contentsOf: try store.matchingIds(filter: filter, in: (highestSearched + 1)..<(highest + 1)), at: 0)
            highestSearched = highest
        }
        guard isSearching else { return }
        let lower = max(1, searched - rangeSize)
        matches += try store.matchingIds(filter: filter, in: lower..<searched)
        searched = lower
    }

    /// Stops searching older ids (after a store error: the loop must not spin on it); the next
    /// filter or listing change starts a new search.
    func abandon() {
        searched = 1
        listingChanges = -1
        generation += 1
    }

    /// The matches `offset ..< offset + limit` as messages, newest first.
    func page(offset: Int, limit: Int, in store: Store) throws(SQLiteError) -> [Message] {
        guard offset >= 0, offset < matches.count, limit > 0 else { return [] }
        return try store.messages(ids: Array(matches[offset..<min(matches.count, offset + limit)]))
    }
}
