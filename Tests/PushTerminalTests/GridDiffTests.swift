import PushTUI
import Testing
@testable import PushTerminal

@Suite("Grid diff")
struct GridDiffTests {
    @Test func firstFrameIsEveryRow() {
        var grid = Grid(width: 3, height: 2)
        grid.put("ab", x: 0, y: 0)
        let runs = GridDiff.changes(from: nil, to: grid)
        #expect(runs.map(\.y) == [0, 1])
        #expect(runs.allSatisfy { $0.x == 0 && $0.cells.count == 3 })
    }

    @Test func sameGridHasNoChanges() {
        var grid = Grid(width: 20, height: 5)
        grid.put("訂單 ❤️ hello", x: 1, y: 2)
        #expect(GridDiff.changes(from: grid, to: grid).isEmpty)
    }

    @Test func onlyChangedCellsAreWritten() {
        var old = Grid(width: 10, height: 3)
        old.put("hello", x: 0, y: 1)
        var new = old
        new.put("J", x: 0, y: 1)
        new.put("!", x: 8, y: 2)
        let runs = GridDiff.changes(from: old, to: new)
        #expect(runs == [
            GridRun(x: 0, y: 1, cells: [new[0, 1]]),
            GridRun(x: 8, y: 2, cells: [new[8, 2]]),
        ])
    }

    @Test func wideGraphemeGoesOutWhole() {
        var old = Grid(width: 6, height: 1)
        old.put("ab", x: 0, y: 0)
        var new = old
        new.put("中", x: 1, y: 0)  // overwrites b and the blank after it
        let runs = GridDiff.changes(from: old, to: new)
        #expect(runs.count == 1)
        #expect(runs[0].x == 1)
        #expect(runs[0].cells.count == 2)
        #expect(runs[0].cells[1].isContinuation)
    }

    @Test func styleChangeIsAChange() {
        var old = Grid(width: 4, height: 1)
        old.put("ab", x: 0, y: 0)
        var new = Grid(width: 4, height: 1)
        new.put("ab", x: 0, y: 0, style: Style(.selection))
        #expect(GridDiff.changes(from: old, to: new).first?.cells.count == 2)
    }

    @Test func resizeRedrawsEverything() {
        let old = Grid(width: 4, height: 2)
        let new = Grid(width: 5, height: 2)
        #expect(GridDiff.changes(from: old, to: new).count == 2)
        #expect(GridDiff.changes(from: old, to: Grid(width: 0, height: 0)).isEmpty)
    }

    @Test func applyingRunsToOldGivesNew() {
        var old = Grid(width: 12, height: 3)
        old.put("您有一條新消息", x: 0, y: 0)
        old.put("plain", x: 2, y: 2)
        var new = Grid(width: 12, height: 3)
        new.put("x您有條新消", x: 0, y: 0)
        new.put("👨‍👩‍👧 ok", x: 3, y: 1)
        var replay = old
        for run in GridDiff.changes(from: old, to: new) {
            for (offset, cell) in run.cells.enumerated() {
                replay.overwrite(cell, x: run.x + offset, y: run.y)
            }
        }
        #expect(replay == new)
    }

    @Test func nearbyRunsAreJoinedWhenAsked() {
        var old = Grid(width: 30, height: 2)
        old.put("hello world, hello", x: 0, y: 0)
        var new = old
        new.put("J", x: 0, y: 0)
        new.put("W", x: 6, y: 0)
        new.put("H", x: 13, y: 0)
        new.put("中", x: 28, y: 1)
        #expect(GridDiff.spans(from: old, to: new).map { [$0.y, $0.x, $0.end] } == [[0, 0, 1], [0, 6, 7], [0, 13, 14], [1, 28, 30]])
        #expect(GridDiff.spans(from: old, to: new, joiningGapsOf: 5).map { [$0.y, $0.x, $0.end] } == [[0, 0, 7], [0, 13, 14], [1, 28, 30]])
        #expect(GridDiff.spans(from: old, to: new, joiningGapsOf: 8).map { [$0.y, $0.x, $0.end] } == [[0, 0, 14], [1, 28, 30]])
        // Joined runs rewrite unchanged cells as they are: replaying them still gives the new grid.
        var replay = old
        for span in GridDiff.spans(from: old, to: new, joiningGapsOf: 8) {
            for x in span.x..<span.end { replay.overwrite(new[x, span.y], x: x, y: span.y) }
        }
        #expect(replay == new)
    }

    @Test func changedRunsSeeClusterText() {
        var old = Grid(width: 10, height: 1)
        old.put("a❤️b", x: 0, y: 0)
        var new = Grid(width: 10, height: 1)
        new.put("a🇯🇵b", x: 0, y: 0)  // the same table index, other text
        var runs: [Range<Int>] = []
        new.forEachChangedRun(since: old, row: 0) { runs.append($0); return true }
        #expect(runs == [1..<2])
        #expect(GridDiff.spans(from: old, to: new).map { [$0.x, $0.end] } == [[1, 3]])
        #expect(new.rowIsSame(since: new, row: 0))
        #expect(!new.rowIsSame(since: old, row: 0))
    }
}
