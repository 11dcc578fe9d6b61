import Glibc

/// The write end of the self-pipe, read by the C signal handler. A signal handler cannot reach
/// Swift state safely; this is written once before handlers are installed and only read after.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// Turns SIGTERM, SIGINT and SIGHUP (and any others asked for) into a readable byte on a pipe, so
/// the poll loop sees them in order with everything else and shuts down cleanly.
public final class SignalPipe {
    public let readFD: Int32
    private let writeFD: Int32

    public init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws(SystemError) {
        var fds: [Int32] = [0, 0]
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
        for number in signals {
            signal(number) { signo in
                var byte = UInt8(truncatingIfNeeded: signo)
                _ = write(signalPipeWriteFD, &byte, 1)
            }
        }
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [Int32] = []
        while true {
            let count = read(readFD, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count].map { Int32($0) }
        }
        return received
    }
}

/// Ignores SIGPIPE: a write to a vanished client must be an error to handle, not a silent exit 141.
public func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
}
