import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// What pushdeck prints or writes as JSON never steers a terminal.
@Suite struct TerminalTextTests {
    @Test func inertEscapesControlsC1BidiAndBytesThatAreNotUTF8() {
        let bytes: [UInt8] = Array("\u{1b}]2;PWNED\u{07}\u{1b}[2J".utf8) + [0xC2, 0x9B] + Array("2J ok\u{202e}txt\u{2066}".utf8)
            + [0xFF, 0x0D] + Array("\n\tend\u{7f}".utf8)
        #expect(TerminalText.inert(bytes) == #"\x1b]2;PWNED\x07\x1b[2J\u009B2J ok\u202Etxt\u2066\xff\x0d"# + "\n\tend\\x7f")
        #expect(TerminalText.inert("flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}") == "flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}")
        #expect(TerminalText.inert("line\u{2028}sep\u{200b}") == #"line\u2028sep\u200B"#)
    }

    @Test func inertLeavesOrdinaryTextAlone() {
        let text = "Order 1270339 shipped — 訂單已發貨 👨‍👩‍👧 ❤️ café\n\tC:\\path \"q\" ©"
        #expect(TerminalText.inert(text) == text)
        #expect(TerminalText.inert(Array(text.utf8)) == text)
    }

    @Test func theJSONWriterEscapesWhatATerminalMustNotGetAndParsesBack() throws {
        let text = "c1\u{9b}2J bidi\u{202e}gnp.exe\u{202c} iso\u{2066}x\u{2069} ls\u{2028}ps\u{2029} zw\u{200b}\u{200f} bom\u{feff} del\u{7f} esc\u{1b}[2J 訂單 👍🏽"
        let written = JSON.string(text).compactText
        #expect(written == #""c1\u009B2J bidi\u202Egnp.exe\u202C iso\u2066x\u2069 ls\u2028ps\u2029 zw\u200B\u200F bom\uFEFF del\u007F esc\u001B[2J 訂單 👍🏽""#)
        #expect(TerminalInertness.violations(in: written).isEmpty)
        #expect(try JSON.parse(written) == .string(text))
        let object: JSON = ["k\u{202e}": .string(text)]
        #expect(TerminalInertness.violations(in: object.prettyText).isEmpty)
        #expect(try JSON.parse(object.prettyText) == object)
    }

    /// For any bytes: `inert` leaves nothing a terminal obeys, and the JSON writer's text of any
    /// string has nothing either and parses back to that string.
    @Test(arguments: 0..<8)
    func anyBytesAreMadeInert(seed: UInt64) throws {
        var random = SeededRandom(seed: 0x7E12_0000 + seed)
        // Bytes biased toward what is dangerous: ESC, C1 lead bytes, bidi, partial sequences.
        let pieces: [[UInt8]] = [
            [0x1B], [0x07], [0x0D], [0x00], [0x7F], [0x9B], [0xC2, 0x9B], [0xC2, 0x85], [0xE2, 0x80, 0xAE],
            [0xE2, 0x81, 0xA6], [0xE2, 0x80, 0xA8], [0xD8, 0x9C], [0xEF, 0xBB, 0xBF], [0xF3, 0xA0, 0x81, 0x81],
            [0xE2, 0x80], [0xF0, 0x9F, 0x91, 0x8D], Array("[2J".utf8), Array("]0;t".utf8), [0x5C], [0x22], [0x0A],
        ]
        for _ in 0..<500 {
            let bytes = random.bytes(Int(random.next() % 40), mixing: pieces)
            let inert = TerminalText.inert(bytes)
            #expect(TerminalInertness.violations(in: inert).isEmpty, "\(bytes) → \(inert.debugDescription)")
            let text = String(decoding: bytes, as: UTF8.self)
            let written = JSON.string(text).compactText
            #expect(TerminalInertness.violations(in: written).isEmpty, "\(bytes) → \(written.debugDescription)")
            #expect(try JSON.parse(written) == .string(text))
        }
    }
}
