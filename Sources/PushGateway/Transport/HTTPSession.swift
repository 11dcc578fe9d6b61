/// Answers one request: called once, on the loop thread, when its response is known.
typealias Responder = (HTTPResponse) -> Void

/// What a request's responder holds of its session: the session while it lives, nil after (its
/// `deinit` clears it), so an answer that comes after the connection closed goes nowhere.
///
/// Not a `weak` reference: once an object is weakly referenced, Swift keeps its reference counts
/// in a side table for the rest of its life, and every retain and release of it takes the slow
/// path — a session is retained in each of nghttp2's callbacks, a dozen and more a request. The
/// link is read and cleared on the loop thread only, as the session is used.
final class SessionLink<Session: AnyObject> {
    unowned(unsafe) var session: Session?
}

/// One protocol spoken on a connection (HTTP/1.1 through http-parser, HTTP/2 through nghttp2).
/// It is fed plaintext bytes and produces plaintext output; the connection moves the bytes.
protocol HTTPSession: AnyObject {
    /// Feeds what the peer sent, at `now` (milliseconds on the gateway's clock: when a request's
    /// first byte came). False: the peer broke the protocol; answer what is queued, then close.
    func receive(_ bytes: UnsafeRawBufferPointer, at now: Int64) -> Bool
    /// Appends output that is ready (in order) to `output`, while `output` holds less than `limit`.
    func produce(into output: inout [UInt8], limit: Int)
    /// False while the session wants no more input for now (too much waiting to be answered).
    var wantsInput: Bool { get }
    /// True when the session is over: close once the output is written.
    var isFinished: Bool { get }
    /// The peer closed its side: nothing more comes; finish what is owed.
    func peerClosed()
    /// When the first byte of the oldest request still being received came (the `now` of its
    /// `receive`), or nil when no request is half received. A request is timed from there, not
    /// from its latest byte: a trickle (a byte now and then, or PINGs beside an unfinished
    /// stream) does not keep it open.
    var requestStartedAt: Int64? { get }
    /// The requests still being received are past the request timeout (`milliseconds` from their
    /// first byte): each is refused (`HTTPRefusal.Kind.timeout`, in its vendor's shape), and the
    /// session finishes once what it owes is written.
    func requestTimedOut(after milliseconds: Int64)
}

extension HTTPSession {
    /// Feeds bytes with no clock (the fuzz targets and tests that do not look at timeouts).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool { receive(bytes, at: 0) }
}

/// The limits every session applies (the defaults are for APNs-sized requests).
public struct GatewayLimits: Sendable {
    /// Request line (or pseudo-headers) plus headers, in bytes: beyond it, 431.
    public var maxHeaderBytes = 16 * 1024
    /// A request body: beyond it, 413. APNs' largest payload is 5 KiB; JPush/Getui bodies are larger.
    public var maxBodyBytes = 64 * 1024
    /// HTTP/2 streams open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS).
    public var maxConcurrentStreams: UInt32 = 128
    /// Output waiting for a peer that does not read: past it, nothing more is read from it.
    public var outputHighWater = 1 << 20
    /// Open connections at most; more are accepted and closed at once.
    public var maxConnections = 10_000
    /// Requests of one HTTP/1.1 connection waiting for their answers, at most (pipelining).
    public var maxPipelined = 64
    /// Request bytes one HTTP/2 connection may hold for requests not yet complete (its
    /// connection-level flow-control window): the peer can send no more until requests end.
    public var maxBufferedRequestBytes = 1 << 20
    /// Milliseconds from accepting a connection to the end of its TLS handshake or its first bytes.
    public var handshakeTimeout: Int64 = 10_000
    /// Milliseconds a request may take from its first byte to its last (slow clients).
    public var requestTimeout: Int64 = 30_000
    /// Milliseconds a connection with no request under way is kept after its last request (or
    /// after it opened): only requests count, not PINGs or other frames (APNs clients keep
    /// theirs open for long).
    public var idleTimeout: Int64 = 3_600_000
    public init() {}
}
