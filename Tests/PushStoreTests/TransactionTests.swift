import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// All of a transaction or none of it.
@Suite struct TransactionTests {
    @Test(arguments: StoreKind.allCases)
    func rollbackLeavesNothing(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.insert(Samples.message(1)), .insert(Samples.message(2, held: true))])
        let before = try store.loadInbox()

        try store.begin()
        #expect(store.isInTransaction)
        for change: StoreChange in [
            .insert(Samples.message(3)), .markRead([1]), .markAllRead(app: nil), .delete([1]), .release([2]),
            .setLaunch(3), .badge(app: "x", Badge(icon: 1, server: 1)), .unread(app: "x", count: 4),
            .settings(InboxSettings(mode: .off, appState: .background, dropped: 1, badgeSync: false)),
        ] {
            try store.apply(change)
        }
        try store.rollback()
        #expect(!store.isInTransaction)

        #expect(try store.loadInbox() == before)
        #expect(try store.messages(ids: [1, 2, 3], includeHeld: true).map(\.id) == [1, 2])
        #expect(try store.count() == 1)
        #expect(try store.count(unreadOnly: true) == 1)
        try store.rollback()  // outside a transaction: nothing to undo, no error
    }

    @Test(arguments: StoreKind.allCases)
    func aFailingWriteUndoesTheWholeBatch(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.insert(Samples.message(1)), .unread(app: "com.example.shop", count: 1)])

        // The duplicate id fails the second insert; the first change of the batch goes too.
        let error = #expect(throws: SQLiteError.self) {
            try store.write([
                .markRead([1]), .unread(app: "com.example.shop", count: 0), .insert(Samples.message(2)),
                .insert(Samples.message(2)),
            ])
        }
        #expect(error?.code == 19)  // SQLITE_CONSTRAINT
        #expect(error?.sql?.hasPrefix("INSERT INTO messages") == true)
        #expect(!store.isInTransaction)
        #expect(try store.page(ListQuery()).map(\.id) == [1])
        #expect(try store.message(id: 1)?.read == false)
        #expect(try store.loadInbox().unread == ["com.example.shop": 1])
    }

    @Test(arguments: StoreKind.allCases)
    func applyOutsideATransactionCommitsOnItsOwn(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.apply(.insert(Samples.message(1)))
        try store.apply(.unread(app: "com.example.shop", count: 1))
        #expect(!store.isInTransaction)
        #expect(try store.message(id: 1) != nil)
        #expect(try store.loadInbox().unread == ["com.example.shop": 1])
    }
}
