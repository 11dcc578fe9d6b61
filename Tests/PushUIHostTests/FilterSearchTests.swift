import PushCore
import PushStore
import Testing
import TestSupport
@testable import PushUIHost

/// The UI's filter searched a range of ids at a time, against a real SQLite store: it must end
/// with exactly what one full scan finds, and keep up with pushes, reads and deletes meanwhile.
@Suite struct FilterSearchTests {
    /// 95 messages: every third titled "Order …", every fifth with "order" only in its body.
    func seededStore(_ folder: TempFolder) throws -> Store {
        let store = try Store(path: folder.file("inbox.sqlite"))
        try store.write((1...95).map { id in
            .insert(SampleMessages.message(
                id, title: id % 3 == 0 ? "Order \(id) shipped" : "News \(id)",
                body: id % 5 == 0 ? "your ORDER is late" : "訂單 \(id)"))
        })
        return store
    }

    func expected(_ ids: ClosedRange<Int64>) -> [Int64] {
        ids.reversed().filter { $0 % 3 == 0 || $0 % 5 == 0 }
    }

    @Test func aSearchInRangesEndsWithWhatAFullScanFinds() throws {
        let folder = TempFolder()
        let store = try seededStore(folder)
        defer { store.close() }
        let search = FilterSearch(rangeSize: 10)
        var steps = 0
        repeat {
            try search.advance(filter: "order", in: store)
            steps += 1
            // Every step's matches are the newest ones, newest first.
            #expect(search.matches == Array(expected(1...95).prefix(search.matches.count)))
        } while search.isSearching && steps < 100
        #expect(steps == 10)
        #expect(search.matches == expected(1...95))
        #expect(search.matches == (try store.page(offset: 0, limit: 1000, filter: "order")).map(\.id))
        #expect(search.matches.count == (try store.count(filter: "order")))
        // Pages are the matches in order, whole messages.
        let page = try search.page(offset: 3, limit: 4, in: store)
        #expect(page.map(\.id) == Array(expected(1...95)[3..<7]))
        #expect(try search.page(offset: 1000, limit: 4, in: store).isEmpty)
    }

    @Test func newMessagesAreSearchedAloneAndGoFirst() throws {
        let folder = TempFolder()
        let store = try seededStore(folder)
        defer { store.close() }
        let search = FilterSearch(rangeSize: 40)
        try search.advance(filter: "order", in: store)
        #expect(search.isSearching)
        try store.write([.insert(SampleMessages.message(96, title: "Order 96")), .insert(SampleMessages.message(97, title: "Weather"))])
        try search.advance(filter: "order", in: store)
        #expect(search.matches.first == 96)
        while search.isSearching { try search.advance(filter: "order", in: store) }
        #expect(search.matches == [96] + expected(1...95))
        // Reading changes nothing listed; the matches stay, with no new search.
        let generation = search.generation
        try store.write([.markRead([90, 93])])
        try search.advance(filter: "order", in: store)
        #expect(search.generation == generation)
        #expect(try search.page(offset: 0, limit: 3, in: store).map(\.read) == [false, false, true])
    }

    @Test func aDeleteOrANewFilterStartsOver() throws {
        let folder = TempFolder()
        let store = try seededStore(folder)
        defer { store.close() }
        let search = FilterSearch(rangeSize: 1000)
        try search.advance(filter: "order", in: store)
        #expect(!search.isSearching)
        try store.write([.delete([93, 90])])
        try search.advance(filter: "order", in: store)
        #expect(search.matches == expected(1...95).filter { $0 != 93 && $0 != 90 })
        try search.advance(filter: "訂單 7", in: store)
        #expect(search.matches == [79, 78, 77, 76, 74, 73, 72, 71, 7])  // 70 and 75 have the other body
        try search.advance(filter: "no such text", in: store)
        #expect(search.matches.isEmpty && !search.isSearching)
    }

    @Test func aStoreErrorEndsTheSearchInsteadOfRetryingEveryTurn() throws {
        let folder = TempFolder()
        let store = try seededStore(folder)
        let search = FilterSearch(rangeSize: 10)
        try search.advance(filter: "order", in: store)
        #expect(search.isSearching)
        store.close()
        #expect(throws: SQLiteError.self) { try search.advance(filter: "order", in: store) }
        search.abandon()
        #expect(!search.isSearching)
        // Once the store works again, the same filter searches anew.
        let reopened = try Store(path: folder.file("inbox.sqlite"))
        defer { reopened.close() }
        while true {
            try search.advance(filter: "order", in: reopened)
            if !search.isSearching { break }
        }
        #expect(search.matches == expected(1...95))
    }

    @Test func anEmptyStoreHasNothingToSearch() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        defer { store.close() }
        let search = FilterSearch()
        try search.advance(filter: "x", in: store)
        #expect(search.matches.isEmpty && !search.isSearching)
    }
}
