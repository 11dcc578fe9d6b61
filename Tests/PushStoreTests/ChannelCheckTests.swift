import Foundation
import PushCore
@testable import PushStore
import Testing
import TestSupport

/// The channel CHECK of `messages` holds every channel and nothing else, and writing a message
/// builds no temporary index to check it (SQLite does for `IN (…)` of more than two constants).
@Suite struct ChannelCheckTests {
    @Test func writingAMessageOpensNoTemporaryIndex() throws {
        let store = try Store.inMemory()
        let program = try store.database.prepare(
            "EXPLAIN INSERT INTO messages (\(Schema.messageColumns)) VALUES (" + (1...30).map { "?\($0)" }.joined(separator: ", ") + ")"
        ).rows { $0.string(at: 1) ?? "" }
        #expect(program.contains("Insert"))
        #expect(!program.contains("OpenEphemeral"), "\(program)")
    }

    @Test func everyChannelIsTakenAndNothingElse() throws {
        let store = try Store.inMemory()
        try store.write(Channel.allCases.enumerated().map { .insert(Samples.message(Int64($0.offset + 1), channel: $0.element)) })
        #expect(try store.database.scalar("SELECT group_concat(channel) FROM messages") == "apns,transparent,android")
        #expect(throws: SQLiteError.self) {
            try store.database.execute("INSERT INTO messages (id, app, channel, received_at, payload) VALUES (9, 'a', 'sms', 0, '{}')")
        }
    }

    /// A database whose CHECK still lists the channels with `IN` (every one written before the
    /// CHECK became comparisons) is rebuilt once as it opens: rows, indexes and the rule kept.
    @Test func anOlderDatabaseIsRebuiltWithItsRowsAndIndexes() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        let before = Schema.version - 1
        var indexesBefore: String?
        do {
            let database = try Database(path: path)
            try database.execute("PRAGMA application_id = \(Schema.applicationId)")
            for migration in Schema.migrations.prefix(before) { try database.execute(migration) }
            // As the rebuild of those versions left it: every channel listed with IN.
            let table = try #require(try database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'messages'"))
            let stored = try #require(Schema.storedChannelCheck(in: table))
            var old = table
            old.replaceSubrange(stored, with: "CHECK (channel IN ('apns', 'transparent', 'android'))")
            let indexes = try #require(try database.scalar(
                "SELECT group_concat(sql, ';') FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL"))
            try database.execute("ALTER TABLE messages RENAME TO messages_old")
            try database.execute(old)
            try database.execute("INSERT INTO messages SELECT * FROM messages_old; DROP TABLE messages_old")
            try database.execute(indexes)
            try database.execute(
                """
                INSERT INTO messages (id, app, channel, title, received_at, held, thread_id, payload)
                VALUES (1, 'com.example.shop', 'apns', '订单', 1000, 0, 'orders', '{}'), (2, 'com.example.news', 'android', 'Score', 2000, 1, NULL, '{}')
                """)
            indexesBefore = try database.scalar(Self.indexesSQL)
            try database.execute("PRAGMA user_version = \(before)")
            database.close()
        }
        let store = try Store(path: path)
        defer { store.close() }
        let table = try #require(try store.database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'messages'"))
        #expect(table.contains(Schema.channelCheck) && !table.contains("IN ("), "\(table)")
        #expect(try store.database.scalar("SELECT group_concat(id || ':' || channel || ':' || title) FROM messages") == "1:apns:订单,2:android:Score")
        #expect(try store.database.scalar(Self.indexesSQL) == indexesBefore)
        #expect(try store.database.scalar("PRAGMA integrity_check") == "ok")
        #expect(throws: SQLiteError.self) {
            try store.database.execute("INSERT INTO messages (id, app, channel, received_at, payload) VALUES (9, 'a', 'sms', 0, '{}')")
        }
    }

    static let indexesSQL = "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages' ORDER BY name)"
}
