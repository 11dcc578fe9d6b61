/// The screen as cells: views draw into it, the terminal backend flushes it, tests read it as text.
///
/// Every write keeps the grid consistent: a wide grapheme always has its continuation cell to the
/// right, and overwriting either half of one blanks the other half.
public struct Grid: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    public init(_ size: Size) { self.init(width: size.width, height: size.height) }

    public var size: Size { Size(width: width, height: height) }
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, x < width, y >= 0, y < height else { return .blank }
        return cells[y * width + x]
    }

    // MARK: - Writing

    /// Writes `text` at (`x`, `y`) in at most `maxWidth` columns (and never past the right edge),
    /// cutting with `…` when it does not fit. Controls are skipped. Returns the columns written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, maxWidth: Int = Int.max, style: Style = .plain) -> Int {
        guard y >= 0, y < height, x >= 0, x < width else { return 0 }
        let room = min(maxWidth, width - x)
        guard room > 0 else { return 0 }
        let shown = text.columns > room ? text.cut(toColumns: room) : text
        var column = x
        for character in shown {
            let w = DisplayWidth.of(character)
            guard w > 0, DisplayWidth.isPrintable(character) else { continue }
            setGrapheme(character, width: w, x: column, y: y, style: style)
            column += w
        }
        return column - x
    }

    /// Fills `rect` (clipped to the grid) with `character` in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let w = max(1, DisplayWidth.of(character))
        let x0 = max(0, rect.x)
        let x1 = min(width, rect.maxX)
        for y in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.maxY)) {
            var x = x0
            while x + w <= x1 {
                setGrapheme(character, width: w, x: x, y: y, style: style)
                x += w
            }
        }
    }

    /// Sets the style of every cell in `rect`, keeping their text.
    public mutating func restyle(_ rect: Rect, style: Style) {
        for y in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.maxY)) {
            for x in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.maxX)) {
                cells[y * width + x].style = style
            }
        }
    }

    /// Copies the rows `rows` of `other` to this grid starting at row `y` (the banner's slide).
    public mutating func blit(_ other: Grid, rows: Range<Int>, toY y: Int) {
        for (offset, row) in rows.enumerated() where row >= 0 && row < other.height {
            let target = y + offset
            guard target >= 0, target < height else { continue }
            for x in 0..<min(width, other.width) {
                cells[target * width + x] = other[x, row]
            }
            // A wide grapheme cut by a narrower target would leave half a character.
            if other.width > width, width > 0, other[width, row].isContinuation {
                cells[target * width + width - 1] = Cell(style: other[width - 1, row].style)
            }
        }
    }

    private mutating func setGrapheme(_ character: Character, width w: Int, x: Int, y: Int, style: Style) {
        guard x >= 0, x < width else { return }
        // A wide grapheme that does not fit in the last column becomes a blank.
        if w == 2 && x + 1 >= width {
            clear(x: x, y: y)
            cells[y * width + x] = Cell(style: style)
            return
        }
        clear(x: x, y: y)
        cells[y * width + x] = Cell(.grapheme(character), style: style)
        if w == 2 {
            clear(x: x + 1, y: y)
            cells[y * width + x + 1] = Cell(.continuation, style: style)
        }
    }

    /// Blanks the cell at (x, y) and the other half of the wide grapheme it belongs to, if any.
    private mutating func clear(x: Int, y: Int) {
        let index = y * width + x
        if cells[index].isContinuation, x > 0 {
            cells[index - 1] = Cell(style: cells[index - 1].style)
        } else if x + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1] = Cell(style: cells[index + 1].style)
        }
        cells[index] = Cell(style: cells[index].style)
    }

    // MARK: - Reading

    /// One row as text: each grapheme once, continuation cells skipped.
    public func rowText(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var line = ""
        for x in 0..<width {
            if let character = cells[y * width + x].character { line.append(character) }
        }
        return line
    }

    /// The whole grid as plain text rows (trailing spaces trimmed), for snapshots.
    public var text: String {
        (0..<height).map { rowText($0).trimmingTrailingSpaces() }.joined(separator: "\n")
    }
}

extension Grid {
    /// Sets one cell exactly as given, without keeping wide pairs whole (replaying a diff).
    public mutating func overwrite(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        cells[y * width + x] = cell
    }

    /// Copies one cell of `other` here, as is (the caller copies whole rows, so wide pairs stay whole).
    mutating func copyCell(from other: Grid, x: Int, y: Int, toX: Int, toY: Int) {
        guard toX >= 0, toX < width, toY >= 0, toY < height else { return }
        cells[toY * width + toX] = other[x, y]
    }
}
