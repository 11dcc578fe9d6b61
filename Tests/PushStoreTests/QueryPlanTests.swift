import Foundation
import PushCore
@testable import PushStore
import Testing
import TestSupport

/// The queries read indexes, not the whole table: what keeps a page cheap at a million rows.
@Suite struct QueryPlanTests {
    static let shapes = [false, true].flatMap { newer in
        [false, true].flatMap { unread in [false, true].map { app in Store.PageShape(newer: newer, unread: unread, app: app) } }
    }

    @Test(arguments: shapes)
    func pagesSearchAnIndexAndNeverSort(shape: Store.PageShape) throws {
        let store = try Store.inMemory()
        try store.write((1...500).map { .insert(Samples.message($0, app: ["a", "b"][Int($0 % 2)], read: $0 % 3 == 0)) })
        let plan = try queryPlan(Store.pageSQL(shape), in: store)
        #expect(plan.allSatisfy { $0.hasPrefix("SEARCH messages") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test func countingEveryListedMessageReadsTheSmallIndex() throws {
        let store = try Store.inMemory()
        let plan = try queryPlan(Store.countSQL(unreadOnly: false, app: false, newer: false), in: store)
        #expect(plan == ["SCAN messages USING COVERING INDEX messages_by_app"])
        #expect(try queryPlan(Store.countSQL(unreadOnly: false, app: true, newer: false), in: store)
            == ["SEARCH messages USING COVERING INDEX messages_by_app (app=? AND held=?)"])
        #expect(try queryPlan(Store.countSQL(unreadOnly: true, app: false, newer: true), in: store)
            == ["SEARCH messages USING COVERING INDEX messages_unread (id>?)"])
    }

    @Test func startUpQueriesReadIndexes() throws {
        let store = try Store.inMemory()
        #expect(try queryPlan("SELECT max(id) FROM messages WHERE launch = 1", in: store)
            == ["SEARCH messages USING INDEX messages_launch"])
        #expect(try queryPlan("SELECT \(Schema.messageColumns) FROM messages WHERE held = 1 ORDER BY id", in: store)
            == ["SCAN messages USING INDEX messages_held"])
    }

    @Test func fileStoresUseTheChosenDurability() throws {
        let folder = TempFolder()
        let standard = try Store(path: folder.file("a"))
        let powerLoss = try Store(path: folder.file("b"), durability: .powerLoss)
        let memory = try Store.inMemory()
        // PRAGMA synchronous answers 1 for NORMAL, 2 for FULL.
        #expect(try standard.database.scalar("PRAGMA synchronous") == "1")
        #expect(try powerLoss.database.scalar("PRAGMA synchronous") == "2")
        #expect(try standard.database.scalar("PRAGMA foreign_keys") == "1")
        #expect(try standard.database.scalar("PRAGMA journal_mode") == "wal")
        #expect(try memory.database.scalar("PRAGMA journal_mode") == "memory")
    }

    private func queryPlan(_ sql: String, in store: Store) throws -> [String] {
        try store.database.prepare("EXPLAIN QUERY PLAN " + sql).rows { $0.string(at: 3) ?? "" }
    }
}

extension Store.PageShape: CustomTestStringConvertible {
    public var testDescription: String {
        "\(newer ? "newer" : "older")\(unread ? " unread" : "")\(app ? " app" : "")"
    }
}
