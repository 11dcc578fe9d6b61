import PushCore
import PushStore
import PushTUI

/// The store as the screen's message source. A read that fails shows an empty window and is
/// reported once through `failure`, never crashes the UI.
struct StoreMessages: MessageSource {
    let store: Store
    let failure: (String) -> Void

    func count(filter: String) -> Int {
        attempt { () throws(SQLiteError) in try store.count(filter: filter) } ?? 0
    }

    func page(offset: Int, limit: Int, filter: String) -> [Message] {
        attempt { () throws(SQLiteError) in try store.page(offset: offset, limit: limit, filter: filter) } ?? []
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
