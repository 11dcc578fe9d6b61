import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// The WAL is copied back into the database and cut down again after a burst of commits.
@Suite struct CheckpointTests {
    @Test func manySmallCommitsDoNotLeaveAGrowingWAL() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        let store = try Store(path: path)
        defer { store.close() }
        // One commit per message, as a slow trickle of pushes gives: ~40 MB of WAL unchecked.
        for id in Int64(1)...4000 {
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
        #expect(try store.count() == 4000)
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

    private func walSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }
}
