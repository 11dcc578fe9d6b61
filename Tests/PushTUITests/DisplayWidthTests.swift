import Testing
@testable import PushTUI

@Suite("Display width per grapheme")
struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("中", 2), ("訂", 2), ("한", 2), ("あ", 2), ("Ａ", 2), ("！", 2), ("😀", 2), ("👍", 2),
        ("❤️", 2), ("❤", 1), ("☀️", 2), ("🇯🇵", 2), ("👨‍👩‍👧", 2), ("👍🏽", 2), ("1️⃣", 2),
        ("e\u{301}", 1), ("\u{301}", 0), ("\u{7}", 0), ("\u{1b}", 0), ("\u{9b}", 0), ("\u{7f}", 0),
        ("\u{200b}", 0), ("☺︎", 1), ("€", 1), ("Ω", 1), ("…", 1), ("─", 1), ("■", 1),
    ] as [(String, Int)])
    func graphemeWidth(text: String, width: Int) throws {
        let character = try #require(text.first)
        #expect(text.count == 1)
        #expect(DisplayWidth.of(character) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func stringWidthSumsClusters() {
        #expect("訂單 1270339".columns == 12)
        #expect("café".columns == 4)
        #expect("cafe\u{301}".columns == 4)
        #expect("👨‍👩‍👧❤️🇯🇵".columns == 6)
        #expect("ｆｕｌｌ".columns == 8)
    }

    /// The fast answers for common scalars are the answers the Unicode properties give.
    @Test func fastScalarWidthsAgreeWithTheProperties() {
        let ranges: [ClosedRange<UInt32>] = [0...0x3FF, 0x2000...0x27BF, 0x3000...0x30FF, 0x3400...0x9FFF,
                                             0xAC00...0xD7A3, 0xFF00...0xFFEF]
        for value in ranges.joined() {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(DisplayWidth.of(scalar) == DisplayWidth.ofScalarByProperties(scalar), "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.of(scalar) == DisplayWidth.of(Character(scalar)))
        }
    }

    /// Every scalar the fast path takes as a grapheme on its own is one, whatever stands next to it.
    @Test func standingAloneScalarsNeverJoinTheirNeighbours() {
        let probes: [Unicode.Scalar] = ["a", " ", "é", "中", "한", "ア", "─", "…", "：", "\u{AD}"]
        var count = 0
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), DisplayWidth.standsAlone(scalar) else { continue }
            count += 1
            for probe in probes + [scalar] {
                var after = String(scalar)
                after.unicodeScalars.append(probe)
                var before = String(probe)
                before.unicodeScalars.append(scalar)
                #expect(after.count == 2 && before.count == 2, "U+\(String(value, radix: 16)) and U+\(String(probe.value, radix: 16))")
            }
        }
        #expect(count > 30_000)
        #expect(!DisplayWidth.standsAlone("\u{301}"))
        #expect(!DisplayWidth.standsAlone("\u{200D}"))
        #expect(!DisplayWidth.standsAlone("\u{FE0F}"))
        #expect(!DisplayWidth.standsAlone("\u{1F1EF}"))
        #expect(!DisplayWidth.standsAlone("\u{1100}"))
        #expect(!DisplayWidth.standsAlone("\n"))
    }

    @Test func textWidthWithoutGraphemeBreaking() {
        #expect(DisplayWidth.ofStandingAlone("訂單 — ok…") == 10)
        #expect(DisplayWidth.ofStandingAlone("soft\u{AD}hyphen") == 10)
        #expect(DisplayWidth.ofStandingAlone("e\u{301}") == nil)
        #expect(DisplayWidth.ofStandingAlone("") == 0)
        #expect("soft\u{AD}hyphen".columns == 10)
    }

    @Test func controlsAreNotPrintable() {
        #expect(!DisplayWidth.isPrintable("\u{1b}"))
        #expect(!DisplayWidth.isPrintable("\r\n"))
        #expect(DisplayWidth.isPrintable("中"))
    }
}

@Suite("Cutting and wrapping by columns")
struct ColumnsTests {
    @Test func shortTextIsKept() {
        #expect("hello".cut(toColumns: 5) == "hello")
        #expect("中文".cut(toColumns: 4) == "中文")
    }

    @Test func cutEndsWithEllipsis() {
        #expect("hello world".cut(toColumns: 6) == "hello…")
        #expect("訂單已發貨".cut(toColumns: 6) == "訂單…")
        // 5 columns: two wide chars take 4, the ellipsis 1.
        #expect("訂單已發貨".cut(toColumns: 5) == "訂單…")
        // Never half a wide char: 4 columns hold one wide char and the ellipsis.
        #expect("訂單已發貨".cut(toColumns: 4) == "訂…")
        #expect("👨‍👩‍👧👨‍👩‍👧".cut(toColumns: 3) == "👨‍👩‍👧…")
        #expect("abc".cut(toColumns: 0) == "")
        #expect("abc".cut(toColumns: 1) == "…")
    }

    @Test(arguments: 1...12)
    func cutNeverExceedsWidth(width: Int) {
        for text in ["訂單 1270339 已發貨", "👨‍👩‍👧 Family ❤️🇯🇵", "ｆｕｌｌｗｉｄｔｈ", "plain ascii text here"] {
            #expect(text.cut(toColumns: width).columns <= width)
            #expect(text.padded(toColumns: width).columns == width)
        }
    }

    @Test func wrapBreaksAtSpacesAndBetweenCJK() {
        #expect("the quick brown fox".wrapped(toColumns: 10) == ["the quick", "brown fox"])
        #expect("您有一條新消息".wrapped(toColumns: 6) == ["您有一", "條新消", "息"])
        #expect("a\nb".wrapped(toColumns: 5) == ["a", "b"])
        #expect("abcdefghij".wrapped(toColumns: 4) == ["abcd", "efgh", "ij"])
    }
}
