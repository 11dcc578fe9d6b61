import Glibc
import PushCore
import PushJSON
import PushSystem

/// Why a client could not talk to the server.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// Nothing answers at the socket path (exit 3).
    case noServer(path: String, reason: String)
    /// The connection broke or the server's reply could not be read.
    case connection(String)

    public var description: String {
        switch self {
        case .noServer(let path, let reason):
            "no pushdeck server at \(path) (\(reason)). Start one with `pushdeck` (the UI) or `pushdeck serve`, "
                + "or point --socket / PUSHDECK_SOCKET at a running one."
        case .connection(let message):
            message
        }
    }
}

/// A blocking client of the injection socket, as the command-line commands use it.
public final class SocketClient {
    public let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    /// Where the search for the next newline resumes: `buffer[bufferStart..<scanned]` holds none.
    /// Without it a long line was searched again from its start after every read (quadratic).
    private var scanned = 0

    public init(path: String) throws(ClientError) {
        self.path = path
        self.fd = try Self.connect(path: path)
    }

    /// A blocking stream socket connected to the Unix socket at `path` (for any client: the
    /// commands, the benchmark, the tests' raw clients).
    public static func connect(path: String) throws(ClientError) -> Int32 {
        let address: SocketAddress
        do {
            address = try SocketAddress(path: path)
        } catch {
            throw .noServer(path: path, reason: error.message)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .connection("socket: \(String(cString: strerror(errno)))") }
        do {
            _ = try address.withSockAddr { address, length throws(SystemError) in
                try syscall("connect") { Glibc.connect(fd, address, length) }
            }
        } catch {
            Glibc.close(fd)
            throw .noServer(path: path, reason: String(cString: strerror(error.errno)))
        }
        // Before a byte is sent: a socket in a folder another user could reach may be theirs,
        // and what we would send (and believe of the reply) is not for them.
        let ours = getuid()
        let server = peerCredentialsUID(of: fd)
        guard server == ours else {
            Glibc.close(fd)
            let who = server.map { "uid \($0)" } ?? "a process whose uid cannot be read"
            throw .connection(
                "refusing to talk to the server at \(path): it runs as \(who), not as you (uid \(ours)); "
                    + "another user may have put a socket there")
        }
        return fd
    }

    deinit { Glibc.close(fd) }

    /// Sends raw bytes (one or more requests).
    public func send(_ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let start = offset
            let sent: Int
            do {
                sent = try syscall("send") {
                    bytes.withUnsafeBytes { raw in
                        Glibc.send(fd, raw.baseAddress.map { $0 + start }, raw.count - start, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch {
                // The server may have said why before closing (a client of another uid gets an
                // error reply, then the connection is dropped): that is the message to show,
                // not the broken pipe. The peer is gone, so this read does not wait.
                if let line = try? readLine(), let reason = (try? JSON.parse(line, maxDepth: JSONParser.replyMaxDepth))?.objectValue?["error"]?.stringValue {
                    throw .connection("the server at \(path) refused the connection: \(reason)")
                }
                throw .connection("lost the connection to \(path): \(error)")
            }
            offset += sent
        }
    }

    /// Sends one request and waits for its reply.
    public func request(_ object: JSONObject) throws(ClientError) -> JSONObject {
        try send(Array((JSON.object(object).compactText + "\n").utf8))
        return try readReply()
    }

    /// Sends one request, encoded by the wire layer, and waits for its reply.
    public func request(_ request: Request) throws(ClientError) -> JSONObject {
        try send(request.wireLine)
        return try readReply()
    }

    /// Sends one request and waits for its reply, read by the wire layer (`Reply(wire:)`): the
    /// typed value the server's engine decided, never a field read by name.
    public func reply(to request: Request) throws(ClientError) -> Reply {
        let object = try self.request(request)
        do {
            return try Reply(wire: object)
        } catch {
            throw .connection("the server at \(path) sent a reply this pushdeck cannot read (\(error)): \(JSON.object(object).compactText)")
        }
    }

    /// Sends one request and gives its reply both ways: typed, read by the wire layer
    /// (`Reply(wire:)`), for what a client decides, and the line as the server wrote it, for a
    /// command's `--json` output.
    public func exchange(_ request: Request) throws(ClientError) -> (reply: Reply, line: JSONObject) {
        let object = try self.request(request)
        do {
            return (try Reply(wire: object), object)
        } catch {
            throw .connection("the server at \(path) sent a reply this pushdeck cannot read (\(error)): \(JSON.object(object).compactText)")
        }
    }

    /// Waits until a line is ready to read or `milliseconds` pass (-1: no limit); true when one
    /// is (or the connection closed, which `readLine` then reports). For commands with a timeout.
    /// `alsoWatching` (a signal pipe) also ends the wait when readable; the caller checks it.
    public func waitForLine(milliseconds: Int32, alsoWatching other: Int32? = nil) -> Bool {
        if buffer[bufferStart...].contains(UInt8(ascii: "\n")) { return true }
        var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        if let other { entries.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        return ready > 0 && entries[0].revents != 0
    }

    /// Reads the next reply or event line and parses it.
    public func readReply() throws(ClientError) -> JSONObject {
        guard let line = try readLine() else { throw .connection("the server at \(path) closed the connection") }
        // A reply embeds payloads one envelope deeper than the server's own limit.
        guard let object = (try? JSON.parse(line, maxDepth: JSONParser.replyMaxDepth))?.objectValue else {
            throw .connection("the server sent a line that is not a JSON object: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        return object
    }

    /// The next line from the server without its newline, or nil at end of stream.
    public func readLine() throws(ClientError) -> [UInt8]? {
        while true {
            if let newline = buffer[max(bufferStart, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[bufferStart..<newline])
                bufferStart = newline + 1
                if bufferStart > 1 << 16 {
                    buffer.removeFirst(bufferStart)
                    bufferStart = 0
                }
                scanned = bufferStart
                return line
            }
            scanned = buffer.count
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count: Int
            do {
                count = try syscall("recv") { recv(fd, &chunk, chunk.count, 0) }
            } catch {
                throw .connection("lost the connection to \(path): \(error)")
            }
            if count == 0 {
                guard bufferStart < buffer.count else { return nil }
                let rest = Array(buffer[bufferStart...])
                buffer.removeAll()
                bufferStart = 0
                scanned = 0
                return rest
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Closes the sending side: the server answers what it got, then closes.
    public func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }
}
