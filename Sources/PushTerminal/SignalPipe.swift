import Glibc

/// The write end of the self-pipe, read by the signal handler.
///
/// `nonisolated(unsafe)`: it is written once by `SignalPipe.install` before any handler is
/// installed and only read afterwards (by the handler, which may run on any thread); a plain
/// aligned Int32 store/load, and `write(2)` is async-signal-safe.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// Signals turned into bytes on a pipe, so the `poll(2)` loop sees them as input (SIGWINCH for a
/// resize; SIGINT, SIGTERM, SIGHUP to leave cleanly and restore the terminal).
public struct SignalPipe: Sendable {
    /// Poll this for reading; `drain()` tells which signals arrived.
    public let readFD: Int32

    /// Creates the pipe (both ends non-blocking, close-on-exec) and installs a handler for each of
    /// `signals` that writes the signal number as one byte. Install before `newterm`, so curses
    /// keeps our SIGWINCH handler instead of its own.
    public static func install(signals: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP]) -> SignalPipe? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteFD = fds[1]
        for signal in signals {
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
            sigaction(signal, &action, nil)
        }
        return SignalPipe(readFD: fds[0])
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
