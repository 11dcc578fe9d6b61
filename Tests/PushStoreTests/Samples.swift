import Foundation
import PushCore
import PushStore

/// Test messages with every field filled, at whole milliseconds (what the store keeps).
enum Samples {
    static let baseMilliseconds: Int64 = 1_764_496_800_000

    /// Makes the database at `path` with `sql` alone, as another program would, not a store.
    static func database(at path: String, madeBy sql: String) throws {
        let database = try Database(path: path)
        defer { database.close() }
        try database.execute(sql)
    }

    /// What an older pushdeck left: an empty database of 4 KiB pages, marked as pushdeck's.
    static let fourKiBPages = "PRAGMA page_size = 4096; PRAGMA application_id = \(Schema.applicationId)"

    static func message(
        _ id: Int64, app: String = "com.example.shop", channel: Channel = .apns, read: Bool = false,
        held: Bool = false, offline: Bool = false, launch: Bool = false, payload: String? = nil
    ) -> Message {
        Message(
            id: id, app: app, channel: channel, title: "Title \(id)", subtitle: "Sub \(id)",
            body: "訂單 \(id) 已發貨 📦", url: "https://example.com/orders/\(id)", read: read, offline: offline,
            launch: launch, held: held, receivedAt: Date(millisecondsSince1970: baseMilliseconds + id * 1000),
            taskId: channel == .transparent ? "task-\(id)" : nil, msgId: channel == .transparent ? "msg-\(id)" : nil,
            payload: payload ?? #"{"aps":{"alert":{"title":"Title \#(id)","body":"訂單 \#(id) 已發貨"},"badge":1}}"#)
    }

    /// A ~300-byte APNs payload like the benchmark's, CJK and English.
    static func realisticPayload(_ id: Int64) -> String {
        #"{"aps":{"alert":{"title":"Order \#(id) shipped","subtitle":"官方客服","body":"您有一條新消息：訂單 \#(id) 已發貨，點擊查看物流 — your parcel is on its way"},"badge":\#(id % 100),"sound":"default","thread-id":"orders"},"Simulator Target Bundle":"com.example.shop","orderId":"\#(id)"}"#
    }
}
