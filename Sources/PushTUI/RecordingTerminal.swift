import Glibc

/// An in-memory `Terminal` for tests: it is fed scripted keys and resizes, and keeps every frame
/// drawn. (ratatui's `TestBackend`.)
///
/// Each `send`/`resize(to:)` is one read's worth of input: `readKeys` hands out one at a time, as
/// keys typed at separate moments arrive in separate loop turns. A pipe makes `inputFD` readable
/// while input is waiting, so the server's `poll` loop runs it as it runs a real terminal;
/// `hangUp()` closes it, as a terminal that went away does.
public final class RecordingTerminal: Terminal {
    /// One read's worth of input.
    private enum Input {
        case keys([Key])
        case resize(Size)
    }

    /// The size the host knows (changed by `resize()`, as curses' is).
    public private(set) var size: Size
    /// The window's size now (changed by `resize(to:)`, as the kernel's is by a SIGWINCH).
    public private(set) var windowSize: Size
    public let inputFD: Int32
    private var writeFD: Int32
    private var waiting: [Input] = []
    /// Every grid drawn, oldest first.
    public private(set) var frames: [Grid] = []

    /// The pipe could not be made (out of descriptors): `errno` says why.
    public struct PipeError: Error, Equatable {
        public var errno: Int32
    }

    public init(size: Size) throws(PipeError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw PipeError(errno: errno) }
        // Reading never blocks: a read takes the byte of one input, which is always there.
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        inputFD = fds[0]
        writeFD = fds[1]
        self.size = size
        windowSize = size
    }

    deinit {
        close(inputFD)
        if writeFD >= 0 { close(writeFD) }
    }

    // MARK: - The script

    /// Types `keys`, all arriving in one read (an empty list: a read that finds no key).
    public func send(_ keys: [Key]) {
        append(.keys(keys))
    }

    /// Types `keys` in one read.
    public func send(_ keys: Key...) {
        send(keys)
    }

    /// Types each character of `text` in one read.
    public func type(_ text: String) {
        send(text.map(Key.char))
    }

    /// The window becomes `size`: the host sees `Key.resize` and the size on its `resize()`.
    public func resize(to size: Size) {
        append(.resize(size))
    }

    /// The terminal goes away: once what was sent is read, `isHungUp` is true.
    public func hangUp() {
        guard writeFD >= 0 else { return }
        close(writeFD)
        writeFD = -1
    }

    /// The last frame drawn, as text (rows with trailing spaces trimmed), or "" before the first.
    public var screen: String { frames.last?.text ?? "" }

    private func append(_ input: Input) {
        guard writeFD >= 0 else { return }
        waiting.append(input)
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    // MARK: - Terminal

    public func draw(_ grid: Grid) {
        frames.append(grid)
    }

    /// The next input sent, or nothing: the script is written by the caller, on this thread, so
    /// waiting cannot bring more.
    public func readKeys(timeout: Duration) -> [Key] {
        guard !waiting.isEmpty else { return [] }
        var byte: UInt8 = 0
        _ = read(inputFD, &byte, 1)
        switch waiting.removeFirst() {
        case .keys(let keys):
            return keys
        case .resize(let size):
            windowSize = size
            return [.resize]
        }
    }

    @discardableResult
    public func resize() -> Size {
        size = windowSize
        return size
    }

    public var isHungUp: Bool { writeFD < 0 && waiting.isEmpty }
}
