import Glibc

/// Where the gateway listens: `HOST:PORT` (`[::1]:PORT` for IPv6), parsed and checked.
public struct GatewayAddress: Sendable, Equatable, CustomStringConvertible {
    /// APNs' own port, the default with `--gateway` and no value.
    public static let defaultValue = "127.0.0.1:2197"

    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; the message says what is accepted.
    public init(parsing text: String) throws(GatewayError) {
        let accepted = "a HOST:PORT such as 127.0.0.1:2197, localhost:2197 or [::1]:2197"
        guard let colon = text.lastIndex(of: ":") else { throw GatewayError("'\(text)' is not \(accepted)") }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]) else {
            throw GatewayError("'\(text)' is not \(accepted)")
        }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// True for 127.0.0.0/8 and ::1: only there does the gateway also speak cleartext.
    public var isLoopback: Bool {
        if host == "::1" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The gateway's listening TCP socket (IPv4 or IPv6), non-blocking.
final class TCPListener {
    let fd: Int32
    /// The address actually bound (the port the system chose for port 0).
    let address: GatewayAddress

    init(_ requested: GatewayAddress) throws(GatewayError) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, requested.host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = requested.port.bigEndian
        } else if inet_pton(AF_INET6, requested.host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = requested.port.bigEndian
        } else {
            throw GatewayError("gateway host '\(requested.host)' is not an IP address (use 127.0.0.1, ::1, 0.0.0.0 or localhost)")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw GatewayError(call: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32 = family == AF_INET
            ? withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            : withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        if bound != 0 {
            let code = errno
            Glibc.close(fd)
            throw GatewayError("cannot listen on \(requested): \(String(cString: strerror(code)))")
        }
        do {
            try configure(fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard listen(fd, 1024) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw GatewayError("cannot listen on \(requested): \(String(cString: strerror(code)))")
        }
        // The port actually bound (for port 0).
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port: UInt16 = withUnsafePointer(to: &storage) { pointer in
            family == AF_INET
                ? pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                : pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
        self.fd = fd
        self.address = GatewayAddress(host: requested.host, port: port)
    }

    /// One pending connection, or nil when none waits.
    func accept() throws(GatewayError) -> Int32? {
        guard let client = try nonBlocking("accept", { Glibc.accept(fd, nil, nil) }) else { return nil }
        do {
            try configure(client)
        } catch {
            Glibc.close(client)
            throw error
        }
        var one: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return client
    }

    deinit { Glibc.close(fd) }
}
