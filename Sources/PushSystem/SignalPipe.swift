import CSystem
import Glibc

/// The write end of the self-pipe, read by the C signal handler.
///
/// `nonisolated(unsafe)`: it is written once by `SignalPipe.init` before any handler is installed
/// and only read afterwards (by the handler, which may run on any thread); a plain aligned Int32
/// load, and `write(2)` is async-signal-safe.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// Signals turned into bytes on a pipe, so the `poll(2)` loop sees them in order with everything
/// else: SIGTERM, SIGINT, SIGHUP to shut down cleanly (and restore the terminal), SIGWINCH for a
/// resize when a terminal is attached. Install before `newterm`, so curses keeps our SIGWINCH
/// handler instead of its own.
public final class SignalPipe {
    /// Poll this for reading; `drain()` tells which signals arrived.
    public let readFD: Int32
    private let writeFD: Int32

    /// `keepingIgnored`: signals left alone when they arrive ignored (`nohup pushdeck serve`
    /// starts with SIGHUP ignored and must outlive the terminal). The UI passes none: it owns a
    /// terminal, and a hangup must restore it and exit.
    public init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP], keepingIgnored: [Int32] = []) throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        try syscall("pipe") { pipe(&fds) }
        readFD = fds[0]
        writeFD = fds[1]
        try configureDescriptor(readFD)
        try configureDescriptor(writeFD)
        signalPipeWriteFD = writeFD
        // A parent may have started us with these blocked (a spawning thread's mask is inherited,
        // and Dispatch's worker threads block most signals): unblock them or SIGTERM never arrives.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals where !(keepingIgnored.contains(number) && pushdeck_signal_is_ignored(number) == 1) {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // errno is saved: the interrupted code may be about to read it.
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteFD, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The signals that arrived since the last call, oldest first (each at most once per call).
    public func drain() -> [Int32] {
        var seen: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readFD, &buffer, buffer.count)
            guard count > 0 else { break }
            for byte in buffer[0..<count] where !seen.contains(Int32(byte)) {
                seen.append(Int32(byte))
            }
        }
        return seen
    }
}

/// Ignores SIGPIPE: a write to a vanished client must be an error to handle, not a silent exit 141.
public func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
}
