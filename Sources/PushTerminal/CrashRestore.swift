import CNCurses
import Glibc

/// What the crash handler writes and sets. `nonisolated(unsafe)`: filled once by
/// `CrashRestore.arm` on the terminal's owner thread before the handlers are installed, then only
/// read (by a handler, on whichever thread crashed); the handler uses only async-signal-safe calls.
nonisolated(unsafe) private var crashTermios = termios()
nonisolated(unsafe) private var crashBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var crashByteCount = 0
nonisolated(unsafe) private var crashArmed: Int32 = 0
nonisolated(unsafe) private var crashPrevious: UnsafeMutablePointer<sigaction>?

/// Gives the terminal back when the process crashes (a trap, a bad access, an abort): the
/// saved terminal modes are set again, and terminfo's "leave the full screen" and "show the
/// cursor" strings are written, then the previous handler (Swift's backtracer) runs.
enum CrashRestore {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Saves the terminal's modes as they are now (call before curses changes them).
    static func saveModes(fd: Int32) {
        _ = tcgetattr(fd, &crashTermios)
    }

    /// Prepares the restore strings (call after curses started, so terminfo is loaded) and
    /// installs the handlers.
    static func arm() {
        var bytes: [UInt8] = []
        for name in ["rmcup", "cnorm", "sgr0"] {
            let value = tigetstr(name)
            if pd_string_capability_is_missing(value) == 0, let value {
                bytes += Array(String(cString: value).utf8)
            }
        }
        bytes += Array("\r\n".utf8)
        if crashBytes == nil {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            buffer.initialize(from: bytes, count: bytes.count)
            crashBytes = buffer
            crashByteCount = bytes.count
            let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
            previous.initialize(repeating: sigaction(), count: Int(NSIG))
            crashPrevious = previous
            for signal in signals {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { number in
                    if crashArmed != 0 {
                        crashArmed = 0
                        _ = tcsetattr(STDIN_FILENO, TCSANOW, &crashTermios)
                        if let bytes = crashBytes { _ = write(STDOUT_FILENO, bytes, crashByteCount) }
                    }
                    // Hand the signal to whoever had it before (Swift's backtracer, or the default).
                    if let previous = crashPrevious { sigaction(number, previous + Int(number), nil) }
                    raise(number)
                    // Swift's backtracer returns from a signal sent by another process (kill -ABRT),
                    // and the process would carry on with its terminal already given back: end it.
                    var fallback = sigaction()
                    fallback.__sigaction_handler.sa_handler = SIG_DFL
                    sigaction(number, &fallback, nil)
                    raise(number)
                }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_NODEFER
                sigaction(signal, &action, previous + Int(signal))
            }
        }
        crashArmed = 1
    }

    /// The terminal was restored the normal way: a later crash leaves it alone.
    static func disarm() {
        crashArmed = 0
    }
}
