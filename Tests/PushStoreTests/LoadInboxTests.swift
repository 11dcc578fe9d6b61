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
            .unread(app: "a", count: 3), .unread(app: "b", count: 2),
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

    /// The unread counts are the reducer's (`StoreChange.unread`): the store keeps the number
    /// it is given, in the turn's transaction, and forgets it with a rollback.
    @Test(arguments: StoreKind.allCases)
    func unreadCountsAreKeptAsTheEffectSaysAndRolledBack(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.unread(app: "a", count: 3), .unread(app: "b", count: 1)])
        #expect(try store.loadInbox().unread == ["a": 3, "b": 1])

        try store.begin()
        try store.apply(.unread(app: "a", count: 7))
        try store.apply(.unread(app: "b", count: 0))
        // Within the transaction, what is set so far (the server reloads from it on a failure).
        #expect(try store.loadInbox().unread == ["a": 7])
        try store.rollback()
        #expect(try store.loadInbox().unread == ["a": 3, "b": 1])

        // The rows do not move the counts: only the effect does.
        try store.write([.insert(Samples.message(1, app: "a")), .markRead([1])])
        #expect(try store.loadInbox().unread == ["a": 3, "b": 1])
        try store.write([.unread(app: "b", count: 0)])
        #expect(try store.loadInbox().unread == ["a": 3])
    }

    /// Driven by the reducer as the server drives it (reads and deletes looked up in the store
    /// first), the kept unread counts equal a recount of the rows after any mix of pushes, reads,
    /// deletes, held messages, app states, resets and rolled-back turns, and equal the inbox's.
    @Test(arguments: StoreKind.allCases)
    func theReducersUnreadCountsEqualARecountOfTheRows(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        var inbox = try store.loadInbox()
        var random = SeededRandom(seed: 42)
        let decoder = PushDecoder()
        let apps = ["a", "b", "c"]
        let wall = Date(timeIntervalSince1970: 1_764_547_200)
        for turn in 0..<200 {
            try store.begin()
            for _ in 0..<Int(random.next() % 8) {
                let app = apps[Int(random.next() % 3)]
                let someIds = (0..<3).map { _ in Int64(random.next() % UInt64(inbox.nextId + 1)) }
                let event: Event
                switch random.next() % 10 {
                case 0, 1, 2:
                    let payload = random.next() % 3 == 0
                        ? #"{"taskId":"T","msgId":"M","payload":"hi","appId":"\#(app)"}"#
                        : random.next() % 4 == 0
                            ? #"{"aps":{"content-available":1},"Simulator Target Bundle":"\#(app)"}"#
                            : #"{"aps":{"alert":"hi"},"Simulator Target Bundle":"\#(app)"}"#
                    event = .push(try decoder.decode(PushRequest(payloadText: payload)), at: wall)
                case 3: event = .read(try store.messages(ids: someIds))
                case 4: event = .delete(try store.messages(ids: someIds))
                case 5: event = .readAll(app: random.next() % 2 == 0 ? nil : app)
                case 6: event = .setAppState([.foreground, .background, .terminated][Int(random.next() % 3)])
                case 7: event = .setMode(random.next() % 4 == 0 ? .off : .on)
                case 8: event = .reset(app: random.next() % 3 == 0 ? nil : app, all: false)
                default: event = .badge(app: app, change: .clear, sync: nil)
                }
                for effect in reduce(into: &inbox, event, now: .zero) {
                    if case .store(let change) = effect { try store.apply(change) }
                }
            }
            if turn % 5 == 4 {
                try store.rollback()
                inbox = try store.loadInbox()
            } else {
                try store.commit()
            }

            var recount: [String: Int] = [:]
            for app in apps {
                let count = try store.count(unreadOnly: true, app: app)
                if count > 0 { recount[app] = count }
            }
            #expect(try store.loadInbox().unread == recount, "turn \(turn)")
            #expect(inbox.unread.filter { $0.value > 0 } == recount, "turn \(turn)")
        }
    }
}
