import Foundation
import Glibc
import PushServer
import PushSystem

/// A fake pushdeck server for tests of the client side: it listens on a real Unix socket and
/// answers the first request line of each connection with whatever bytes `answer` returns (a
/// hostile server, a reply of a shape the real server cannot be made to send), then closes it —
/// so a `watch` ends after the events of its answer. Connections are served one after another on
/// a background thread until the server is dropped.
public final class ScriptedServer: Sendable {
    public let socket: String
    // nonisolated(unsafe): the listener is created here and closed in deinit, after the serving
    // thread has finished; the thread only reads its descriptor.
    nonisolated(unsafe) private let listener: Listener
    private let loop: Loop

    /// `answer` gets the request line (without its newline) and returns the bytes to send back
    /// (include the newline); then the connection is closed.
    public init(folder: TempFolder, answer: @escaping @Sendable ([UInt8]) -> [UInt8]) throws {
        socket = folder.file("scripted.sock")
        listener = try Listener(path: socket, strictFolder: false)
        loop = Loop(fd: listener.fd, answer: answer)
        let loop = loop
        // The thread holds the loop, not the server, so dropping the server stops it.
        Thread { loop.serve() }.start()
    }

    deinit {
        loop.stop()
        listener.close()
    }

    /// The serving thread's side.
    private final class Loop: @unchecked Sendable {
        // @unchecked: `stopped` is guarded by `lock`; the rest is immutable.
        let fd: Int32
        let answer: @Sendable ([UInt8]) -> [UInt8]
        private let lock = NSLock()
        private var stopped = false
        private let finished = DispatchSemaphore(value: 0)

        init(fd: Int32, answer: @escaping @Sendable ([UInt8]) -> [UInt8]) {
            self.fd = fd
            self.answer = answer
        }

        var isStopped: Bool { lock.withLock { stopped } }

        /// Asks the thread to stop and waits until it has.
        func stop() {
            lock.withLock { stopped = true }
            finished.wait()
        }

        func serve() {
            defer { finished.signal() }
            while !isStopped {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 50) > 0 else { continue }
                let client = accept(fd, nil, nil)
                guard client >= 0 else { continue }
                // Blocking, but bounded: a client that stops talking does not hang the test.
                var limit = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                let flags = fcntl(client, F_GETFL)
                _ = fcntl(client, F_SETFL, flags & ~O_NONBLOCK)
                converse(client)
                close(client)
            }
        }

        private func converse(_ client: Int32) {
            var buffer: [UInt8] = []
            while !isStopped {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let reply = answer(Array(buffer[..<newline]))
                    var offset = 0
                    while offset < reply.count {
                        let sent = reply.withUnsafeBytes { raw in
                            send(client, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
                        }
                        if sent <= 0 { return }
                        offset += sent
                    }
                    return
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(client, &chunk, chunk.count, 0)
                if count <= 0 { return }
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }
}
