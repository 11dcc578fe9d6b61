import Glibc

/// A failed system call of the gateway: which call and errno's text.
public struct GatewayError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// errno of the failed call, when a system call failed.
    public var code: Int32?
    public init(_ message: String) { self.message = message }
    init(call: String, errno code: Int32) {
        self.message = "\(call): \(String(cString: strerror(code)))"
        self.code = code
    }
    public var description: String { message }
}

/// Runs a system call, retrying `EINTR`; a would-block result is nil, any other failure throws.
func nonBlocking<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(GatewayError) -> T? {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        throw GatewayError(call: name, errno: code)
    }
}

/// Makes a descriptor non-blocking and close-on-exec.
func configure(_ fd: Int32) throws(GatewayError) {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw GatewayError(call: "fcntl", errno: errno) }
    let fdFlags = fcntl(fd, F_GETFD)
    guard fdFlags >= 0, fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) == 0 else { throw GatewayError(call: "fcntl", errno: errno) }
}
