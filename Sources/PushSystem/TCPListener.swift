import Glibc

/// A listening TCP socket (IPv4 or IPv6), non-blocking and close-on-exec.
public final class TCPListener {
    public let fd: Int32
    /// The port actually bound (the one the system chose for port 0).
    public let port: UInt16

    /// Whether `host` is an IPv4 or IPv6 address literal, the only hosts `init` binds to.
    public static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Binds `host` (an IP address literal) and `port`, and listens. A failed bind or listen is
    /// the error "cannot listen on HOST:PORT" (`[HOST]:PORT` for IPv6) with errno's text.
    public init(host: String, port requestedPort: UInt16) throws(SystemError) {
        let label = host.contains(":") ? "[\(host)]:\(requestedPort)" : "\(host):\(requestedPort)"
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = requestedPort.bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = requestedPort.bigEndian
        } else {
            throw SystemError("cannot listen on", errno: EINVAL, context: label)
        }
        let fd = try syscall("socket") { socket(family, Int32(SOCK_STREAM.rawValue), 0) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32 = family == AF_INET
            ? withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            : withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        if bound != 0 {
            let code = errno
            Glibc.close(fd)
            throw SystemError("cannot listen on", errno: code, context: label)
        }
        do {
            try configureDescriptor(fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard listen(fd, 1024) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SystemError("cannot listen on", errno: code, context: label)
        }
        // The port actually bound (for port 0).
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.port = withUnsafePointer(to: &storage) { pointer in
            family == AF_INET
                ? pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                : pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
        self.fd = fd
    }

    /// One pending connection (non-blocking, close-on-exec, `TCP_NODELAY`), or nil when none waits.
    public func accept() throws(SystemError) -> Int32? {
        guard let client = try nonBlockingSyscall("accept", { Glibc.accept(fd, nil, nil) }) else { return nil }
        do {
            try configureDescriptor(client)
        } catch {
            Glibc.close(client)
            throw error
        }
        var one: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return client
    }

    /// Whether the peer of connected socket `fd` is a loopback address: 127.0.0.0/8 (RFC 1122
    /// §3.2.1.3), `::1`, or 127.0.0.0/8 mapped into IPv6 (`::ffff:127.x.y.z`, RFC 4291 §2.5.5.2).
    /// False when the peer cannot be read.
    public static func peerIsLoopback(_ fd: Int32) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard read == 0 else { return false }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> Bool in
            switch family {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address -> Bool in
                    var bytes = address.pointee.sin6_addr
                    return withUnsafeBytes(of: &bytes) { raw in
                        let loopback = raw.prefix(15).allSatisfy { $0 == 0 } && raw[15] == 1
                        let mapped = raw.prefix(10).allSatisfy { $0 == 0 } && raw[10] == 0xFF && raw[11] == 0xFF && raw[12] == 127
                        return loopback || mapped
                    }
                }
            default:
                return false
            }
        }
    }

    deinit { Glibc.close(fd) }
}
