import Glibc
import PushCore
import PushSystem

/// One client on the socket: its framer, its pending output, its subscription.
final class Connection {
    let fd: Int32
    // Unchecked: the loop alone reads and writes these, several times a push, never overlapping.
    @exclusivity(unchecked) var framer: StreamFramer
    /// Bytes waiting to be written; `outputStart` is how much of it was already sent.
    @exclusivity(unchecked) var output: [UInt8] = []
    var outputStart = 0
    /// Topics this client subscribed to (empty set = all), or nil when not subscribed.
    var topics: Set<Topic>?
    /// Close once the output is written (after a framing error that cannot be recovered).
    var closeAfterFlush = false
    /// The peer closed its side; finish answering what it sent, then close.
    var readClosed = false
    /// Requests read but not handled yet (`maxRequestsPerTurn` stopped the turn): they are handled
    /// next turn, before anything more is read from this client.
    var backlog = false
    /// A push of this client went to the team bus and its reply waits for the broker's
    /// acknowledgement: nothing more of this client is read or handled until it comes, so its
    /// replies stay in the order of its requests.
    var awaitingBus = false
    /// The turn that last handled this client's requests.
    var handledTurn = 0
    /// Requests read and decoded while the last turn committed (`Server.readAhead`), handled
    /// before anything else of this client; `aheadIndex` is the next one. Each is moved out as
    /// it is taken (a copy would retain every string of it, and the copy left behind would be
    /// released only when the array is emptied).
    private(set) var ahead: [Incoming?] = []
    private var aheadIndex = 0

    init(fd: Int32, maxObjectBytes: Int) {
        self.fd = fd
        self.framer = StreamFramer(limit: maxObjectBytes)
    }

    var pendingOutput: Int { output.count - outputStart }

    /// Adds a request read and decoded ahead.
    func appendAhead(_ incoming: Incoming) { ahead.append(incoming) }

    /// The next request read and decoded ahead, or nil when none is left.
    func takeAhead() -> Incoming? {
        guard aheadIndex < ahead.count else {
            if !ahead.isEmpty { dropAhead() }
            return nil
        }
        defer { aheadIndex += 1 }
        return ahead[aheadIndex].take()
    }

    /// Forgets what was read ahead (the connection is closing).
    func dropAhead() {
        ahead.removeAll(keepingCapacity: true)
        aheadIndex = 0
    }

    func wants(_ topic: Topic) -> Bool {
        guard let topics else { return false }
        return topics.isEmpty || topics.contains(topic)
    }

    /// Writes as much pending output as the socket takes now. Throws when the peer is gone.
    func flush() throws(SystemError) {
        while outputStart < output.count {
            let start = outputStart
            let sent = try nonBlockingSyscall("send") {
                output.withUnsafeBytes { raw in
                    Glibc.send(fd, raw.baseAddress.map { $0 + start }, raw.count - start, Int32(MSG_NOSIGNAL))
                }
            }
            guard let sent else { break }
            outputStart += sent
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
            outputStart = 0
        } else if outputStart > 1 << 20 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }

    /// The uid of the process at the other end (`SO_PEERCRED`).
    func peerUID() -> uid_t? { peerCredentialsUID(of: fd) }
}

/// A client's next request as the framer and the decoder leave it.
enum Incoming {
    case request(Request)
    /// Not a request (bad framing, bad JSON, a bad field): its error reply, and the client goes on.
    case refused(String)
    /// An object past the size limit: the error reply, then the connection closes.
    case tooLarge(limit: Int)
}
