import Foundation
import PushCore
import PushStore
import PushTUI
import Testing
import TestSupport

/// The grouped list read from a real database file agrees with the same messages
/// grouped in memory, page by page, with a deleted thread head and held messages in the mix.
@Suite struct ThreadQueryTests {
    struct Fixture {
        let folder = TempFolder()
        let store: Store
        var listed: [Message] = []

        init() throws {
            store = try Store(path: folder.file("threads.sqlite"))
            var random = SeededRandom(seed: 13)
            var all: [Message] = []
            for id in Int64(1)...3_000 {
                var message = Samples.message(id, app: ["a", "b"][Int(random.next() % 2)], held: random.next() % 40 == 0)
                if random.next() % 3 != 0 {
                    message.threadId = "t\(random.next() % 12)"
                    message.relevance = random.next() % 2 == 0 ? nil : Double(random.next() % 5) / 4
                }
                all.append(message)
            }
            try store.write(all.map { .insert($0) })
            // Delete a few, among them the newest message of some thread.
            let deleted = all.filter { $0.id % 97 == 0 || $0.id == 3_000 }.map(\.id)
            try store.write([.delete(deleted)])
            listed = all.filter { !$0.held && !deleted.contains($0.id) }.reversed()
        }
    }

    @Test func groupedPagesSizesPositionsAndMembersMatchTheListInMemory() throws {
        let fixture = try Fixture()
        let store = fixture.store
        let memory = ArrayMessageSource(fixture.listed)
        #expect(try store.groupedPage(offset: 0, limit: 5_000) == memory.groupedPage(offset: 0, limit: 5_000))
        let sizes = try store.threadSizes()
        let total = memory.groupedCount()
        #expect(try store.count() - sizes.values.reduce(0, +) + sizes.count == total)
        for offset in stride(from: 0, to: total, by: 37) {
            // From the newest end and, in the older half, from the oldest end.
            #expect(try store.groupedPage(offset: offset, limit: 22, total: total) == memory.groupedPage(offset: offset, limit: 22))
        }
        for (key, size) in sizes {
            #expect(memory.threadSize(key) == size)
            #expect(try store.groupedPosition(of: key) == memory.groupedPosition(of: key))
            #expect(try store.threadMembers(key, offset: 0, limit: 10_000) == memory.threadMembers(key, offset: 0, limit: 10_000))
            #expect(try store.threadMembers(key, offset: 5, limit: 7) == memory.threadMembers(key, offset: 5, limit: 7))
        }
        #expect(try store.groupedPosition(of: ThreadKey(app: "a", thread: "none")) == nil)
        // New arrivals are found by their ids alone.
        let keys = try store.threads(in: 2_990..<3_001)
        #expect(keys == fixture.listed.filter { $0.id >= 2_990 }.reversed().compactMap(\.threadKey))
    }

    @Test func relevanceIsStoredAndReadBack() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("r.sqlite"))
        var message = Samples.message(1)
        message.threadId = "x"
        message.relevance = 0.75
        try store.write([.insert(message)])
        #expect(try store.message(id: 1)?.relevance == 0.75)
        #expect(try store.message(id: 1)?.threadId == "x")
    }
}
