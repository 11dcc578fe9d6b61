import Foundation
import PushCore
import PushStore
import Testing

/// Prints insert throughput; asserts nothing about time (the machine is shared and noisy).
/// Run it on a release build:
/// `PUSHDECK_STORE_THROUGHPUT=1 swift test -c release -Xswiftc -enable-testing --filter ThroughputCheck`
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PUSHDECK_STORE_THROUGHPUT"] != nil))
struct ThroughputCheck {
    static let rows = Int(ProcessInfo.processInfo.environment["PUSHDECK_STORE_THROUGHPUT"] ?? "") ?? 100_000

    @Test(arguments: [(Durability.powerLoss, 1000), (.processCrash, 1000), (.powerLoss, 100), (.processCrash, 100)])
    func groupCommitInserts(durability: Durability, perTransaction: Int) throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.path(), durability: durability)
        let messages = (1...Int64(Self.rows)).map { id in
            Message(
                id: id, app: "com.example.shop", channel: .apns, title: "Order \(id) shipped", body: "訂單 \(id) 已發貨",
                receivedAt: Date(millisecondsSince1970: Samples.baseMilliseconds + id), payload: Samples.realisticPayload(id))
        }
        let start = ContinuousClock.now
        let startCPU = cpuSeconds()
        for batch in stride(from: 0, to: messages.count, by: perTransaction) {
            try store.begin()
            for message in messages[batch..<min(batch + perTransaction, messages.count)] {
                try store.apply(.insert(message))
            }
            try store.commit()
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let cpu = cpuSeconds() - startCPU
        print("store \(durability) \(perTransaction)/txn: \(Int(Double(Self.rows) / seconds)) rows/s wall, \(Int(Double(Self.rows) / cpu)) rows/s of thread CPU")

        let pageStart = ContinuousClock.now
        for _ in 0..<100 { _ = try store.page(ListQuery(limit: 60, before: Int64(Self.rows / 2))) }
        let loadStart = ContinuousClock.now
        _ = try store.loadInbox()
        let end = ContinuousClock.now
        print("  page of 60: \((loadStart - pageStart) / 100), loadInbox: \(end - loadStart)")
        #expect(try store.count() == Self.rows)
    }

    /// The same rows into a same-schema WAL database through bare prepared statements: what the
    /// store's own bookkeeping costs on top of SQLite.
    @Test(arguments: [Durability.powerLoss, .processCrash])
    func bareSQLiteBaseline(durability: Durability) throws {
        let folder = try TemporaryFolder()
        let database = try Database(path: folder.path())
        _ = try database.scalar("PRAGMA journal_mode = WAL")
        _ = try database.scalar("PRAGMA synchronous = \(durability == .powerLoss ? "FULL" : "NORMAL")")
        try database.execute(Schema.migrations[0])
        let insert = try database.prepare(
            "INSERT INTO messages (id, app, channel, title, body, received_at, payload) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        let payloads = (1...Int64(Self.rows)).map(Samples.realisticPayload)
        let start = ContinuousClock.now
        let startCPU = cpuSeconds()
        for batch in stride(from: 0, to: Self.rows, by: 1000) {
            try database.execute("BEGIN IMMEDIATE")
            for index in batch..<batch + 1000 {
                let id = Int64(index + 1)
                try insert.bind(id, at: 1)
                try insert.bind("com.example.shop", at: 2)
                try insert.bind("apns", at: 3)
                try insert.bind("Order \(id) shipped", at: 4)
                try insert.bind("訂單 \(id) 已發貨", at: 5)
                try insert.bind(Samples.baseMilliseconds + id, at: 6)
                try insert.bind(payloads[index], at: 7)
                try insert.run()
            }
            try database.execute("COMMIT")
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let cpu = cpuSeconds() - startCPU
        print("bare \(durability) 1000/txn: \(Int(Double(Self.rows) / seconds)) rows/s wall, \(Int(Double(Self.rows) / cpu)) rows/s of thread CPU")
    }
}

/// CPU time of the calling thread: what the inserts cost, whatever else the machine is doing.
private func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
