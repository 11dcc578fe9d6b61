import Foundation
import PushCore
import PushJSON
import PushScenario
import Testing

/// The `expect` engine without a socket: `list` pages and bus events handed in as typed values.
@Suite struct ExpectWatchTests {
    static func message(_ id: Int64, app: String = "com.example.shop") -> Message {
        Message(id: id, app: app, channel: .apns, title: "t", body: "b", receivedAt: Date(timeIntervalSince1970: 1_764_547_200), payload: "{}")
    }

    /// The newest 1 500 messages in pages of `pageSize`, newest first, as `list` pages them.
    static func page(before: Int64?) -> [Message] {
        let top = (before ?? 1_501) - 1
        let ids = stride(from: top, to: max(0, top - Int64(ExpectWatch.pageSize)), by: -1)
        return ids.map { message($0) }
    }

    @Test func messagesAfterSinceCountAcrossPagesAndOlderOnesDoNot() {
        var condition = ExpectCondition()
        condition.count = 1_200
        condition.since = 300
        var watch = ExpectWatch(condition: condition)
        var asked: [Int64?] = []
        watch.noteMessages(after: 300) { before in
            asked.append(before)
            return Self.page(before: before)
        }
        #expect(asked == [nil, 501], "the second page starts below the first's oldest")
        #expect(watch.holds, "1 200 messages after #300")
        #expect(watch.report.hasPrefix("wanted 1200 messages (after #300); saw 1200 matching of 1200 messages"))
    }

    @Test func aMessageEventMeetsTheConditionsItIsAskedFor() {
        var condition = ExpectCondition()
        condition.app = "com.example.news"
        var watch = ExpectWatch(condition: condition)
        let first = watch.note(BusEvent(.messageReceived, message: Self.message(1)))
        #expect(first, "a delivery may move the ledgers")
        #expect(!watch.holds)
        _ = watch.note(BusEvent(.messageReceived, message: Self.message(2, app: "com.example.news")))
        #expect(watch.holds)
        #expect(watch.matchedLine == Self.message(2, app: "com.example.news").wireJSON.compactText)
    }

    @Test func onlyLedgersAskedWantNoMessage() {
        var condition = ExpectCondition()
        condition.unread = 1_001
        var watch = ExpectWatch(condition: condition)
        #expect(!condition.wantsMessages && condition.needsLedgers)
        watch.ledgers = Ledgers(badge: 0, serverBadge: 0, unread: 1_001)
        #expect(watch.holds)
        #expect(watch.matchedLine == #"{"badge":0,"serverBadge":0,"unread":1001}"#)
    }
}
