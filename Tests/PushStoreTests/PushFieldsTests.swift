import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// A message keeps what its push was decoded to and a held one needs later — its badge
/// directive and its time to live — so no payload is decoded again when it expires or is
/// delivered; a database from before they were kept gets them for its held rows once, as it is
/// migrated.
@Suite struct PushFieldsTests {
    static let payload = #"{"push_message":{"transmission":"x"},"settings":{"ttl":30000},"autoBadge":"+2"}"#

    static func heldMessage(id: Int64 = 1) -> Message {
        var message = Message(id: id, app: "com.example.news", channel: .transparent, held: true,
                              receivedAt: Date(timeIntervalSince1970: 1_000), payload: payload)
        message.badgeDirective = .autoAdd(2)
        message.timeToLive = 30
        return message
    }

    @Test(arguments: StoreKind.allCases)
    func aMessagesBadgeDirectiveAndTimeToLiveAreStored(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        defer { store.close() }
        var replaced = Self.heldMessage(id: 2)
        replaced.held = false
        try store.write([.insert(Self.heldMessage()), .insert(replaced)])
        #expect(try store.loadInbox().held == [Self.heldMessage()])
        // A replacement writes them too (none, here).
        replaced.badgeDirective = .set(7)
        replaced.timeToLive = nil
        try store.write([.replace(replaced)])
        let back = try #require(try store.message(id: 2))
        #expect(back.badgeDirective == .set(7) && back.timeToLive == nil)
        try store.write([.insert(Self.heldMessage(id: 3))])
        for directive in [BadgeDirective.set(0), .autoAdd(-3), .autoSet(12)] {
            var message = Self.heldMessage(id: 3)
            message.badgeDirective = directive
            try store.write([.replace(message)])
            #expect(try store.messages(ids: [3], includeHeld: true).first?.badgeDirective == directive)
        }
    }

    @Test func theHeldRowsOfAnOlderDatabaseAreDecodedOnceAsItIsMigrated() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        do {
            let database = try Database(path: path)
            try database.execute("PRAGMA application_id = \(Schema.applicationId)")
            let before = Schema.pushFieldsVersion - 1
            for migration in Schema.migrations.prefix(before) { try database.execute(migration) }
            let escaped = Self.payload.replacingOccurrences(of: "'", with: "''")
            try database.execute(
                """
                INSERT INTO messages (id, app, channel, held, received_at, payload)
                VALUES (1, 'com.example.news', 'transparent', 1, 1000000, '\(escaped)'),
                       (2, 'com.example.news', 'transparent', 1, 1000000, 'not json'),
                       (3, 'com.example.news', 'transparent', 0, 1000000, '\(escaped)')
                """)
            try database.execute("PRAGMA user_version = \(before)")
            database.close()
        }
        let store = try Store(path: path)
        defer { store.close() }
        let held = try store.loadInbox().held
        #expect(held.map(\.id) == [1, 2])
        #expect(held.first?.badgeDirective == .autoAdd(2) && held.first?.timeToLive == 30)
        // A payload the decoder does not take keeps neither (+1, the vendor's default), as before.
        #expect(held.last?.badgeDirective == nil && held.last?.timeToLive == nil)
        // A delivered row needs neither: left as it was.
        #expect(try store.message(id: 3)?.timeToLive == nil)
    }
}
