import COpenSSL
import Glibc
import PushSystem

/// One TCP connection of the gateway: what its first bytes say it speaks, its TLS state, its
/// protocol session and its pending output.
final class GatewayConnection {
    enum Stage {
        /// Nothing decided yet: the first bytes tell TLS (0x16, a handshake record), the HTTP/2
        /// preface (`PRI * HTTP/2.0…`) or HTTP/1.1 apart.
        case sniffing
        case handshaking
        case open
    }

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    let fd: Int32
    let id: Int
    let cleartextAllowed: Bool
    /// The peer is a loopback address (the control API serves only these without a token).
    let peerIsLoopback: Bool
    var stage = Stage.sniffing
    var ssl: OpaquePointer?
    var session: (any HTTPSession)?
    /// Cleartext bytes read while sniffing, fed to the session once it is chosen.
    var sniffed: [UInt8] = []
    var output: [UInt8] = []
    var outputStart = 0
    /// OpenSSL wants the socket writable before it can go on (handshake or a write that waited).
    var tlsWantsWrite = false
    /// When it was accepted (the handshake timeout counts from here).
    let acceptedAt: Int64
    /// When its last request came (or it opened): the idle timeout counts from here.
    var lastActivity: Int64
    /// When its requests were refused for taking too long (it closes once that answer is out).
    var timedOutAt: Int64?
    /// Close once the output is written (the peer broke the protocol, or the session is over).
    var closing = false
    /// Gone: the socket failed or is closed.
    var dead = false
    /// A close fault dropped it: closed at once, nothing more written.
    var aborted = false
    /// Whole requests it has brought (a goaway fault counts a connection's streams).
    var requests = 0

    init(fd: Int32, id: Int, cleartextAllowed: Bool, peerIsLoopback: Bool, now: Int64) {
        self.fd = fd
        self.id = id
        self.cleartextAllowed = cleartextAllowed
        self.peerIsLoopback = peerIsLoopback
        self.acceptedAt = now
        self.lastActivity = now
    }

    var pendingOutput: Int { output.count - outputStart }
    var isTLS: Bool { ssl != nil }

    /// The poll events this connection waits for now.
    func events(highWater: Int) -> Int16 {
        var events: Int32 = 0
        if !closing && pendingOutput < highWater && (session?.wantsInput ?? true) { events |= POLLIN }
        if pendingOutput > 0 || tlsWantsWrite { events |= POLLOUT }
        return Int16(events)
    }

    // MARK: - Bytes in

    /// Reads what is there (at most about `chunk` bytes) into `buffer`, handing each read to
    /// `deliver`. Returns false when the peer closed or the socket failed.
    func read(into buffer: UnsafeMutableRawBufferPointer, chunk: Int, _ deliver: (UnsafeRawBufferPointer) -> Void) -> Bool {
        var total = 0
        while total < chunk || (ssl.map { SSL_pending($0) > 0 } ?? false) {
            if let session, !session.wantsInput { return true }
            let count: Int
            if let ssl {
                let result = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
                if result <= 0 {
                    let error = SSL_get_error(ssl, result)
                    if error == pushdeck_SSL_ERROR_WANT_READ() { return true }
                    if error == pushdeck_SSL_ERROR_WANT_WRITE() {
                        tlsWantsWrite = true
                        return true
                    }
                    ERR_clear_error()
                    return false
                }
                count = Int(result)
            } else {
                let result: Int?
                do {
                    result = try nonBlockingSyscall("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
                } catch {
                    return false
                }
                guard let result else { return true }
                if result == 0 { return false }
                count = result
            }
            total += count
            deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if closing { return true }
        }
        return true
    }

    // MARK: - Bytes out

    /// Writes as much pending output as the socket takes now; false when the peer is gone.
    func flush() -> Bool {
        tlsWantsWrite = false
        while outputStart < output.count {
            let start = outputStart
            if let ssl {
                let result = output.withUnsafeBytes { raw in
                    SSL_write(ssl, raw.baseAddress.map { $0 + start }, Int32(min(raw.count - start, Int(Int32.max))))
                }
                if result <= 0 {
                    let error = SSL_get_error(ssl, result)
                    if error == pushdeck_SSL_ERROR_WANT_WRITE() || error == pushdeck_SSL_ERROR_WANT_READ() {
                        tlsWantsWrite = error == pushdeck_SSL_ERROR_WANT_WRITE()
                        break
                    }
                    ERR_clear_error()
                    return false
                }
                outputStart += Int(result)
            } else {
                let sent: Int?
                do {
                    sent = try nonBlockingSyscall("send") {
                        output.withUnsafeBytes { raw in
                            send(fd, raw.baseAddress.map { $0 + start }, raw.count - start, Int32(MSG_NOSIGNAL))
                        }
                    }
                } catch {
                    return false
                }
                guard let sent else { break }
                outputStart += sent
            }
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputStart = 0
        } else if outputStart > 256 * 1024 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        return true
    }

    /// Closes the socket (a TLS close_notify first, best effort) and frees OpenSSL's state.
    func close() {
        guard !dead else { return }
        dead = true
        if let ssl {
            if stage == .open { SSL_shutdown(ssl) }
            SSL_free(ssl)
            ERR_clear_error()
            self.ssl = nil
        }
        session = nil
        Glibc.close(fd)
    }
}
