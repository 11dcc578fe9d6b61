import Foundation
import Glibc
import PushClient

/// A blocking Unix socket for the benchmark's clients, shared by one writing and one reading thread.
final class BenchSocket: @unchecked Sendable {
    // @unchecked: after init only `fd` (immutable) is shared; one thread calls `write`, another
    // calls `readLines` (the only user of the reader's buffers) — send and recv on one socket from
    // two threads is safe in POSIX.
    let fd: Int32

    init(path: String) throws {
        fd = try SocketClient.connect(path: path)
    }

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw BenchError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// The reader's buffer and the bytes after the last line it handed out; touched only by the
    /// reading thread. Kept between calls: allocating (and zeroing) it per call cost more than a
    /// round trip's own work.
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var carry: [UInt8] = []

    /// Reads until `count` lines arrived, calling `each` with every line's bytes (without `\n`).
    /// Lines beyond `count` that arrived in the same read are kept for the next call.
    func readLines(_ count: Int, _ each: (ArraySlice<UInt8>) -> Void) throws {
        var seen = 0
        while seen < count {
            if let newline = carry.firstIndex(of: UInt8(ascii: "\n")) {
                each(carry[..<newline])
                carry.removeSubrange(...newline)
                seen += 1
                continue
            }
            let received = recv(fd, &readBuffer, readBuffer.count, 0)
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { throw BenchError("the server closed the connection after \(seen) replies") }
            var start = 0
            var index = 0
            while index < received && seen < count {
                if readBuffer[index] == UInt8(ascii: "\n") {
                    if carry.isEmpty {
                        each(readBuffer[start..<index])
                    } else {
                        carry += readBuffer[start..<index]
                        each(carry[...])
                        carry.removeAll(keepingCapacity: true)
                    }
                    seen += 1
                    start = index + 1
                }
                index += 1
            }
            carry += readBuffer[start..<received]
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// True when a reply line is `{"ok":true…`.
func isOK(_ line: ArraySlice<UInt8>) -> Bool {
    line.starts(with: okPrefix)
}

private let okPrefix = Array(#"{"ok":true"#.utf8)

/// A TCP connection to `127.0.0.1:port` (the gateway under test); -1 when it cannot be made.
func loopbackConnection(port: Int) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        return -1
    }
    return fd
}
