import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// Opening a path: new files are migrated; anything the store cannot use is refused with a
/// message naming the file, never a crash, and never a write into somebody else's file.
@Suite struct OpeningTests {
    @Test func aFreshDatabaseIsMigratedToTheLatestVersion() throws {
        let folder = TempFolder()
        try Store(path: folder.file("inbox.sqlite")).close()

        let database = try Database(path: folder.file("inbox.sqlite"))
        #expect(try database.scalar("PRAGMA user_version") == String(Schema.version))
        #expect(try database.scalar("PRAGMA application_id") == String(Schema.applicationId))
        #expect(try database.scalar("PRAGMA journal_mode") == "wal")
        #expect(try database.scalar("PRAGMA page_size") == String(Store.pageSize))
        let tables = try database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            .rows { $0.string(at: 0) ?? "" }
        #expect(tables == [
            "activities", "activity_history", "activity_unmatched", "badges", "broadcast_channels", "bus_outbox", "bus_seen", "devices",
            "getui_request_ids", "messages", "provider_keys", "settings", "unread",
        ])
    }

    @Test func anEmptyFileIsANewDatabase() throws {
        let folder = TempFolder()
        #expect(FileManager.default.createFile(atPath: folder.file("inbox.sqlite"), contents: Data()))
        let store = try Store(path: folder.file("inbox.sqlite"))
        #expect(try store.loadInbox() == Inbox())
        store.close()
        #expect(try Database(path: folder.file("inbox.sqlite")).scalar("PRAGMA page_size") == String(Store.pageSize))
    }

    /// A database made with 4 KiB pages (by an older pushdeck) keeps them: SQLite changes a page
    /// size only by rebuilding the whole file.
    @Test func aDatabaseWithSmallerPagesKeepsThem() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        try Samples.database(at: path, madeBy: Samples.fourKiBPages)
        let store = try Store(path: path)
        try store.write([.insert(Samples.message(1, payload: String(repeating: "x", count: 2300)))])
        store.close()
        let reopened = try Store(path: path)
        defer { reopened.close() }
        #expect(try reopened.count() == 1)
        #expect(try Database(path: path).scalar("PRAGMA page_size") == "4096")
    }

    @Test func aNewerSchemaIsRefused() throws {
        let folder = TempFolder()
        try Store(path: folder.file("inbox.sqlite")).close()
        let database = try Database(path: folder.file("inbox.sqlite"))
        try database.execute("PRAGMA user_version = \(Schema.version + 1)")
        database.close()

        let error = #expect(throws: StoreError.self) { try Store(path: folder.file("inbox.sqlite")) }
        #expect(error == .newerSchema(path: folder.file("inbox.sqlite"), found: Schema.version + 1, supported: Schema.version))
        #expect(error?.description.contains("newer pushdeck") == true)
        #expect(error?.description.contains(folder.file("inbox.sqlite")) == true)
    }

    @Test(arguments: ["not a database", String(repeating: "pushdeck! ", count: 500), "SQLite format 3"])
    func aFileThatIsNotSQLiteIsRefusedAndLeftAlone(contents: String) throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        try contents.write(toFile: path, atomically: true, encoding: .utf8)

        let error = #expect(throws: StoreError.self) { try Store(path: path) }
        #expect(error == .notADatabase(path: path))
        #expect(error?.description.contains("is not an SQLite database") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        try Samples.database(at: path, madeBy: "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread')")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let error = #expect(throws: StoreError.self) { try Store(path: path) }
        #expect(error == .foreignDatabase(path: path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aMissingFolderIsReportedNotCreated() throws {
        let folder = TempFolder()
        let path = folder.file("missing/inbox.sqlite")
        let error = #expect(throws: StoreError.self) { try Store(path: path) }
        guard case .cannotOpen(let reported, let cause) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
        #expect(cause.code == 14)  // SQLITE_CANTOPEN
        #expect(error?.description.contains(path) == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
    }

    @Test func aFolderAtThePathIsRefused() throws {
        let folder = TempFolder()
        try FileManager.default.createDirectory(atPath: folder.file("inbox.sqlite"), withIntermediateDirectories: false)
        #expect(throws: StoreError.self) { try Store(path: folder.file("inbox.sqlite")) }
    }

    // Root may write any file, so the refusal can only be seen as another user.
    @Test(.enabled(if: getuid() != 0)) func aReadOnlyFileIsRefused() throws {
        let folder = TempFolder()
        try Store(path: folder.file("inbox.sqlite")).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder.file("inbox.sqlite"))
        #expect(throws: StoreError.readOnly(path: folder.file("inbox.sqlite"))) { try Store(path: folder.file("inbox.sqlite")) }
    }

    @Test func twoStoresOnOneFileSeeEachOthersCommits() throws {
        let folder = TempFolder()
        let first = try Store(path: folder.file("inbox.sqlite"))
        let second = try Store(path: folder.file("inbox.sqlite"))
        try first.write([.insert(Samples.message(1))])
        #expect(try second.page(ListQuery()).map(\.id) == [1])
    }
}

/// The team bus's tables: an outbox row reads back as the push it was, removed by its receipt;
/// the ids of pushes taken by the bus come back after a restart (a repeat is dropped then too).
@Suite struct BusStoreTests {
    @Test func theOutboxAndTheTakenIdsSurviveARestart() throws {
        let folder = TempFolder()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let request = PushRequest(payloadText: #"{"aps":{"alert":"Hi"}}"#, app: "com.example.shop", via: .apns, token: "abcd", headers: ["apns-id": "x"])
        let kept = RemotePush(request, token: "abcd", timeToLive: nil, now: at)
        let gone = RemotePush(request, token: "abcd", timeToLive: nil, now: at.addingTimeInterval(1))
        let store = try Store(path: folder.file("inbox.sqlite"))
        try store.write([.outboxAdd(kept), .outboxAdd(gone), .outboxRemove(id: gone.id), .busPushSeen(sender: "a", id: kept.id, at: Date())])
        store.close()
        let reopened = try Store(path: folder.file("inbox.sqlite"))
        defer { reopened.close() }
        #expect(try reopened.outbox() == [kept])
        #expect(try reopened.loadInbox(bannerSeconds: 5).busPushIds.contains(app: "a", requestId: kept.id, now: Date()))
    }

    /// A server with a bus writes the row from the message it publishes (naming its instance as
    /// the sender, encoded once for both): it reads back as the same push.
    @Test func anOutboxRowWrittenAsPublishedReadsBack() throws {
        let folder = TempFolder()
        let request = PushRequest(payloadText: #"{"aps":{"alert":"Hi"}}"#, app: "com.example.shop", via: .apns, token: "abcd", headers: ["apns-id": "x"])
        let remote = RemotePush(request, token: "abcd", timeToLive: nil, now: Date(timeIntervalSince1970: 1_800_000_000))
        let store = try Store(path: folder.file("inbox.sqlite"))
        try store.begin()
        try store.addToOutbox(remote, body: remote.wireJSON(sender: "alice@laptop").compactText)
        try store.commit()
        store.close()
        let reopened = try Store(path: folder.file("inbox.sqlite"))
        defer { reopened.close() }
        #expect(try reopened.outbox() == [remote])
    }
}
