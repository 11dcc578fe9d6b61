import Foundation
@testable import PushCore
import Testing

@Suite struct RandomUUIDTests {
    @Test func bitsAreWrittenAsFoundationWritesThemWithVersionAndVariant() throws {
        #expect(RandomUUID.text(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(RandomUUID.text(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        let text = RandomUUID.text(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        #expect(text == "01234567-89ab-4def-bedc-ba9876543210")
        let parsed = try #require(UUID(uuidString: text))
        #expect(parsed.uuidString.lowercased() == text)
    }

    /// Every bit pattern is written as Foundation writes the same 16 bytes (lower-cased):
    /// the digits of each nibble's 16 values in every place, and random ones.
    @Test func everyDigitInEveryPlaceIsFoundations() throws {
        var patterns: [(UInt64, UInt64)] = (0..<16).map { nibble in
            let repeated = UInt64(nibble) &* 0x1111_1111_1111_1111
            return (repeated, ~repeated)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 { patterns.append((generator.next(), generator.next())) }
        for (high, low) in patterns {
            let text = RandomUUID.text(high: high, low: low)
            let versioned = (high & ~0xF000) | 0x4000, varied = (low & ~(0xC000 << 48)) | (0x8000 << 48)
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { raw in
                raw.storeBytes(of: versioned.bigEndian, as: UInt64.self)
                raw.storeBytes(of: varied.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            #expect(text == UUID(uuid: bytes).uuidString.lowercased(), "\(String(high, radix: 16)) \(String(low, radix: 16))")
        }
    }

    @Test func newOnesAreVersion4AndDistinct() throws {
        let made = (0..<10_000).map { _ in RandomUUID.text() }
        #expect(Set(made).count == made.count)
        for text in made.prefix(100) {
            let bytes = try #require(UUID(uuidString: text)).uuid
            #expect(bytes.6 >> 4 == 4 && bytes.8 >> 6 == 0b10, "\(text)")
            #expect(text == text.lowercased() && text.utf8.count == 36)
        }
    }
}

@Suite struct TimeOrderedUUIDTests {
    @Test func theMillisecondsComeFirstThenVersion7AndTheVariant() throws {
        let text = RandomUUID.timeOrdered(millisecondsSince1970: 0x0193_8A2B_3C4D)
        #expect(text.hasPrefix("01938a2b-3c4d-7"))
        let bytes = try #require(UUID(uuidString: text)).uuid
        #expect(bytes.6 >> 4 == 7 && bytes.8 >> 6 == 0b10, "\(text)")
        #expect(text == text.lowercased() && text.utf8.count == 36)
    }

    @Test func idsMadeLaterSortAfterAsText() {
        let start: Int64 = 1_764_800_000_000
        let made = (0..<1_000).map { RandomUUID.timeOrdered(millisecondsSince1970: start + Int64($0)) }
        #expect(made == made.sorted())
        #expect(Set(made).count == made.count)
    }

    @Test func idsOfOneMillisecondAreDistinct() {
        let made = (0..<10_000).map { _ in RandomUUID.timeOrdered(millisecondsSince1970: 1_764_800_000_000) }
        #expect(Set(made).count == made.count)
    }

    @Test func aPushForAnotherInstanceIsNamedByTheTimeItWasAccepted() throws {
        let request = PushRequest(payloadText: #"{"aps":{"alert":"hi"}}"#, app: "com.example.app", channel: .apns, via: .apns)
        let first = RemotePush(request, token: "0a1b", timeToLive: nil, now: Date(timeIntervalSince1970: 1_764_800_000))
        let later = RemotePush(request, token: "0a1b", timeToLive: nil, now: Date(timeIntervalSince1970: 1_764_800_000.002))
        #expect(first.id.hasPrefix("019ae646-f000-7"))
        #expect(first.id < later.id)
        let bytes = try #require(UUID(uuidString: first.id)).uuid
        #expect(bytes.6 >> 4 == 7)
    }
}

@Suite struct BusLinesTests {
    @Test func linesAreJoinedUpToTheLimitAndSplitBack() {
        let lines: [[UInt8]] = (0..<10).map { Array("{\"n\":\($0)}".utf8) }
        let messages = BusLines.join(lines, maxBytes: 30)
        #expect(messages.allSatisfy { $0.count <= 30 })
        #expect(messages.count == 4)
        #expect(messages.flatMap { BusLines.split($0).map(Array.init) } == lines)
        #expect(BusLines.join([Array("x".utf8)]) == [Array("x".utf8)])
        #expect(BusLines.join([]) == [])
    }

    @Test func aLineLongerThanTheLimitIsAMessageAlone() {
        let long = [UInt8](repeating: 0x61, count: 50)
        #expect(BusLines.join([[0x62], long, [0x63]], maxBytes: 30) == [[0x62], long, [0x63]])
    }

    /// The single form is read exactly as before; several lines each a receipt; a bad line
    /// spoils only itself; an empty line or a trailing newline is nothing.
    @Test func receiptsAreReadOneAMessageOrOneALine() throws {
        let first = "019ae646-f000-7000-8000-000000000001", second = "019ae646-f000-7000-8000-000000000002"
        let single = #"{"push":"\#(first)","fate":"stored","reason":null}"#
        #expect(BusReceipt.decode(lines: Array(single.utf8)).receipts == [BusReceipt(push: first, fate: .stored, reason: nil)])
        #expect(try BusReceipt.decode(wire: Array(single.utf8)) == BusReceipt(push: first, fate: .stored, reason: nil))
        let several = single + "\n" + #"{"push":"\#(second)","fate":"dropped","reason":"repeat"}"# + "\nnot a receipt\n\n"
        let read = BusReceipt.decode(lines: Array(several.utf8))
        #expect(read.receipts.map(\.push) == [first, second])
        #expect(read.receipts[1].fate == .dropped && read.receipts[1].reason == "repeat")
        #expect(read.malformed == 1)
    }
}

@Suite struct UUIDTextTests {
    /// The same answer as Foundation's `UUID(uuidString:)`, which it replaces where ids are checked.
    @Test(arguments: [
        "019ae646-f000-7000-8000-000000000001", "01938A2B-3C4D-7ABC-8DEF-0123456789AB", "ffffffff-ffff-4fff-bfff-ffffffffffff",
        "019ae646f000-7000-8000-000000000001-", "019ae646-f000-7000-8000-00000000000", "019ae646-f000-7000-8000-0000000000011",
        "019ae646-f000-7000-8000-00000000000g", "019ae646_f000-7000-8000-000000000001", "", "not a uuid",
        "019ae646-f000-7000-8000-00000000000é", "019ae646-f0:0-7000-8000-000000000001", "019ae646-f000-7000-8000-0000000000@1",
    ])
    func wellFormedAsFoundationSays(_ text: String) {
        #expect(RandomUUID.isWellFormed(text) == (UUID(uuidString: text) != nil), "\(text)")
    }

    /// Foundation's parser on Linux reads each group with `sscanf`, which also lets a sign or
    /// spaces lead a group: not a UUID's text (RFC 9562), and no pushdeck ever sends one.
    @Test(arguments: ["+19ae646-f000-7000-8000-000000000001", " 19ae646-f000-7000-8000-000000000001", "019ae646-+000-7000-8000-000000000001"])
    func aSignOrASpaceIsNoDigit(_ text: String) {
        #expect(!RandomUUID.isWellFormed(text))
    }

    @Test func everyMadeOneIsWellFormed() {
        for _ in 0..<100 {
            #expect(RandomUUID.isWellFormed(RandomUUID.text()))
            #expect(RandomUUID.isWellFormed(RandomUUID.timeOrdered(millisecondsSince1970: 1_764_800_000_000)))
        }
    }
}
