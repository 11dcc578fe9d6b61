import Foundation
import Glibc
import PushClient
import PushCore
import PushJSON

/// Why a raw client gave up.
public struct RawClientError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A socket client for hostile tests: sends any bytes, never waits longer than its timeout (a
/// hung server fails the test instead of hanging it), and can stall, vanish or never read.
public final class RawClient: @unchecked Sendable {
    // @unchecked: each client is used by one thread at a time (the test, or the one thread it
    // hands the client to).
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `path`; reads and writes give up after `timeout` seconds.
    public init(path: String, timeout: Double = 5) throws {
        do {
            fd = try SocketClient.connect(path: path)
        } catch {
            throw RawClientError("\(error)")
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Sends every byte, or throws when the server stops taking them for longer than the timeout
    /// or closes the connection.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let start = offset
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + start }, raw.count - start, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw RawClientError("send: errno \(errno) after \(offset) of \(bytes.count) bytes")
            }
            offset += sent
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The next line without its newline; nil when the server closed the connection.
    public func readLine() throws -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR { continue }
                // The server closed while bytes we sent were still unread (a refused oversized
                // request): Linux then ends the stream with ECONNRESET instead of end-of-file,
                // after everything the server wrote has been read. That too is the end.
                guard errno == ECONNRESET else {
                    throw RawClientError(errno == EAGAIN ? "no reply within the timeout" : "recv: errno \(errno)")
                }
            }
            if count <= 0 {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return buffer
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// The next reply, parsed; throws when the connection closed or the line is not an object.
    public func readReply() throws -> JSONObject {
        guard let line = try readLine() else { throw RawClientError("the server closed the connection") }
        guard let object = (try? JSON.parse(line, maxDepth: JSONParser.replyMaxDepth))?.objectValue else {
            throw RawClientError("not a JSON object: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        return object
    }

    /// Every reply until the server closes the connection (after `finishSending`).
    public func readRepliesUntilClosed() throws -> [JSONObject] {
        var replies: [JSONObject] = []
        while let line = try readLine() {
            guard let object = (try? JSON.parse(line, maxDepth: JSONParser.replyMaxDepth))?.objectValue else {
                throw RawClientError("not a JSON object: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            replies.append(object)
        }
        return replies
    }

    /// Sends one request's text and reads its reply.
    public func request(_ text: String) throws -> JSONObject {
        try send(Array((text + "\n").utf8))
        return try readReply()
    }

    /// Closes the sending side: the server answers what it got, then closes.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Makes `close` reset the connection (RST) instead of a clean end of stream.
    public func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
