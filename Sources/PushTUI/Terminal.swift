/// A terminal the UI draws on and reads keys from: curses in `PushTerminal` (`CursesTerminal`),
/// `RecordingTerminal` in tests. (ratatui's `Backend` with its `TestBackend`.)
///
/// The UI host is written against this and nothing else, so its rules (when to reload, when to
/// redraw, what a key sends) run the same on both.
public protocol Terminal: AnyObject {
    /// Its size in cells, as of the last `resize()`.
    var size: Size { get }
    /// Readable when keys (or a resize) are waiting: for a loop that polls many descriptors.
    var inputFD: Int32 { get }
    /// Shows `grid`: cells past the terminal's edge are not shown.
    func draw(_ grid: Grid)
    /// Every key waiting, after waiting at most `timeout` for the first; none when nothing came.
    /// A change of size arrives as `Key.resize`: call `resize()` then.
    func readKeys(timeout: Duration) -> [Key]
    /// Reads the size again after a resize notification (`Key.resize`, or a SIGWINCH the host
    /// watches); the next `draw` writes every cell.
    @discardableResult
    func resize() -> Size
    /// True once the input side hung up or failed: no key will come again.
    var isHungUp: Bool { get }
}
