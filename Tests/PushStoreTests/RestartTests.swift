import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// What is committed is there after the store is closed and opened again on the same file.
@Suite struct RestartTests {
    @Test func reopeningKeepsEverything() throws {
        let folder = TempFolder()
        let settings = InboxSettings(mode: .off, appState: .terminated, dropped: 4, badgeSync: false)
        let held = Samples.message(5, app: "com.example.news", channel: .transparent, held: true)
        do {
            let store = try Store(path: folder.file("inbox.sqlite"))
            try store.write(
                (1...4).map { .insert(Samples.message($0, app: $0 % 2 == 0 ? "a" : "b")) }
                    + [.insert(held), .markRead([2]), .setLaunch(3), .badge(app: "a", Badge(icon: 2, server: 9)),
                       .settings(settings), .delete([4]), .unread(app: "b", count: 2)])
            store.close()
            store.close()  // twice is fine
        }

        let store = try Store(path: folder.file("inbox.sqlite"))
        let inbox = try store.loadInbox(bannerSeconds: 2)
        #expect(inbox.settings == settings)
        #expect(inbox.badges == ["a": Badge(icon: 2, server: 9)])
        #expect(inbox.unread == ["b": 2])
        #expect(inbox.held == [held])
        #expect(inbox.launchId == 3)
        #expect(inbox.nextId == 6)
        #expect(inbox.bannerSeconds == 2)
        #expect(inbox.banner == nil)

        var expected = (1...3).map { Samples.message($0, app: $0 % 2 == 0 ? "a" : "b") }
        expected[1].read = true
        expected[2].launch = true
        #expect(try store.page(ListQuery()) == expected.reversed())
    }

    @Test func anUncommittedTransactionIsGoneAfterReopening() throws {
        let folder = TempFolder()
        do {
            let store = try Store(path: folder.file("inbox.sqlite"))
            try store.write([.insert(Samples.message(1)), .unread(app: "com.example.shop", count: 1)])
            try store.begin()
            try store.apply(.insert(Samples.message(2)))
            try store.apply(.markRead([1]))
            try store.apply(.unread(app: "com.example.shop", count: 1))
            try store.apply(.unread(app: "b", count: 3))
            // Closing with the transaction open is what a crash mid-turn leaves behind.
            store.close()
        }
        let store = try Store(path: folder.file("inbox.sqlite"))
        #expect(try store.page(ListQuery()).map(\.id) == [1])
        #expect(try store.loadInbox().unread == ["com.example.shop": 1])
    }

    @Test func callsAfterCloseThrowInsteadOfCrashing() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        store.close()
        #expect(throws: SQLiteError.self) { try store.begin() }
        #expect(throws: SQLiteError.self) { try store.page(ListQuery()) }
        #expect(throws: SQLiteError.self) { try store.loadInbox() }
        #expect(throws: SQLiteError.self) { try store.checkpoint() }
    }

    @Test func checkpointEmptiesTheWAL() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        try store.write((1...200).map { .insert(Samples.message($0)) })
        let wal = folder.file("inbox.sqlite") + "-wal"
        #expect(try fileSize(wal) > 0)
        try store.checkpoint()
        #expect(try fileSize(wal) == 0)
        #expect(try store.count() == 200)
        try Store.inMemory().checkpoint()  // no WAL: nothing to do, no error
    }

    private func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
    }
}
