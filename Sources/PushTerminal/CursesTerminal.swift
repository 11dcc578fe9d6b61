import CNCurses
import Glibc
import PushTUI

/// Whether curses is running, for the exit hook. `nonisolated(unsafe)`: only the terminal's owner
/// thread (the loop) sets it, and the `atexit` hook runs on that same thread during `exit`.
nonisolated(unsafe) private var cursesActive = false

/// The one owner of the terminal: starts curses, flushes grids to it, reads keys, restores it.
///
/// Every access to curses' globals goes through `shim.h`. Create it after `TerminalCheck.run()`
/// passed and after the signal pipe (PushSystem's `SignalPipe`) is installed. Call `restore()` on every way out (it is idempotent,
/// and also runs at `exit` and on deinit); a crash restores the terminal through `CrashRestore`.
public final class CursesTerminal: Terminal {
    /// The fd to poll for key input.
    public let inputFD: Int32 = STDIN_FILENO
    public private(set) var size: Size
    public let theme: Theme
    private let screen: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    private var previous: Grid?
    /// What each style drawn so far means to curses, by `Style.index`.
    private var looks = [Look?](repeating: nil, count: Style.indexCount)
    private var active = true

    /// Starts curses on stdout/stdin. `noColor` (the `NO_COLOR` variable is set) or a terminal
    /// without colours gives the monochrome theme.
    public init(noColor: Bool) throws(TerminalProblem) {
        guard let output = fdopen(dup(STDOUT_FILENO), "w"), let input = fdopen(dup(STDIN_FILENO), "r") else {
            throw .cursesFailed("cannot open the terminal's file descriptors")
        }
        CrashRestore.saveModes(fd: STDIN_FILENO)
        guard let screen = newterm(nil, output, input) else {
            fclose(output)
            fclose(input)
            throw .cursesFailed("newterm failed")
        }
        self.screen = screen
        self.output = output
        self.input = input
        cursesActive = true
        Self.installExitHook()
        CrashRestore.arm()

        let window = pd_stdscr()
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        // The cursor is hidden: do not move it back after each update.
        leaveok(window, true)
        nodelay(window, true)
        set_escdelay(25)
        curs_set(0)
        // Clicks are reported at once (no double-click detection delay).
        mouseinterval(0)
        mousemask(pd_mouse_mask(), nil)

        if !noColor, has_colors(), start_color() == pd_ok() {
            use_default_colors()
            theme = .standard
            for (index, role) in ColorRole.allCases.enumerated() {
                let look = theme.look(for: role)
                init_pair(Int16(index + 1), Int16(look.foreground.rawValue), Int16(look.background.rawValue))
            }
        } else {
            theme = .monochrome
        }
        size = Size(width: Int(pd_cols()), height: Int(pd_lines()))
        // After `newterm` ncurses stays in its "initial" state, where it writes its output to the
        // terminal after every cursor move (for programs that only use the low-level calls): a
        // frame was ~200 write(2) calls, each waking the terminal. Leaving and coming back — the
        // shell-escape sequence, `endwin` then a refresh — puts it in its running state, where a
        // frame is one write. The screen is still blank here, so nothing is seen to flicker.
        endwin()
        doupdate()
    }

    /// Whether the environment asks for no colour (no-color.org: `NO_COLOR` set and not empty).
    public static func noColorRequested(_ environment: [String: String]) -> Bool {
        !(environment["NO_COLOR"] ?? "").isEmpty
    }

    deinit {
        restore()
        delscreen(screen)
        fclose(output)
        fclose(input)
    }

    // MARK: - Drawing

    /// Writes the cells that changed since the last frame, then updates the terminal once.
    ///
    /// Each changed run goes to curses as one line of cchars (`wadd_wchnstr`), not one call a
    /// cell: the calls and the cursor moves were a third of a frame.
    public func draw(_ grid: Grid) {
        guard active else { return }
        let window = pd_stdscr()
        if grid.size != size { previous = nil }
        let columns = min(grid.width, size.width)
        // Locals, not properties: a property of a class is checked for exclusive access on every
        // use, which cost more than the cells' own work.
        var line: [cchar_t] = []
        line.reserveCapacity(columns)
        var last = (style: Style.plain, look: look(for: .plain))
        for span in GridDiff.spans(from: previous, to: grid, joiningGapsOf: 8) where span.y < size.height {
            let y = span.y
            var start = span.x
            grid.withRow(y) { row in
                for x in span.x..<max(span.x, min(span.end, columns)) {
                    if row.isContinuation(x) { continue }
                    let width = row.isContinuation(x + 1) ? 2 : 1
                    let style = row.style(x)
                    if style != last.style { last = (style, look(for: style)) }
                    let look = last.look
                    if let scalar = row.scalar(x) {
                        let glyph = Self.glyph(for: scalar, width: width)
                        if glyph.firstWidth >= 1 {
                            line.append(look.cchar(wchar_t(bitPattern: glyph.first)))
                            for _ in 0..<glyph.padding { line.append(look.cchar(32)) }
                            continue
                        }
                    } else if let character = grid[x, y].character {
                        let pieces = Self.glyph(for: character, width: width)
                        if pieces.allSatisfy({ Self.cursesWidth($0.first ?? 0) >= 1 }) {
                            for piece in pieces { line.append(look.cchar(piece)) }
                            continue
                        }
                    }
                    // curses would not move on after this one (libc does not know U+FFFD in this
                    // locale): add it alone, its pieces one by one, each where it belongs.
                    Self.add(&line, at: start, y: y, window: window)
                    Self.putAlone(grid[x, y], width: width, look: look, x: x, y: y, window: window)
                    start = x + width
                }
            }
            Self.add(&line, at: start, y: y, window: window)
        }
        previous = grid
        wnoutrefresh(window)
        doupdate()
    }

    /// Forgets what is on screen, so the next `draw` writes every cell (after a resize, or when
    /// something else wrote to the terminal).
    public func invalidate() {
        previous = nil
        if active { clearok(pd_stdscr(), true) }
    }

    /// Adds the cchars of `line` at (`x`, `y`) and empties it.
    private static func add(_ line: inout [cchar_t], at x: Int, y: Int, window: UnsafeMutablePointer<WINDOW>?) {
        guard !line.isEmpty else { return }
        _ = wmove(window, Int32(y), Int32(x))
        line.withUnsafeBufferPointer { cchars in
            if let base = cchars.baseAddress { _ = wadd_wchnstr(window, base, Int32(cchars.count)) }
        }
        line.removeAll(keepingCapacity: true)
    }

    /// Adds one grapheme piece by piece, moving to where each piece belongs.
    private static func putAlone(_ cell: Cell, width: Int, look: Look, x: Int, y: Int, window: UnsafeMutablePointer<WINDOW>?) {
        guard let character = cell.character else { return }
        var column = x
        for piece in glyph(for: character, width: width) {
            var cchar = look.cchar(piece)
            _ = wmove(window, Int32(y), Int32(column))
            _ = wadd_wch(window, &cchar)
            column += max(1, cursesWidth(piece.first ?? 0))
        }
    }

    /// The columns curses gives a scalar (libc `wcwidth`; printable ASCII is 1 in every locale).
    static func cursesWidth(_ value: UInt32) -> Int {
        value >= 0x20 && value < 0x7F ? 1 : Int(wcwidth(wchar_t(bitPattern: value)))
    }

    /// What to hand curses for a grapheme the grid gives `width` columns: the cchars to add one
    /// after another, whose curses widths add up to `width`.
    ///
    /// curses measures with libc `wcwidth`, scalar by scalar; when that disagrees with the grid
    /// (❤️ is 1 + 0 there, a ZWJ family several people) the screen model would drift. Then the first
    /// scalar goes out alone, padded with spaces; a flag goes out as its two letters, which a
    /// terminal that knows flags joins into one.
    static func glyph(for character: Character, width: Int) -> [[UInt32]] {
        let scalars = Array(character.unicodeScalars.map(\.value))
        let padding = { (count: Int) in [[UInt32]](repeating: [32], count: max(0, count)) }
        guard let first = scalars.first else { return padding(width) }
        if scalars.count == 1, let scalar = Unicode.Scalar(first) {
            let glyph = glyph(for: scalar, width: width)
            return [[glyph.first]] + padding(glyph.padding)
        }
        let firstWidth = Int(wcwidth(wchar_t(bitPattern: first)))
        // A cchar holds one spacing character and a few combining ones (CCHARW_MAX is 5).
        if firstWidth == width, scalars.count <= 5,
            scalars.dropFirst().allSatisfy({ wcwidth(wchar_t(bitPattern: $0)) == 0 }) {
            return [scalars]
        }
        let regionalIndicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF
        if width == 2, scalars.count == 2, scalars.allSatisfy(regionalIndicators.contains),
            scalars.allSatisfy({ wcwidth(wchar_t(bitPattern: $0)) == 1 }) {
            return [[scalars[0]], [scalars[1]]]
        }
        if firstWidth >= 1, firstWidth <= width { return [[first]] + padding(width - firstWidth) }
        return [[0xFFFD]] + padding(width - 1)
    }

    /// `glyph(for:width:)` for a grapheme of one scalar: the scalar to add (or U+FFFD when curses
    /// would not give it the grid's width), its width for curses, and how many spaces follow it.
    static func glyph(for scalar: Unicode.Scalar, width: Int) -> (first: UInt32, firstWidth: Int, padding: Int) {
        let value = scalar.value
        let firstWidth = cursesWidth(value)
        if firstWidth >= 1, firstWidth <= width { return (value, firstWidth, width - firstWidth) }
        return (0xFFFD, cursesWidth(0xFFFD), max(0, width - 1))
    }

    /// What a style means to curses: attributes, colour pair, and a cchar of it to copy.
    struct Look {
        var attributes: attr_t
        var pair: Int16
        /// A space in this look, made by `setcchar`.
        var blank: cchar_t

        init(attributes: attr_t, pair: Int16) {
            self.attributes = attributes
            self.pair = pair
            blank = cchar_t()
            var space: (wchar_t, wchar_t) = (32, 0)
            withUnsafePointer(to: &space) {
                $0.withMemoryRebound(to: wchar_t.self, capacity: 2) { _ = setcchar(&blank, $0, attributes, pair, nil) }
            }
        }

        /// A cchar of the one spacing character `character` in this look: the blank with its
        /// character swapped, which is what `setcchar` would make, without its call a cell.
        func cchar(_ character: wchar_t) -> cchar_t {
            var cchar = blank
            cchar.chars.0 = character
            return cchar
        }

        /// A cchar of a spacing scalar and the combining ones after it (at most `CCHARW_MAX`).
        func cchar(_ scalars: [UInt32]) -> cchar_t {
            var cchar = cchar_t()
            let wide = scalars.map { wchar_t(bitPattern: $0) } + [0]
            wide.withUnsafeBufferPointer { text in
                if let base = text.baseAddress { _ = setcchar(&cchar, base, attributes, pair, nil) }
            }
            return cchar
        }
    }

    private func look(for style: Style) -> Look {
        if let known = looks[style.index] { return known }
        let role = theme.look(for: style.role)
        var attributes = pd_a_normal()
        if style.bold || role.bold { attributes |= pd_a_bold() }
        if style.dim { attributes |= pd_a_dim() }
        if style.reverse != role.reverse { attributes |= pd_a_reverse() }
        if style.underline { attributes |= pd_a_underline() }
        let pair: Int16
        if theme.usesColor, let index = ColorRole.allCases.firstIndex(of: style.role) {
            pair = Int16(index + 1)
        } else {
            pair = 0
        }
        let look = Look(attributes: attributes, pair: pair)
        looks[style.index] = look
        return look
    }

    // MARK: - Input

    /// Every key waiting on input, decoded, after waiting at most `timeout` for the first (the
    /// loop passes zero: it polled `inputFD` already).
    public func readKeys(timeout: Duration) -> [Key] {
        guard active else { return [] }
        if timeout > .zero {
            let milliseconds = Int32(min(Double(Int32.max), (timeout / .milliseconds(1)).rounded(.up)))
            var input = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&input, 1, milliseconds)
        }
        let window = pd_stdscr()
        var keys: [Key] = []
        var value: wint_t = 0
        while true {
            let status = wget_wch(window, &value)
            if status == pd_err() { break }
            if status == pd_key_code_yes() {
                let code = Int32(bitPattern: value)
                if code == pd_key_mouse() {
                    keys += CursesKeys.mouse(Self.queuedMouseEvents())
                } else if let key = CursesKeys.key(functionKey: code) {
                    keys.append(key)
                }
            } else if let key = CursesKeys.key(character: UInt32(value)) {
                keys.append(key)
            }
        }
        return keys
    }

    /// Every mouse event curses has queued, oldest first; one `KEY_MOUSE` can stand for several.
    ///
    /// curses gathers the reports that arrive together into one run and merges a press and its
    /// release into a click; but when a key follows the run in the same read (a click, then Enter
    /// typed on while we were busy, or both sent over a slow link) it returns `KEY_MOUSE` without
    /// merging, and the newest event is the bare release, which stands for no click: with one
    /// `getmouse` a `KEY_MOUSE`, the press behind it was lost (and might come back later, stale).
    /// `getmouse` pops the queue newest first and fails once it is empty.
    private static func queuedMouseEvents() -> [CursesKeys.MouseEvent] {
        var events: [CursesKeys.MouseEvent] = []
        var event = MEVENT()
        // ncurses queues a handful of events; the bound only keeps the loop finite.
        while events.count < 64, getmouse(&event) == pd_ok() {
            events.append(CursesKeys.MouseEvent(state: event.bstate, x: event.x, y: event.y))
        }
        return events.reversed()
    }

    /// True when the input side of the terminal reports a hang-up or an error (a terminal that
    /// hung up without a SIGHUP reaching us: nothing more can be read or shown).
    public var isHungUp: Bool {
        var input = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, 0) == 1 else { return false }
        return input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    // MARK: - Size and restore

    /// Reads the terminal's size from the kernel and tells curses; the next `draw` is a full one.
    @discardableResult
    public func resize() -> Size {
        guard active else { return size }
        var rows: Int32 = 0
        var columns: Int32 = 0
        if pd_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 {
            resizeterm(rows, columns)
        }
        size = Size(width: Int(pd_cols()), height: Int(pd_lines()))
        invalidate()
        return size
    }

    /// Gives the terminal back as it was (cursor, modes, main screen). Safe to call any number of times.
    public func restore() {
        guard active else { return }
        active = false
        cursesActive = false
        CrashRestore.disarm()
        curs_set(1)
        endwin()
        fflush(output)
    }

    /// Restores the terminal at `exit` too: a path that calls `exit` without `restore` still
    /// leaves a usable shell. Installed once.
    private static let exitHook: Void = {
        atexit {
            if cursesActive {
                cursesActive = false
                endwin()
            }
        }
    }()

    private static func installExitHook() { _ = exitHook }
}
