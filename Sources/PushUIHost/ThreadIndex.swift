import PushCore
import PushStore

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
