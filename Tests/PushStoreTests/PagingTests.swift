import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// Pages from SQL equal what filtering every inserted message in Swift gives.
@Suite struct PagingTests {
    /// 10 000 messages over three apps, some read, some held, some deleted; what the store
    /// should list, newest first, kept beside it.
    struct Fixture {
        let store: Store
        let listed: [Message]
        let folder: TempFolder

        init(kind: StoreKind) throws {
            folder = TempFolder()
            store = try kind.open(in: folder)
            var random = SeededRandom(seed: 7)
            var all: [Message] = []
            for id in Int64(1)...10_000 {
                let app = ["a", "b", "c"][Int(random.next() % 3)]
                all.append(
                    Samples.message(id, app: app, read: random.next() % 3 == 0, held: random.next() % 50 == 0))
            }
            for batch in stride(from: 0, to: all.count, by: 1000) {
                try store.write(all[batch..<batch + 1000].map { .insert($0) })
            }
            let deleted = all.map(\.id).filter { _ in random.next() % 20 == 0 }
            try store.write([.delete(deleted)])
            let gone = Set(deleted)
            listed = all.filter { !$0.held && !gone.contains($0.id) }.reversed()
        }

        func expected(unread: Bool, app: String?) -> [Message] {
            listed.filter { (!unread || !$0.read) && (app == nil || $0.app == app) }
        }
    }

    static let filters: [(unread: Bool, app: String?)] = [(false, nil), (true, nil), (false, "b"), (true, "b"), (false, "none")]

    @Test(arguments: StoreKind.allCases)
    func olderPagesWalkTheWholeListNewestFirst(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        for (unread, app) in Self.filters {
            var walked: [Message] = []
            var before: Int64? = nil
            while true {
                let page = try fixture.store.page(ListQuery(limit: 37, unread: unread, before: before, app: app))
                #expect(page.count <= 37)
                guard let last = page.last else { break }
                walked += page
                before = last.id
            }
            #expect(walked == fixture.expected(unread: unread, app: app), "unread \(unread), app \(app ?? "any")")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func newerPagesWalkTheWholeListUpwards(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        for (unread, app) in Self.filters {
            var pages: [[Message]] = []
            var after: Int64 = 0
            while true {
                let page = try fixture.store.page(after: after, limit: 41, unread: unread, app: app)
                #expect(page.count <= 41)
                // Newest first within the page, like every page.
                #expect(page.map(\.id) == page.map(\.id).sorted(by: >))
                guard let newest = page.first else { break }
                pages.append(page)
                after = newest.id
            }
            #expect(pages.reversed().flatMap { $0 } == fixture.expected(unread: unread, app: app))
        }
    }

    @Test func aWindowCanScrollDownAndBackUp() throws {
        let fixture = try Fixture(kind: .file)
        let top = try fixture.store.page(ListQuery(limit: 20))
        let next = try fixture.store.page(ListQuery(limit: 20, before: top.last?.id))
        let back = try fixture.store.page(after: try #require(next.first).id, limit: 20)
        #expect(back == top)
        #expect(Array(fixture.listed[20..<40]) == next)
    }

    @Test func countsAndPositionsMatchTheList() throws {
        let fixture = try Fixture(kind: .file)
        let store = fixture.store
        for (unread, app) in Self.filters {
            let expected = fixture.expected(unread: unread, app: app)
            #expect(try store.count(unreadOnly: unread, app: app) == expected.count)
            for row in [0, 1, 500, expected.count - 1] where row >= 0 && row < expected.count {
                #expect(try store.countNewer(than: expected[row].id, unreadOnly: unread, app: app) == row)
            }
        }
    }

    @Test func limitsOutsideTheRangeNeverLoadEverything() throws {
        let fixture = try Fixture(kind: .memory)
        #expect(try fixture.store.page(ListQuery(limit: 0)) == [])
        #expect(try fixture.store.page(ListQuery(limit: -1)) == [])
        #expect(try fixture.store.page(after: 0, limit: -5) == [])
        #expect(try fixture.store.page(ListQuery(limit: 5, before: 1)) == [])
        #expect(try fixture.store.page(ListQuery(limit: 5, before: Int64.min)) == [])
        #expect(try fixture.store.page(after: Int64.max, limit: 5) == [])
        #expect(try fixture.store.page(ListQuery(limit: 5, before: Int64.max)) == Array(fixture.listed.prefix(5)))
    }
}
