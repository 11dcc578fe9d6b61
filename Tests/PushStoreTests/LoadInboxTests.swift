import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// The inbox the server starts from: its numbers come from the stored rows.
@Suite struct LoadInboxTests {
    @Test(arguments: StoreKind.allCases)
    func aFreshStoreGivesTheDefaultInbox(kind: StoreKind) throws {
        let folder = TempFolder()
        #expect(try kind.open(in: folder).loadInbox() == Inbox())
    }

    @Test(arguments: StoreKind.allCases)
    func numbersComeFromTheRows(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        let held = [
            Samples.message(9, app: "c", channel: .transparent, held: true),
            Samples.message(7, app: "c", channel: .transparent, held: true),
        ]
        try store.write([
            .insert(Samples.message(1, app: "a")), .insert(Samples.message(2, app: "a", read: true)),
            .insert(Samples.message(3, app: "a")), .insert(Samples.message(4, app: "a")),
            .insert(Samples.message(5, app: "b")), .insert(Samples.message(6, app: "b")),
            .insert(held[0]), .insert(held[1]), .setLaunch(5),
            .badge(app: "a", Badge(icon: 3, server: 3)), .badge(app: "b", Badge(icon: 0, server: 2)),
        ])

        let inbox = try store.loadInbox(bannerSeconds: 8)
        #expect(inbox.unread == ["a": 3, "b": 2])
        #expect(inbox.totalUnread == 5)
        #expect(inbox.badges == ["a": Badge(icon: 3, server: 3), "b": Badge(icon: 0, server: 2)])
        #expect(inbox.nextId == 10)
        #expect(inbox.held == held.reversed())  // oldest (lowest id) first
        #expect(inbox.launchId == 5)
        #expect(inbox.bannerSeconds == 8)
        #expect(try store.count() == 6)
        #expect(try store.count(unreadOnly: true) == 5)
        #expect(try store.count(unreadOnly: true, app: "b") == 2)
        #expect(try store.count(app: "c") == 0)
    }

    /// The kept unread counts equal a recount after any mix of changes, committed or rolled back.
    @Test(arguments: StoreKind.allCases)
    func keptUnreadCountsEqualARecount(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        var random = SeededRandom(seed: 42)
        var nextId: Int64 = 1
        for turn in 0..<200 {
            var changes: [StoreChange] = []
            for _ in 0..<Int(random.next() % 8) {
                let someIds = (0..<3).map { _ in Int64(random.next() % UInt64(nextId + 2)) }
                let app = ["a", "b", "c"][Int(random.next() % 3)]
                switch random.next() % 7 {
                case 0, 1:
                    let message = Samples.message(
                        nextId, app: app, read: random.next() % 4 == 0, held: random.next() % 5 == 0)
                    changes.append(.insert(message))
                    nextId += 1
                case 2: changes.append(.markRead(someIds))
                case 3: changes.append(.delete(someIds))
                case 4: changes.append(.release(someIds))
                case 5: changes.append(.markAllRead(app: random.next() % 4 == 0 ? nil : app))
                default: changes.append(.setLaunch(someIds[0]))
                }
            }
            try store.begin()
            for change in changes { try store.apply(change) }
            if turn % 5 == 4 { try store.rollback() } else { try store.commit() }

            var recount: [String: Int] = [:]
            var before: Int64? = nil
            while case let page = try store.page(ListQuery(limit: 100, unread: true, before: before)), !page.isEmpty {
                for message in page { recount[message.app, default: 0] += 1 }
                before = page.last?.id
            }
            #expect(try store.loadInbox().unread == recount, "turn \(turn)")
        }
    }
}
