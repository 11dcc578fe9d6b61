import Glibc

/// A failed system call: which call, on what, and errno's text — the one error type of every
/// system call pushdeck makes (the socket, the gateway's port, lock files, the signal pipe).
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    public var context: String?

    public init(_ call: String, errno: Int32, context: String? = nil) {
        self.call = call
        self.errno = errno
        self.context = context
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        if let context { return "\(call) \(context): \(reason)" }
        return "\(call): \(reason)"
    }
}

/// Runs a system call, retrying while it is interrupted by a signal (`EINTR`), and throws a
/// `SystemError` naming the call when it fails. `EAGAIN`/`EWOULDBLOCK` are returned as -1 with
/// `wouldBlock` set, since for non-blocking descriptors they are not errors.
@discardableResult
public func syscall<T: BinaryInteger>(_ name: String, context: String? = nil, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(name, errno: code, context: context)
    }
}

/// Like `syscall`, but a would-block result is nil instead of an error.
public func nonBlockingSyscall<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(SystemError) -> T? {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        throw SystemError(name, errno: code)
    }
}

/// Makes a descriptor non-blocking and close-on-exec.
public func configureDescriptor(_ fd: Int32) throws(SystemError) {
    let flags = try syscall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
    try syscall("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    let fdFlags = try syscall("fcntl(F_GETFD)") { fcntl(fd, F_GETFD) }
    try syscall("fcntl(F_SETFD)") { fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) }
}
