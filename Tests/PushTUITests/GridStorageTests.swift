import Testing
import TestSupport
@testable import PushTUI

/// The grid keeps one-scalar graphemes inline and longer ones in a table of its own; these pin
/// that the storage is invisible from outside, and that the fast ways of writing equal the slow.
@Suite("Grid storage")
struct GridStorageTests {
    /// Scalars that stand alone (`DisplayWidth.standsAlone`), narrow and wide, plus the soft
    /// hyphen (zero columns): the fast path's whole alphabet in miniature.
    static let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "~", "é", "\u{AD}", "—", "…", "●", "─", "↑",
                                             "中", "訂", "한", "あ", "ア", "：", "Ａ", "。", "€"]

    @Test func standingAloneTextIsWrittenAsGraphemeByGraphemeWould() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<3000 {
            let length = Int(random.next() % 12)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]) }
            // Start from a row that already holds wide characters, so both ends can cut one.
            var before = Grid(width: 12, height: 1)
            before.put(random.next() % 2 == 0 ? "中文字ab中文" : "a中b文c字d", x: Int(random.next() % 3), y: 0,
                       style: Style(.dim, dim: true))
            let x = Int(random.next() % 12)
            let room = 1 + Int(random.next() % UInt64(12 - x))
            let style = Style(.selection, bold: random.next() % 2 == 0)
            var fast = before
            var slow = before
            let fastWritten = fast.putStandingAlone(text, x: x, y: 0, room: room, style: style)
            let slowWritten = slow.putGraphemes(text, x: x, y: 0, room: room, style: style)
            #expect(fastWritten == slowWritten, "\(text.debugDescription) at \(x) in \(room)")
            #expect(fast == slow, "\(text.debugDescription) at \(x) in \(room): \(fast.rowText(0)) vs \(slow.rowText(0))")
            #expect(fast.cells == slow.cells)
        }
    }

    @Test func partsAreWrittenAsTheirConcatenation() {
        let cases: [[String]] = [["訂單 12 已發貨", " — ", "您有一條新消息"], ["Morning brief", " — ", "Markets open"],
                                 ["e", "\u{301}x"], ["🇯", "🇵 flag"], ["a"], [], ["", "中"], ["ab", "", "cd"]]
        for parts in cases {
            for maxWidth in 0...16 {
                var joined = Grid(width: 14, height: 1)
                joined.put("中文字中文字中", x: 0, y: 0)
                var pieces = joined
                let a = joined.put(parts.joined(), x: 1, y: 0, maxWidth: maxWidth, style: Style(.warning))
                let b = pieces.put(parts, x: 1, y: 0, maxWidth: maxWidth, style: Style(.warning))
                #expect(a == b && joined == pieces, "\(parts) in \(maxWidth): \(joined.rowText(0)) vs \(pieces.rowText(0))")
            }
        }
    }

    @Test func textWithAJoiningScalarTakesTheGraphemePath() {
        var grid = Grid(width: 10, height: 1)
        #expect(grid.putStandingAlone("e\u{301}x", x: 0, y: 0, room: 10, style: .plain) == nil)
        #expect(grid.putStandingAlone("🇯🇵", x: 0, y: 0, room: 10, style: .plain) == nil)
        grid.put("e\u{301}x❤️", x: 0, y: 0)
        #expect(grid.rowText(0) == "e\u{301}x❤️      ")
        #expect(grid[0, 0].content == .cluster("e\u{301}"))
        #expect(grid[1, 0].content == .scalar("x"))
        #expect(grid[3, 0].isContinuation)
    }

    @Test func clustersCompareByTextAcrossGrids() {
        // The same emoji lands at different table indexes in the two grids.
        var a = Grid(width: 8, height: 1)
        a.put("👍🏽", x: 0, y: 0)
        a.put("❤️", x: 4, y: 0)
        var b = Grid(width: 8, height: 1)
        b.put("❤️", x: 4, y: 0)
        b.put("👍🏽", x: 0, y: 0)
        #expect(a == b)
        #expect(b.rowIsSame(since: a, row: 0))
        // Same table index, different text: different.
        var c = Grid(width: 8, height: 1)
        c.put("🇯🇵", x: 0, y: 0)
        c.put("❤️", x: 4, y: 0)
        #expect(a != c)
        #expect(c.firstChange(since: a, row: 0, from: 0) == 0)
        #expect(c.firstSame(since: a, row: 0, from: 0) == 1)
    }

    @Test func aClusterAndTheSameTextAsScalarsAreEqual() {
        var a = Grid(width: 4, height: 1)
        a.overwrite(Cell(.cluster("x")), x: 0, y: 0)
        var b = Grid(width: 4, height: 1)
        b.put("x", x: 0, y: 0)
        #expect(a == b)
        #expect(Cell.Content.cluster("x") == .scalar("x"))
        #expect(Cell.Content.cluster("e\u{301}") != .scalar("e"))
        #expect(Cell.Content.continuation != .scalar(" "))
    }

    @Test func copiedCellsKeepTheirClusters() {
        var banner = Grid(width: 10, height: 2)
        banner.put("👨‍👩‍👧 ok", x: 1, y: 1)
        var slice = Grid(width: 8, height: 1)
        slice.blit(banner, rows: 1..<2, toY: 0)
        #expect(slice.rowText(0) == " 👨‍👩‍👧 ok  ")
        var screen = Grid(width: 8, height: 1)
        screen.put("🇯🇵", x: 0, y: 0)  // the screen's own table already holds another cluster
        for x in 0..<8 { screen.copyCell(from: slice, x: x, y: 0, toX: x, toY: 0) }
        #expect(screen.rowText(0) == " 👨‍👩‍👧 ok  ")
        #expect(screen == slice)
        // Outside the source, a copy is a blank.
        screen.copyCell(from: slice, x: 20, y: 0, toX: 0, toY: 0)
        #expect(screen[0, 0] == .blank)
    }

    @Test func cellsReadBackAsWritten() {
        var grid = Grid(width: 6, height: 2, fill: Cell("·", style: Style(.dim)))
        grid.put("a中❤️", x: 0, y: 1, style: Style(.warning, bold: true))
        #expect(grid[0, 0] == Cell("·", style: Style(.dim)))
        #expect(grid[1, 1] == Cell("中", style: Style(.warning, bold: true)))
        #expect(grid[2, 1] == Cell(.continuation, style: Style(.warning, bold: true)))
        #expect(grid[3, 1].character == "❤️")
        #expect(grid.scalar(x: 1, y: 1) == "中")
        #expect(grid.scalar(x: 3, y: 1) == nil)
        #expect(grid.scalar(x: 2, y: 1) == nil)
        #expect(grid.scalar(x: 9, y: 9) == nil)
        #expect(grid.style(x: 0, y: 1) == Style(.warning, bold: true))
        #expect(grid.isContinuation(x: 4, y: 1))
        #expect(!grid.isContinuation(x: -1, y: 0))
        #expect(grid.cells.count == 12)
        grid.withRow(1) { row in
            #expect(row.count == 6)
            #expect(row.scalar(1) == "中" && row.scalar(3) == nil && row.scalar(6) == nil)
            #expect(row.isContinuation(2) && !row.isContinuation(6) && !row.isContinuation(-1))
            #expect(row.style(0) == Style(.warning, bold: true) && row.style(9) == .plain)
        }
        grid.withRow(7) { #expect($0.count == 0 && $0.scalar(0) == nil) }
        var replay = Grid(width: 6, height: 2)
        for (index, cell) in grid.cells.enumerated() { replay.overwrite(cell, x: index % 6, y: index / 6) }
        #expect(replay == grid)
    }

    @Test func fillingOverHalfAWideCharacterBlanksItsOtherHalf() {
        var grid = Grid(width: 8, height: 1)
        grid.put("中文字", x: 1, y: 0)
        grid.fill(Rect(x: 2, y: 0, width: 3, height: 1), with: "-")
        #expect(grid.rowText(0) == "  ---字 ")
        grid.fill(Rect(x: 0, y: 0, width: 8, height: 1), with: "中")
        #expect(grid.rowText(0) == "中中中中")
        grid.fill(Rect(x: 1, y: 0, width: 7, height: 1), with: "❤️")
        // The last column cannot hold a fourth; the 中 it cut in half is blanked.
        #expect(grid.rowText(0) == " ❤️❤️❤️ ")
    }
}

@Suite("Styles as integers")
struct StylePackingTests {
    @Test func everyRoleAndFlagRoundTrips() {
        for (index, role) in ColorRole.allCases.enumerated() {
            #expect(role.ordinal == UInt32(index))
            #expect(ColorRole(ordinal: UInt32(index)) == role)
            for flags in 0..<16 {
                let style = Style(role, bold: flags & 1 != 0, dim: flags & 2 != 0, reverse: flags & 4 != 0,
                                  underline: flags & 8 != 0)
                #expect(style.role == role)
                #expect(style.bold == (flags & 1 != 0))
                #expect(style.dim == (flags & 2 != 0))
                #expect(style.reverse == (flags & 4 != 0))
                #expect(style.underline == (flags & 8 != 0))
                var changed = style
                changed.role = .warning
                changed.underline.toggle()
                #expect(changed.role == .warning && changed.bold == style.bold && changed.underline != style.underline)
            }
        }
        #expect(Style(.header).bolded == Style(.header, bold: true))
        #expect("\(Style(.dim, dim: true))" == "Style(dim, dim)")
    }
}
