import Foundation
import Testing

@testable import PushCore

/// The request log keeps its records packed (`PackedRequestRecords`): every record read back is
/// the one appended, field for field and byte for byte, however its texts were kept (as bytes,
/// by a name's number, as a splice around the first token), and a wrapped log frees what its
/// dropped records held.
@Suite struct PackedRequestLogTests {
    static let start = Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_789)
    static let token = String(repeating: "0f", count: 32)

    /// A record with every field set (`full`) or every optional one nil and nothing in the lists.
    static func record(_ full: Bool, seq: Int = 1, vendor: Via = .apns) -> ProviderRequestRecord {
        guard full else {
            return ProviderRequestRecord(
                seq: seq, receivedAt: start, answeredAt: start, vendor: vendor, method: "POST", path: "/v2/app/auth", status: 200)
        }
        return ProviderRequestRecord(
            seq: seq, receivedAt: start, answeredAt: start.addingTimeInterval(0.000_123_4), vendor: vendor, method: "POST",
            path: "/3/device/\(token)?debug=1", tokens: [token, "other-token-1234", "é"], app: "com.example.shop", status: 410,
            reason: "Unregistered", retryAfter: 30, ids: ["apns-id": "6F1A2B3C-0000-4000-8000-000000000001", "sendno": "7"],
            notificationKey: "token:\(token):0123456789abcdef", fault: 4)
    }

    /// Appends `record` to a fresh log and reads it back every way the log hands records out.
    static func roundTrip(_ record: ProviderRequestRecord) -> [ProviderRequestRecord?] {
        var log = RequestLog()
        let logged = log.append(record)
        return [log.record(back: 0), log.select(RequestLogQuery()).first, log.records.first, logged]
    }

    @Test(arguments: [true, false])
    func everyFieldReadsBackAsAppended(full: Bool) {
        let record = Self.record(full, seq: 9)
        for read in Self.roundTrip(record) {
            #expect(read == record)
            #expect(read?.wireJSON.compactText == record.wireJSON.compactText)
        }
    }

    @Test func emptyTokensEmptyTextsAndExtremeNumbersReadBack() {
        let empty = ProviderRequestRecord(
            seq: Int.max, receivedAt: Date(timeIntervalSinceReferenceDate: -1e9), answeredAt: .distantFuture, vendor: .getui, method: "",
            path: "", tokens: [""], app: "", status: Int.min, reason: "", retryAfter: Int.max, ids: ["": ""], notificationKey: "", fault: -1)
        #expect(Self.roundTrip(empty).allSatisfy { $0 == empty })
        var noTokens = Self.record(true)
        noTokens.tokens = []
        #expect(Self.roundTrip(noTokens).allSatisfy { $0 == noTokens })
    }

    /// Unicode comes back byte for byte: a name the table keeps is not swapped for another
    /// string Swift calls equal (é precomposed, and e with a combining accent).
    @Test func unicodeReadsBackByteForByte() throws {
        let composed = "訂單 é 🇨🇳"
        let decomposed = "訂單 e\u{301} 🇨🇳"
        func record(_ text: String, seq: Int) -> ProviderRequestRecord {
            var record = Self.record(true, seq: seq)
            record.app = text
            record.reason = text
            record.method = text
            record.path = "/3/device/\(text)/\(Self.token)"
            record.ids = [text: text]
            record.notificationKey = "\(text):\(Self.token):\(text)"
            record.tokens = [Self.token, text]
            return record
        }
        var log = RequestLog()
        for (index, text) in [composed, decomposed].enumerated() { _ = log.append(record(text, seq: index + 1)) }
        let read = log.select(RequestLogQuery())
        #expect(Array(try #require(read.first?.app).utf8) == Array(composed.utf8))
        #expect(Array(try #require(read.last?.app).utf8) == Array(decomposed.utf8))
        #expect(Array(try #require(read.last?.method).utf8) == Array(decomposed.utf8))
        #expect(Array(try #require(read.last?.ids.first?.key).utf8) == Array(decomposed.utf8))
        #expect(Array(try #require(read.last?.notificationKey).utf8) == Array("\(decomposed):\(Self.token):\(decomposed)".utf8))
        #expect(read.map(\.wireJSON.compactText) == [record(composed, seq: 1), record(decomposed, seq: 2)].map(\.wireJSON.compactText))
    }

    /// The first token is kept once when the path holds it; a token the path does not hold, or
    /// one too short to refer to, is kept as it is — all read back the same.
    @Test func theFirstTokenIsKeptOnceAndReadBackEverywhere() {
        var inPath = Self.record(true)
        inPath.ids["name"] = "projects/p/messages/\(Self.token)"
        var notInPath = inPath
        notInPath.path = "/v1/projects/p/messages:send"
        var short = inPath
        short.tokens = ["abc"]
        short.path = "/3/device/abc"
        short.notificationKey = "token:abc:0123"
        for record in [inPath, notInPath, short] { #expect(Self.roundTrip(record).allSatisfy { $0 == record }) }
        // Kept once: the path's bytes, and references where the token, the key and the id repeat them.
        var encoder = RecordEncoder()
        var names = NameTable()
        encoder.encode(inPath, names: &names)
        #expect(Self.occurrences(of: Array(Self.token.utf8), in: encoder.bytes) == 1)
        var unshared = RecordEncoder()
        unshared.encode(notInPath, names: &names)
        #expect(Self.occurrences(of: Array(Self.token.utf8), in: unshared.bytes) == 1)
    }

    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> Int {
        guard bytes.count >= needle.count else { return 0 }
        return (0...(bytes.count - needle.count)).filter { bytes[$0..<$0 + needle.count].elementsEqual(needle) }.count
    }

    @Test func namesPastTheTableAreKeptAsTheirBytes() {
        var log = RequestLog(capacity: 10)
        for index in 0..<(NameTable.limit + 5) {
            var record = Self.record(true, seq: index + 1)
            record.app = "com.example.app\(index)"
            _ = log.append(record)
        }
        var long = Self.record(true, seq: NameTable.limit + 6)
        long.reason = String(repeating: "r", count: NameTable.longest + 1)
        _ = log.append(long)
        #expect(log.record(back: 0) == long)
        #expect(log.record(back: 1)?.app == "com.example.app\(NameTable.limit + 4)")
    }

    @Test func aWrappedLogKeepsTheNewestAndFreesWhatTheOldestHeld() {
        var log = RequestLog(capacity: 3)
        var appended: [ProviderRequestRecord] = []
        for index in 0..<10 {
            var record = Self.record(index % 2 == 0, seq: 0, vendor: index % 3 == 0 ? .fcm : .apns)
            record.path += "/\(index)"
            appended.append(log.append(record))
        }
        #expect(log.count == 3)
        #expect(log.records == Array(appended.suffix(3)))
        #expect((0..<3).map { log.record(back: $0) } == appended.suffix(3).reversed())
        #expect(log.record(back: 3) == nil)
        #expect(log.select(RequestLogQuery(vendor: .fcm)) == [appended[9]])
        #expect(log.select(RequestLogQuery(since: 8)).map(\.seq) == [9, 10])

        // Long past its capacity, with records of a few KB, the log holds a few segments.
        var small = RequestLog(capacity: 10)
        var big = Self.record(true)
        big.path = "/3/device/" + String(repeating: "x", count: 3000)
        for _ in 0..<5000 { _ = small.append(big) }
        #expect(small.count == 10)
        #expect(small.reading.segmentCount <= 2)
        // A record larger than a segment gets one of its own, and is read back whole.
        big.path = String(repeating: "y", count: ByteArena.segmentSize + 1)
        let huge = small.append(big)
        #expect(small.record(back: 0) == huge)
        #expect(small.record(back: 1)?.path.count == 3010)
        small.clear()
        #expect(small.count == 0 && small.reading.segmentCount == 0 && small.arrive() == 1)
    }

    @Test func selectListsRecordsAnsweredOutOfOrderBySeq() {
        var log = RequestLog(capacity: 4)
        let seqs = (0..<6).map { _ in log.arrive() }
        // Answered 3, 1, 2, 6, 4, 5: the ring holds the last four answered.
        for seq in [3, 1, 2, 6, 4, 5] { _ = log.append(Self.record(seq % 2 == 0, seq: seqs[seq - 1])) }
        #expect(log.select(RequestLogQuery()).map(\.seq) == [2, 4, 5, 6])
        #expect(log.select(RequestLogQuery(since: 4)).map(\.seq) == [5, 6])
        #expect(log.record(back: 0)?.seq == 5)
    }

    /// Two logs are equal by what they hold, not by where their rings start.
    @Test func logsAreEqualByTheirRecords() {
        var wrapped = RequestLog(capacity: 2)
        var fresh = RequestLog(capacity: 2)
        for _ in 1...3 { _ = wrapped.append(Self.record(true, seq: 0)) }
        _ = fresh.arrive()
        for _ in 2...3 { _ = fresh.append(Self.record(true, seq: 0)) }
        #expect(wrapped == fresh)
        _ = fresh.append(Self.record(false, seq: 0))
        _ = wrapped.append(Self.record(true, seq: 0))
        #expect(wrapped != fresh)
    }
}
