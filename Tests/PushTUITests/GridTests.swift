import Testing
import PushTUI

@Suite("Grid")
struct GridTests {
    @Test func putCutsByColumnsWithEllipsis() {
        var grid = Grid(width: 10, height: 1)
        let written = grid.put("訂單已發貨點擊", x: 0, y: 0)
        #expect(written == 9)
        #expect(grid.text == "訂單已發…")
    }

    @Test func wideCharacterNeverSplitAtTheEdge() {
        var grid = Grid(width: 5, height: 1)
        grid.put("ab中", x: 3, y: 0, maxWidth: 2)
        #expect(grid.rowText(0) == "   a…")
        var edge = Grid(width: 3, height: 1)
        edge.put("中", x: 2, y: 0)
        #expect(!edge[2, 0].isContinuation)
    }

    @Test func overwritingHalfAWideCharBlanksTheOtherHalf() {
        var grid = Grid(width: 4, height: 1)
        grid.put("中文", x: 0, y: 0)
        #expect(grid[1, 0].isContinuation)
        grid.put("x", x: 1, y: 0)
        #expect(grid.rowText(0) == " x文")
        grid.put("y", x: 2, y: 0)
        #expect(grid.rowText(0) == " xy ")
    }

    @Test func controlsNeverReachACell() {
        var grid = Grid(width: 10, height: 1)
        grid.put("a\u{1b}b\u{7}c", x: 0, y: 0)
        #expect(grid.text == "a" + "b" + "c")
    }

    @Test func wideCharsAppearOnceInText() {
        var grid = Grid(width: 8, height: 2)
        grid.put("👨‍👩‍👧❤️", x: 0, y: 1)
        #expect(grid.rowText(1) == "👨‍👩‍👧❤️    ")
    }

    @Test func fillAndZeroSize() {
        var grid = Grid(width: 0, height: 0)
        grid.put("x", x: 0, y: 0)
        grid.fill(Rect(x: 0, y: 0, width: 5, height: 5), with: "#")
        #expect(grid.text == "")
        var small = Grid(width: 3, height: 2)
        small.fill(Rect(x: 1, y: 0, width: 5, height: 5), with: "#")
        #expect(small.text == " ##\n ##")
    }
}
