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

/// What to write to bring the terminal from one grid to the next.
public enum GridDiff {
    /// The changed runs, row by row, left to right. Without a previous grid (or after a resize)
    /// every row is one run. A run never starts on the right half of a wide grapheme nor ends on
    /// its left half: both halves are written together.
    public static func changes(from old: Grid?, to new: Grid) -> [GridRun] {
        guard new.width > 0, new.height > 0 else { return [] }
        guard let old, old.size == new.size else {
            return (0..<new.height).map { y in GridRun(x: 0, y: y, cells: (0..<new.width).map { new[$0, y] }) }
        }
        var runs: [GridRun] = []
        for y in 0..<new.height {
            var x = 0
            while x < new.width {
                guard old[x, y] != new[x, y] else {
                    x += 1
                    continue
                }
                var start = x
                if new[start, y].isContinuation, start > 0 { start -= 1 }
                var end = x + 1
                while end < new.width, old[end, y] != new[end, y] { end += 1 }
                // Write the right half with its left half, so a wide grapheme goes out whole.
                if end < new.width, new[end, y].isContinuation { end += 1 }
                if let last = runs.last, last.y == y, last.x + last.cells.count > start {
                    start = last.x + last.cells.count
                }
                if start < end {
                    runs.append(GridRun(x: start, y: y, cells: (start..<end).map { new[$0, y] }))
                }
                x = end
            }
        }
        return runs
    }
}
