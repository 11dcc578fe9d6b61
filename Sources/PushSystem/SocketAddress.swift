import Glibc

/// A Unix socket address built from a path, refusing paths that do not fit `sun_path`.
public struct SocketAddress {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maxPathBytes = 107

    var storage = sockaddr_un()

    public init(path: String) throws(SocketPathError) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw SocketPathError("the socket path is empty") }
        guard bytes.count <= Self.maxPathBytes else {
            throw SocketPathError(
                "socket path is \(bytes.count) bytes; Unix sockets allow at most \(Self.maxPathBytes): \(path) "
                    + "(use --socket with a shorter path)")
        }
        guard !bytes.contains(0) else { throw SocketPathError("the socket path contains a NUL byte") }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// Calls `body` with the address as the `sockaddr` pointer and length the socket calls take.
    public func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> R) throws(SystemError) -> R {
        var copy = storage
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return try withUnsafePointer(to: &copy) { pointer throws(SystemError) -> R in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) -> R in
                try body(address, length)
            }
        }
    }
}

/// A socket path that cannot be used, with what to do about it.
public struct SocketPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
