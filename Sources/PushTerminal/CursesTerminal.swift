import CNCurses
import Glibc
import PushTUI

/// Whether curses is running, for the exit hook. `nonisolated(unsafe)`: only the terminal's owner
/// thread (the loop) sets it, and the `atexit` hook runs on that same thread during `exit`.
nonisolated(unsafe) private var cursesActive = false

/// The one owner of the terminal: starts curses, flushes grids to it, reads keys, restores it.
///
/// Every access to curses' globals goes through `shim.h`. Create it after `TerminalCheck.run()`
/// passed and after the signal pipe (PushServer's `SignalPipe`) is installed. Call `restore()` on every way out (it is idempotent,
/// and also runs at `exit` and on deinit); a crash restores the terminal through `CrashRestore`.
public final class CursesTerminal {
    /// The fd to poll for key input.
    public let inputFD: Int32 = STDIN_FILENO
    public private(set) var size: Size
    public let theme: Theme
    private let screen: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    private var previous: Grid?
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
    public func draw(_ grid: Grid) {
        guard active else { return }
        let window = pd_stdscr()
        if grid.size != size { previous = nil }
        for run in GridDiff.changes(from: previous, to: grid) {
            var x = run.x
            for cell in run.cells {
                defer { x += 1 }
                guard let character = cell.character, x < size.width, run.y < size.height else { continue }
                let width = x + 1 < grid.width && grid[x + 1, run.y].isContinuation ? 2 : 1
                put(character, width: width, style: cell.style, x: x, y: run.y, window: window)
            }
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

    private func put(_ character: Character, width: Int, style: Style, x: Int, y: Int, window: UnsafeMutablePointer<WINDOW>?) {
        let (attributes, pair) = attributes(for: style)
        var column = x
        for piece in Self.glyph(for: character, width: width) {
            var cell = cchar_t()
            var wide = piece.map { wchar_t(bitPattern: $0) } + [0]
            _ = setcchar(&cell, &wide, attributes, pair, nil)
            _ = wmove(window, Int32(y), Int32(column))
            _ = wadd_wch(window, &cell)
            column += max(1, Int(wcwidth(wide[0])))
        }
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

    private func attributes(for style: Style) -> (attr_t, Int16) {
        let look = theme.look(for: style.role)
        var attributes = pd_a_normal()
        if style.bold || look.bold { attributes |= pd_a_bold() }
        if style.dim { attributes |= pd_a_dim() }
        if style.reverse != look.reverse { attributes |= pd_a_reverse() }
        if style.underline { attributes |= pd_a_underline() }
        let pair: Int16
        if theme.usesColor, let index = ColorRole.allCases.firstIndex(of: style.role) {
            pair = Int16(index + 1)
        } else {
            pair = 0
        }
        return (attributes, pair)
    }

    // MARK: - Input

    /// Every key waiting on input, decoded; returns at once when there is none.
    public func readKeys() -> [Key] {
        guard active else { return [] }
        let window = pd_stdscr()
        var keys: [Key] = []
        var value: wint_t = 0
        while true {
            let status = wget_wch(window, &value)
            if status == pd_err() { break }
            if status == pd_key_code_yes() {
                let code = Int32(bitPattern: value)
                if code == pd_key_mouse() {
                    var event = MEVENT()
                    if getmouse(&event) == pd_ok(), let key = CursesKeys.mouse(state: event.bstate, x: event.x, y: event.y) {
                        keys.append(key)
                    }
                } else if let key = CursesKeys.key(functionKey: code) {
                    keys.append(key)
                }
            } else if let key = CursesKeys.key(character: UInt32(value)) {
                keys.append(key)
            }
        }
        return keys
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
