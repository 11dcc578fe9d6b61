import PushTUI

/// A run of cells on one row that changed between two frames.
public struct GridRun: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var cells: [Cell]

    public init(x: Int, y: Int, cells: [Cell]) {
        self.x = x
        self.y = y
        self.cells = cells
    }
}

/// Where a run of changed cells is: columns `x ..< end` of row `y`.
public struct GridSpan: Sendable, Equatable {
    public var y: Int
    public var x: Int
    public var end: Int

    public init(y: Int, x: Int, end: Int) {
        self.y = y
        self.x = x
        self.end = end
    }
}

/// What to write to bring the terminal from one grid to the next.
public enum GridDiff {
    /// The changed runs, row by row, left to right. Without a previous grid (or after a resize)
    /// every row is one run. A run never starts on the right half of a wide grapheme nor ends on
    /// its left half: both halves are written together.
    public static func changes(from old: Grid?, to new: Grid) -> [GridRun] {
        spans(from: old, to: new).map { span in
            GridRun(x: span.x, y: span.y, cells: (span.x..<span.end).map { new[$0, span.y] })
        }
    }

    /// Where `changes(from:to:)`'s runs are, without copying their cells (what the terminal uses).
    /// Runs on one row at most `gap` unchanged cells apart are joined into one (rewriting a few
    /// unchanged cells costs less than another call and cursor move).
    public static func spans(from old: Grid?, to new: Grid, joiningGapsOf gap: Int = 0) -> [GridSpan] {
        guard new.width > 0, new.height > 0 else { return [] }
        guard let old, old.size == new.size else {
            return (0..<new.height).map { GridSpan(y: $0, x: 0, end: new.width) }
        }
        let width = new.width
        var spans: [GridSpan] = []
        for y in 0..<new.height where !new.rowIsSame(since: old, row: y) {
            new.forEachChangedRun(since: old, row: y) { run in
                var start = run.lowerBound
                if new.isContinuation(x: start, y: y), start > 0 { start -= 1 }
                var end = run.upperBound
                // Write the right half with its left half, so a wide grapheme goes out whole.
                if end < width, new.isContinuation(x: end, y: y) { end += 1 }
                if let last = spans.last, last.y == y, last.end > start { start = last.end }
                if gap > 0, let last = spans.last, last.y == y, start - last.end <= gap {
                    spans[spans.count - 1].end = max(last.end, end)
                } else if start < end {
                    spans.append(GridSpan(y: y, x: start, end: end))
                }
                return true
            }
        }
        return spans
    }
}
