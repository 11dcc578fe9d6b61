import Glibc

/// The screen as cells: views draw into it, the terminal backend flushes it, tests read it as text.
///
/// Every write keeps the grid consistent: a wide grapheme always has its continuation cell to the
/// right, and overwriting either half of one blanks the other half.
///
/// Cells are stored as plain integers (`Slot`): a grapheme of one scalar inline, a longer one as an
/// index into this grid's `clusters`. Creating, copying and comparing a frame is then memory work
/// with no reference counting; `Cell` values are made only for the reader who asks for one.
public struct Grid: Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    @usableFromInline var slots: [Slot]
    /// The text of every multi-scalar grapheme written, indexed by `Slot.clusterIndex`.
    @usableFromInline var clusters: [String] = []

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        slots = []
        let slot = intern(fill)
        slots = Array(repeating: slot, count: self.width * self.height)
    }

    public init(_ size: Size) { self.init(width: size.width, height: size.height) }

    public var size: Size { Size(width: width, height: height) }
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, x < width, y >= 0, y < height else { return .blank }
        return cell(slots[y * width + x])
    }

    /// Every cell, row by row.
    public var cells: [Cell] { slots.map(cell) }

    /// True when (x, y) is the right half of a wide grapheme (false outside the grid).
    @inlinable
    public func isContinuation(x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < height else { return false }
        return slots[y * width + x].isContinuation
    }

    /// The scalar at (x, y) when its grapheme is a single scalar; nil for a longer grapheme, a
    /// continuation or a place outside the grid. (The terminal's fast path: no `Cell` made.)
    @inlinable
    public func scalar(x: Int, y: Int) -> Unicode.Scalar? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let code = slots[y * width + x].code
        return code < Slot.clusterBase ? Unicode.Scalar(code) : nil
    }

    /// The style of the cell at (x, y) (plain outside the grid).
    @inlinable
    public func style(x: Int, y: Int) -> Style {
        guard x >= 0, x < width, y >= 0, y < height else { return .plain }
        return slots[y * width + x].style
    }

    /// Calls `body` with row `y`'s cells to read in place, without making `Cell`s (the terminal's
    /// draw loop). A row outside the grid reads as empty.
    @inlinable
    public func withRow<Result>(_ y: Int, _ body: (RowCells) -> Result) -> Result {
        slots.withUnsafeBufferPointer { buffer in
            guard y >= 0, y < height else { return body(RowCells(slots: UnsafeBufferPointer(rebasing: buffer[0..<0]))) }
            return body(RowCells(slots: UnsafeBufferPointer(rebasing: buffer[(y * width)..<((y + 1) * width)])))
        }
    }

    /// One row of a grid, read in place (see `withRow`). Valid only inside the `withRow` call.
    public struct RowCells {
        @usableFromInline let slots: UnsafeBufferPointer<Slot>

        @usableFromInline
        init(slots: UnsafeBufferPointer<Slot>) { self.slots = slots }

        /// The row's width.
        @inlinable public var count: Int { slots.count }

        /// True when column `x` is the right half of a wide grapheme (false past either end).
        @inlinable
        public func isContinuation(_ x: Int) -> Bool {
            x >= 0 && x < slots.count && slots[x].isContinuation
        }

        /// The scalar at `x` when its grapheme is a single scalar, else nil.
        @inlinable
        public func scalar(_ x: Int) -> Unicode.Scalar? {
            guard x >= 0, x < slots.count else { return nil }
            let code = slots[x].code
            return code < Slot.clusterBase ? Unicode.Scalar(code) : nil
        }

        /// The style at `x` (plain past either end).
        @inlinable
        public func style(_ x: Int) -> Style {
            x >= 0 && x < slots.count ? slots[x].style : .plain
        }
    }

    // MARK: - Writing

    /// Writes `text` at (`x`, `y`) in at most `maxWidth` columns (and never past the right edge),
    /// cutting with `…` when it does not fit. Controls are skipped. Returns the columns written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, maxWidth: Int = Int.max, style: Style = .plain) -> Int {
        guard y >= 0, y < height, x >= 0, x < width else { return 0 }
        let room = min(maxWidth, width - x)
        guard room > 0 else { return 0 }
        if let written = putStandingAlone(text, x: x, y: y, room: room, style: style) { return written }
        return putGraphemes(text, x: x, y: y, room: room, style: style)
    }

    /// Writes `parts` one after another as `put` writes their concatenation, without making it
    /// (a list row's `title — body`, every row of every frame).
    @discardableResult
    public mutating func put(_ parts: [String], x: Int, y: Int, maxWidth: Int = Int.max, style: Style = .plain) -> Int {
        guard y >= 0, y < height, x >= 0, x < width else { return 0 }
        let room = min(maxWidth, width - x)
        guard room > 0 else { return 0 }
        // Scalars that stand alone never join across the seams, so the parts may go one by one.
        if let written = putStandingAlone(parts, x: x, y: y, room: room, style: style) { return written }
        return putGraphemes(parts.joined(), x: x, y: y, room: room, style: style)
    }

    /// `put` for any text, a `Character` at a time (`room` > 0 columns from an `x` in the grid).
    mutating func putGraphemes(_ text: String, x: Int, y: Int, room: Int, style: Style) -> Int {
        let shown = text.columns > room ? text.cut(toColumns: room) : text
        var column = x
        for character in shown {
            let w = DisplayWidth.of(character)
            guard w > 0, DisplayWidth.isPrintable(character) else { continue }
            setGrapheme(intern(Cell.Content(character)), width: w, x: column, y: y, style: style)
            column += w
        }
        return column - x
    }

    /// `put` for text whose every scalar is a grapheme of its own (`DisplayWidth.standsAlone`):
    /// no grapheme breaking and no `Character`s, a scalar a cell. Nil for any other text.
    mutating func putStandingAlone(_ text: String, x: Int, y: Int, room: Int, style: Style) -> Int? {
        if let written = putPrintableASCII(text, x: x, y: y, room: room, style: style) { return written }
        return putStandingAlone(CollectionOfOne(text), x: x, y: y, room: room, style: style)
    }

    /// `putStandingAlone` for the concatenation of `parts`.
    mutating func putStandingAlone(_ parts: some Collection<String>, x: Int, y: Int, room: Int, style: Style) -> Int? {
        var columns = 0
        for part in parts {
            guard let partColumns = DisplayWidth.ofStandingAlone(part) else { return nil }
            columns += partColumns
        }
        // Cut as `cut(toColumns:)` does: what fits in one column less, then the ellipsis.
        let cut = columns > room
        let limit = cut ? room - 1 : room
        let width = self.width
        let row = y * width
        return slots.withUnsafeMutableBufferPointer { cells in
            // The cells written are x ..< column, one after another: a wide grapheme cut at either
            // end is all the writing can break (see `clear`), so only the ends are looked at.
            let startsOnContinuation = cells[row + x].isContinuation
            var column = x
            writing: for part in parts {
                for scalar in part.unicodeScalars {
                    let w = DisplayWidth.of(scalar)
                    guard w > 0 else { continue }
                    if column - x + w > limit { break writing }
                    cells[row + column] = Slot(code: scalar.value, style: style)
                    if w == 2 { cells[row + column + 1] = Slot(code: Slot.continuation, style: style) }
                    column += w
                }
            }
            if cut {
                cells[row + column] = Slot(code: Self.ellipsis, style: style)
                column += 1
            }
            guard column > x else { return 0 }
            if startsOnContinuation, x > 0 { cells[row + x - 1].code = Slot.blank }
            if column < width, cells[row + column].isContinuation { cells[row + column].code = Slot.blank }
            return column - x
        }
    }

    /// `putStandingAlone` for printable ASCII, a byte a cell; nil for any other text.
    private mutating func putPrintableASCII(_ text: String, x: Int, y: Int, room: Int, style: Style) -> Int? {
        let bytes = text.utf8
        guard !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return nil }
        let cut = bytes.count > room
        let shown = cut ? room - 1 : bytes.count
        let width = self.width
        let row = y * width
        return slots.withUnsafeMutableBufferPointer { cells in
            guard shown + (cut ? 1 : 0) > 0 else { return 0 }
            // As in `putStandingAlone`: only the two ends can cut a wide character in half.
            if cells[row + x].isContinuation, x > 0 { cells[row + x - 1].code = Slot.blank }
            var column = x
            for byte in bytes.prefix(shown) {
                cells[row + column] = Slot(code: UInt32(byte), style: style)
                column += 1
            }
            if cut {
                cells[row + column] = Slot(code: Self.ellipsis, style: style)
                column += 1
            }
            if column < width, cells[row + column].isContinuation { cells[row + column].code = Slot.blank }
            return column - x
        }
    }

    private static let ellipsis = ("…" as Unicode.Scalar).value

    /// Fills `rect` (clipped to the grid) with `character` in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let code = intern(Cell.Content(character))
        let w = max(1, DisplayWidth.of(character))
        let x0 = max(0, rect.x)
        let x1 = min(width, rect.maxX)
        guard x0 < x1 else { return }
        for y in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.maxY)) {
            if w == 1 {
                fillRow(y, from: x0, to: x1, with: Slot(code: code, style: style))
                continue
            }
            var x = x0
            while x + w <= x1 {
                setGrapheme(code, width: w, x: x, y: y, style: style)
                x += w
            }
        }
    }

    /// Sets cells `x0 ..< x1` of row `y` to the one-column `slot`, blanking the other half of any
    /// wide grapheme cut at either end (as writing them one by one would).
    private mutating func fillRow(_ y: Int, from x0: Int, to x1: Int, with slot: Slot) {
        let row = y * width
        let width = self.width
        slots.withUnsafeMutableBufferPointer { cells in
            if cells[row + x0].isContinuation, x0 > 0 { cells[row + x0 - 1].code = Slot.blank }
            if x1 < width, cells[row + x1].isContinuation { cells[row + x1].code = Slot.blank }
            for index in (row + x0)..<(row + x1) { cells[index] = slot }
        }
    }

    /// Sets the style of every cell in `rect`, keeping their text.
    public mutating func restyle(_ rect: Rect, style: Style) {
        for y in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.maxY)) {
            for x in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.maxX)) {
                slots[y * width + x].style = style
            }
        }
    }

    /// Copies the rows `rows` of `other` to this grid starting at row `y` (the banner's slide).
    public mutating func blit(_ other: Grid, rows: Range<Int>, toY y: Int) {
        for (offset, row) in rows.enumerated() where row >= 0 && row < other.height {
            let target = y + offset
            guard target >= 0, target < height else { continue }
            for x in 0..<min(width, other.width) {
                copyCell(from: other, x: x, y: row, toX: x, toY: target)
            }
            // A wide grapheme cut by a narrower target would leave half a character.
            if other.width > width, width > 0, other.isContinuation(x: width, y: row) {
                slots[target * width + width - 1] = Slot(code: Slot.blank, style: other[width - 1, row].style)
            }
        }
    }

    /// Writes the grapheme `code` `w` columns wide at (x, y), keeping wide pairs whole.
    private mutating func setGrapheme(_ code: UInt32, width w: Int, x: Int, y: Int, style: Style) {
        guard x >= 0, x < width else { return }
        // A wide grapheme that does not fit in the last column becomes a blank.
        if w == 2 && x + 1 >= width {
            clear(x: x, y: y)
            slots[y * width + x] = Slot(code: Slot.blank, style: style)
            return
        }
        clear(x: x, y: y)
        slots[y * width + x] = Slot(code: code, style: style)
        if w == 2 {
            clear(x: x + 1, y: y)
            slots[y * width + x + 1] = Slot(code: Slot.continuation, style: style)
        }
    }

    /// Blanks the cell at (x, y) and the other half of the wide grapheme it belongs to, if any.
    private mutating func clear(x: Int, y: Int) {
        let index = y * width + x
        if slots[index].isContinuation, x > 0 {
            slots[index - 1].code = Slot.blank
        } else if x + 1 < width, slots[index + 1].isContinuation {
            slots[index + 1].code = Slot.blank
        }
        slots[index].code = Slot.blank
    }

    // MARK: - Reading

    /// One row as text: each grapheme once, continuation cells skipped.
    public func rowText(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var line = ""
        for x in 0..<width {
            if let character = cell(slots[y * width + x]).character { line.append(character) }
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
        slots[y * width + x] = intern(cell)
    }

    /// Copies one cell of `other` here, as is (the caller copies whole rows, so wide pairs stay whole).
    mutating func copyCell(from other: Grid, x: Int, y: Int, toX: Int, toY: Int) {
        guard toX >= 0, toX < width, toY >= 0, toY < height else { return }
        guard x >= 0, x < other.width, y >= 0, y < other.height else {
            slots[toY * width + toX] = intern(Cell.blank)
            return
        }
        var slot = other.slots[y * other.width + x]
        if let index = slot.clusterIndex { slot.code = intern(.cluster(other.clusters[index])) }
        slots[toY * width + toX] = slot
    }
}

// MARK: - Slots

extension Grid {
    /// One cell as the grid stores it: a plain value, so arrays of them copy and compare as memory.
    @usableFromInline
    struct Slot: Sendable, Equatable {
        /// The code in the low half, the style's bits in the high half: one integer, compared in one go.
        @usableFromInline var bits: UInt64

        /// A scalar value (below 0x110000), `continuation`, or `clusterBase` + an index into `clusters`.
        @inlinable var code: UInt32 {
            get { UInt32(truncatingIfNeeded: bits) }
            set { bits = bits & 0xFFFF_FFFF_0000_0000 | UInt64(newValue) }
        }

        @inlinable var style: Style {
            get { Style(bits: UInt32(truncatingIfNeeded: bits >> 32)) }
            set { bits = UInt64(newValue.bits) << 32 | bits & 0xFFFF_FFFF }
        }

        @usableFromInline
        init(code: UInt32, style: Style) {
            bits = UInt64(style.bits) << 32 | UInt64(code)
        }

        @usableFromInline static let blank: UInt32 = 0x20
        @usableFromInline static let continuation: UInt32 = .max
        @usableFromInline static let clusterBase: UInt32 = 0x110000

        @inlinable var isContinuation: Bool { code == Self.continuation }

        @inlinable var clusterIndex: Int? {
            code >= Self.clusterBase && code != Self.continuation ? Int(code - Self.clusterBase) : nil
        }
    }

    /// The slot code of `content`, adding a cluster's text to `clusters`.
    mutating func intern(_ content: Cell.Content) -> UInt32 {
        switch content {
        case .scalar(let scalar):
            return scalar.value
        case .continuation:
            return Slot.continuation
        case .cluster(let text):
            let scalars = text.unicodeScalars
            if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
                return first.value  // a "cluster" of one scalar, made by hand
            }
            // A fill or a repeated emoji writes the same cluster again and again: store it once.
            if let last = clusters.last, last == text, clusters.count <= Int(UInt32.max - Slot.clusterBase) {
                return Slot.clusterBase + UInt32(clusters.count - 1)
            }
            guard clusters.count < Int(UInt32.max - Slot.clusterBase) else { return Slot.blank }
            clusters.append(text)
            return Slot.clusterBase + UInt32(clusters.count - 1)
        }
    }

    mutating func intern(_ cell: Cell) -> Slot {
        Slot(code: intern(cell.content), style: cell.style)
    }

    func cell(_ slot: Slot) -> Cell {
        Cell(content(slot), style: slot.style)
    }

    func content(_ slot: Slot) -> Cell.Content {
        if slot.isContinuation { return .continuation }
        if let index = slot.clusterIndex { return .cluster(clusters[index]) }
        return .scalar(Unicode.Scalar(slot.code) ?? "\u{FFFD}")
    }

    /// `same(_:as:in:)` with the common cases (no cluster on either side) answered inline.
    @inline(__always)
    private func isSame(_ a: Slot, _ b: Slot, in old: Grid) -> Bool {
        if a.bits == b.bits { return a.code < Slot.clusterBase || a.isContinuation || same(a, as: b, in: old) }
        if a.code < Slot.clusterBase, b.code < Slot.clusterBase { return false }
        return same(a, as: b, in: old)
    }

    /// Whether `slot` of this grid and `other` of `otherGrid` show the same thing.
    @usableFromInline
    func same(_ slot: Slot, as other: Slot, in otherGrid: Grid) -> Bool {
        guard slot.style == other.style else { return false }
        if slot.code == other.code, slot.clusterIndex == nil { return true }
        // Cluster codes index each grid's own table: compare their text.
        guard slot.clusterIndex != nil || other.clusterIndex != nil else { return false }
        return content(slot) == otherGrid.content(other)
    }
}

// MARK: - Comparing

extension Grid: Equatable {
    public static func == (lhs: Grid, rhs: Grid) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        return lhs.firstChange(since: rhs, in: 0..<lhs.slots.count) == nil
    }

    /// Where row `y` of this grid first differs from `old` at or after column `x` (nil: nowhere).
    /// Both grids must have the same size.
    public func firstChange(since old: Grid, row y: Int, from x: Int) -> Int? {
        guard old.size == size, y >= 0, y < height, x >= 0, x < width else { return nil }
        var found: Int?
        forEachChangedRun(since: old, row: y, from: x) { run in
            if found == nil { found = run.lowerBound }
            return false
        }
        return found
    }

    /// Calls `body` with each run of cells of row `y`, at or after column `x`, that differ from
    /// `old` (same size), left to right, while `body` returns true.
    public func forEachChangedRun(since old: Grid, row y: Int, from x: Int = 0, _ body: (Range<Int>) -> Bool) {
        guard old.size == size, y >= 0, y < height, x >= 0 else { return }
        let width = self.width
        slots.withUnsafeBufferPointer { new in
            old.slots.withUnsafeBufferPointer { previous in
                let row = y * width
                var column = x
                while column < width {
                    while column < width, isSame(new[row + column], previous[row + column], in: old) { column += 1 }
                    guard column < width else { return }
                    let start = column
                    while column < width, !isSame(new[row + column], previous[row + column], in: old) { column += 1 }
                    guard body(start..<column) else { return }
                }
            }
        }
    }

    /// Where row `y` of this grid is first the same as `old` again at or after column `x`
    /// (`width` when it differs to the end). Both grids must have the same size.
    public func firstSame(since old: Grid, row y: Int, from x: Int) -> Int {
        guard old.size == size, y >= 0, y < height, x >= 0, x < width else { return width }
        return slots.withUnsafeBufferPointer { new in
            old.slots.withUnsafeBufferPointer { previous in
                var index = y * width + x
                let end = (y + 1) * width
                while index < end {
                    let a = new[index]
                    let b = previous[index]
                    if a == b, a.code < Slot.clusterBase || a.isContinuation { break }
                    if a != b, a.clusterIndex == nil, b.clusterIndex == nil { index += 1; continue }
                    if same(a, as: b, in: old) { break }
                    index += 1
                }
                return index - y * width
            }
        }
    }

    /// Whether row `y` shows the same as in `old` (same size; false for a row outside the grid).
    public func rowIsSame(since old: Grid, row y: Int) -> Bool {
        guard old.size == size, y >= 0, y < height else { return false }
        return firstChange(since: old, in: (y * width)..<((y + 1) * width)) == nil
    }

    /// The first slot index in `range` where this grid differs from `old` (same size), or nil.
    private func firstChange(since old: Grid, in range: Range<Int>) -> Int? {
        slots.withUnsafeBufferPointer { new in
            old.slots.withUnsafeBufferPointer { previous in
                guard let newBase = new.baseAddress, let oldBase = previous.baseAddress, !range.isEmpty else { return nil }
                // Slots are two integers with no padding: equal memory is equal cells, unless a
                // cluster index is involved and the two grids' tables differ.
                let equalMemory = memcmp(newBase + range.lowerBound, oldBase + range.lowerBound,
                                         range.count * MemoryLayout<Slot>.stride) == 0
                if equalMemory, clusters == old.clusters { return nil }
                for index in range {
                    let a = new[index]
                    let b = previous[index]
                    if a == b, a.code < Slot.clusterBase || a.isContinuation { continue }
                    if !same(a, as: b, in: old) { return index }
                }
                return nil
            }
        }
    }
}
