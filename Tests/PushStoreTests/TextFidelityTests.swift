import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// Text goes in and comes out byte for byte: the raw payload is shown as it arrived.
@Suite struct TextFidelityTests {
    static let texts: [String] = [
        "您有一條新消息：訂單 1270339 已發貨，點擊查看物流",
        "👨‍👩‍👧‍👦 ❤️ 🇯🇵 🏳️‍🌈",
        "e\u{301} é",  // the same letter decomposed and precomposed: Swift calls them equal, bytes differ
        "tab\there\r\nnew line \u{1B}[31m escape \u{0} nul",
        "",
    ]

    static let payloads: [String] = [
        // Trailing commas, as Apple's parser (and simctl push) take them.
        """
        {
            "Simulator Target Bundle": "com.example.shop",
            "aps": {
                "alert": {"title": "官方客服", "body": "訂單已發貨 📦",},
                "badge": 2,
            },
        }
        """,
        #"{"taskId":"t-1","msgId":"m-1","payload":"{\"title\":\"早報\",\"content\":\"e\u0301\",\"url\":\"app://news/1\"}","offLine":false}"#,
        "{\"aps\":{\"alert\":\"\u{1F600}\"}}\r\n",
    ]

    @Test(arguments: StoreKind.allCases, texts)
    func fieldsComeBackByteForByte(kind: StoreKind, text: String) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        let message = Message(
            id: 1, app: text.isEmpty ? "x" : text, channel: .transparent, title: text, subtitle: text, body: text,
            url: text, receivedAt: Date(millisecondsSince1970: 0), taskId: text, msgId: text, payload: text)
        try store.write([.insert(message)])

        let stored = try #require(try store.message(id: 1))
        #expect(Array(stored.app.utf8) == Array(message.app.utf8))
        for field in [stored.title, stored.subtitle, stored.body, stored.url, stored.taskId, stored.msgId, stored.payload] {
            #expect(field.map { Array($0.utf8) } == Array(text.utf8))
        }
    }

    @Test(arguments: payloads + texts)
    func theFileHoldsTheExactBytes(payload: String) throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        try store.write([.insert(Samples.message(1, payload: payload))])

        // Read back by another connection, as hex: no Swift String in between.
        let hex = try Database(path: folder.file("inbox.sqlite")).scalar("SELECT hex(payload) FROM messages WHERE id = 1")
        #expect(hex == payload.utf8.map { String(format: "%02X", $0) }.joined())
    }

    @Test(arguments: StoreKind.allCases, payloads)
    func payloadsAreStoredAsTheirExactBytes(kind: StoreKind, payload: String) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.insert(Samples.message(1, payload: payload))])

        #expect(try store.message(id: 1).map { Array($0.payload.utf8) } == Array(payload.utf8))
        #expect(try store.page(ListQuery()).first.map { Array($0.payload.utf8) } == Array(payload.utf8))
    }

    @Test func emptyTextStaysEmptyAndAbsentStaysAbsent() throws {
        let store = try Store.inMemory()
        let message = Message(
            id: 1, app: "a", channel: .apns, title: "", subtitle: nil, body: "", url: nil,
            receivedAt: Date(millisecondsSince1970: 0), payload: "")
        try store.write([.insert(message)])
        let stored = try #require(try store.message(id: 1))
        #expect(stored.title == "")
        #expect(stored.subtitle == nil)
        #expect(stored.body == "")
        #expect(stored.url == nil)
        #expect(stored.payload == "")
    }

    @Test(arguments: [Int64(0), 1, -1, 1_764_496_800_123, 4_102_444_800_999, -86_400_001])
    func receivedAtKeepsItsMilliseconds(milliseconds: Int64) throws {
        let store = try Store.inMemory()
        let date = Date(millisecondsSince1970: milliseconds)
        #expect(date.millisecondsSince1970 == milliseconds)
        try store.write([.insert(Message(id: 1, app: "a", channel: .apns, receivedAt: date, payload: "{}"))])
        #expect(try store.message(id: 1)?.receivedAt.millisecondsSince1970 == milliseconds)
    }
}
