import CSQLite
import Foundation
import PushCore
@testable import PushStore
import Testing
import TestSupport

/// The WAL is copied back into the database and cut down again after a burst of commits.
@Suite struct CheckpointTests {
    /// The thread opens its connection when it starts, which on a busy machine can be after the
    /// file was removed: it must then idle, not make a new empty database at the path.
    @Test func aThreadStartingAfterTheFileIsGoneCreatesNothing() throws {
        let folder = TempFolder()
        let path = folder.file("gone.sqlite")
        let checkpointer = Checkpointer(path: path, synchronousPragma: "NORMAL", pageSize: Store.pageSize)
        let deadline = Date().addingTimeInterval(10)
        while checkpointer.failure == nil && Date() < deadline { usleep(1_000) }
        checkpointer.stop()
        #expect(checkpointer.failure != nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func manySmallCommitsDoNotLeaveAGrowingWAL() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        let store = try Store(path: path)
        defer { store.close() }
        // One commit per message, as a slow trickle of pushes gives: ~150 MB of WAL unchecked,
        // twice the size it is cut back to.
        for id in Int64(1)...12000 {
            try store.write([.insert(Samples.message(id, payload: String(repeating: "x", count: 3000)))])
        }
        // A checkpoint copies the WAL back; a later commit starts it over, cut to the limit.
        // Commit now and then until that is seen, for at most 10 s.
        let deadline = Date().addingTimeInterval(10)
        var size = walSize(path)
        while size > Store.walSizeLimit && Date() < deadline {
            usleep(10_000)
            try store.write([.badge(app: "com.example.shop", Badge(icon: Int(size % 100), server: 0))])
            size = walSize(path)
        }
        #expect(size <= Store.walSizeLimit, "WAL is \(size) bytes")
        #expect(try store.count() == 12000)
    }

    @Test func commitsAreCopiedIntoTheDatabaseFileOffTheWritersThread() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        let store = try Store(path: path)
        defer { store.close() }
        let emptySize = fileSize(path)
        // One commit per message: well past the thread's wake-up limit of WAL pages.
        let commits = Checkpointer.wakeBytes / Store.pageSize
        for id in Int64(1)...Int64(commits) {
            try store.write([.insert(Samples.message(id, payload: String(repeating: "y", count: 1000)))])
        }
        // The thread was woken by a commit. It runs at nice 10 and a checkpoint syncs, which on a
        // busy machine takes a while, and one that finds the WAL busy leaves the pages to the
        // next wake-up: commit now and then until they are in the file, for at most 60 s.
        let deadline = Date().addingTimeInterval(60)
        var tick = 0
        while fileSize(path) <= emptySize + 1_000_000 && Date() < deadline {
            usleep(10_000)
            tick += 1
            try store.write([.badge(app: "com.example.shop", Badge(icon: tick % 100, server: 0))])
        }
        #expect(store.backgroundCheckpoints.completed > 0)
        #expect(store.backgroundCheckpoints.failure == nil)
        #expect(store.takeCheckpointFailure() == nil)
        // The pages are in the database file itself, not only in the WAL.
        #expect(fileSize(path) > emptySize + 1_000_000, "database file is \(fileSize(path)) bytes")
        #expect(try store.count() == commits)
    }

    /// The thread is woken after a number of WAL bytes, whatever the database's page size.
    @Test func theWakeUpIsCountedInBytesOfTheDatabasesPages() throws {
        let folder = TempFolder()
        let fresh = try Store(path: folder.file("new.sqlite"))
        defer { fresh.close() }
        #expect(fresh.checkpointWakePages == Int32(Checkpointer.wakeBytes / Store.pageSize))

        try Samples.database(at: folder.file("old.sqlite"), madeBy: Samples.fourKiBPages)
        let store = try Store(path: folder.file("old.sqlite"))
        defer { store.close() }
        #expect(store.checkpointWakePages == Int32(Checkpointer.wakeBytes / 4096))
    }

    @Test func closingStopsTheThreadAndRemovesTheWAL() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        for round in 0..<3 {
            let store = try Store(path: path)
            try store.write((1...500).map { .insert(Samples.message(Int64(round * 500) + $0)) })
            store.close()
            store.close()  // twice is harmless
            // The last connection to close copies the WAL back and deletes it: no thread kept one open.
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(try Store(path: path).count() == 1500)
    }

    @Test func aThreadThatCannotOpenItsConnectionSaysSoOnceAndStillStops() throws {
        let checkpointer = Checkpointer(path: "/nonexistent-pushdeck-folder/inbox.sqlite", synchronousPragma: "NORMAL", pageSize: Store.pageSize)
        // The thread opens its connection as it starts; wait for it (at most 10 s).
        let deadline = Date().addingTimeInterval(10)
        while checkpointer.failure == nil && Date() < deadline { usleep(1_000) }
        #expect(checkpointer.failure?.code == SQLITE_CANTOPEN)
        #expect(checkpointer.takeNewFailure()?.code == SQLITE_CANTOPEN)
        #expect(checkpointer.takeNewFailure() == nil, "told once")
        checkpointer.request()  // nothing to checkpoint with: it idles
        checkpointer.stop()
    }

    @Test func anInMemoryStoreHasNoCheckpointThread() throws {
        let store = try Store.inMemory()
        try store.write((1...100).map { .insert(Samples.message($0)) })
        #expect(store.backgroundCheckpoints.completed == 0)
    }

    @Test func whatWasCommittedIsReadByAFreshConnectionAfterClose() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        do {
            let store = try Store(path: path)
            for id in Int64(1)...1500 { try store.write([.insert(Samples.message(id))]) }
            store.close()
        }
        let reopened = try Store(path: path)
        #expect(try reopened.count() == 1500)
        #expect(try reopened.message(id: 1500)?.id == 1500)
    }

    private func walSize(_ path: String) -> Int { fileSize(path + "-wal") }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
