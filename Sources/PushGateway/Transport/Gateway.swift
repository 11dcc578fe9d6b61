import COpenSSL
import Glibc
import PushCore
import PushJSON
import PushSystem

/// What the gateway hands its requests to (the server): the state a route may read, and the
/// inbox's request handling, answered after the turn's commit.
public protocol GatewaySink: AnyObject {
    /// The inbox and the time, for a route's `decide`. The context holds a copy of the inbox:
    /// keep it no longer than the decision, for while a copy lives, the first change to the
    /// server's inbox (a logged request) copies what it changes — the whole request log.
    func gatewayContext() -> GatewayContext
    /// The time on the server's clock, for what needs only that.
    func gatewayNow() -> Date
    /// Handles `request` as a socket request; `completion` gets its reply once it is committed
    /// (or the socket's error reply when the commit failed), on the loop thread.
    func submit(_ request: Request, completion: @escaping (Reply) -> Void)
    /// The control API's long-poll (`GET /pushdeck/v1/expect?…`): `completion` gets the answer
    /// once the condition holds after a commit, or at its timeout, on the loop thread.
    func expect(_ query: [QueryItem], completion: @escaping (HTTPResponse) -> Void)
    /// The request log's seq for a provider request that has just arrived.
    func arriveProviderRequest() -> Int
    /// Logs an answered provider request (and tells the bus).
    func logProviderRequest(_ record: consuming ProviderRequestRecord)
    /// The armed fault that answers this request, fired (its count spent), or nil: the
    /// request is the `streamIndex`th of its connection; `summary` gives its tokens and app
    /// (asked only when a fault names one).
    func fireFault(vendor: Via, path: String, streamIndex: Int, summary: () -> (tokens: [String], app: String?)) -> FiredFault?
}

/// How the gateway is set up: where it listens, its TLS material, its limits.
public struct GatewayConfiguration: Sendable {
    public var address: GatewayAddress
    public var certificatePath: String
    public var keyPath: String
    /// The CA that signed the certificate, when pushdeck made it (for `pushdeck gateway ca`).
    public var caPath: String?
    public var limits = GatewayLimits()
    public init(address: GatewayAddress, certificatePath: String, keyPath: String, caPath: String? = nil) {
        self.address = address
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.caPath = caPath
    }
}

/// The provider gateway's transport: one TCP port, TLS (ALPN h2, http/1.1) everywhere and, on
/// loopback, cleartext HTTP/2 (prior knowledge) and HTTP/1.1 too, told apart by the first bytes.
/// It does no I/O of its own accord: the server's poll loop asks for its descriptors and tells
/// it which are ready, and every request goes to the routes, then to the sink.
public final class Gateway {
    public let configuration: GatewayConfiguration
    private let routes: any GatewayRoutes
    private let listener: TCPListener
    private let tls: TLSServerContext
    private weak var sink: (any GatewaySink)?
    // The properties marked `@exclusivity(unchecked)` are touched several times per request by
    // the loop alone, and no access to one of them overlaps another to the same one: the runtime
    // check each access paid is a thread-local lookup.
    @exclusivity(unchecked) private var connections: [Int32: GatewayConnection] = [:]
    /// Connections with new output since the last flush (answers came after the commit).
    @exclusivity(unchecked) private var dirty: Set<Int32> = []
    private var nextID = 0
    private var nextSweep: Int64 = 0
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var refusedConnections = 0
    /// Out of descriptors: the listener stays out of `poll` for a while (shared with the
    /// server's own listener once attached, as they share the descriptor table).
    private var acceptPause = AcceptPause()
    private let log: @Sendable (String) -> Void
    /// The clock of the timeouts (a manual one in tests).
    private let time: any TimeSource
    /// Work waiting on the loop's clock: answers a latency fault delays.
    private var timers: [(due: Int64, work: () -> Void)] = []
    /// The connections `poll` found readable, or whose requests were routed, since the last
    /// `readAhead`, and those of the one before: the ones it reads — a connection whose answers
    /// just went out has its next requests coming — so that connections idle for longer cost
    /// it nothing, however many there are.
    @exclusivity(unchecked) private var active: Set<Int32> = []
    @exclusivity(unchecked) private var recentlyActive: Set<Int32> = []
    /// True while `readAhead` runs: what comes whole then waits in `ahead`.
    private var readingAhead = false
    /// What came whole while the server committed, for `handleAhead`, in order.
    @exclusivity(unchecked) private var ahead: [Ahead] = []

    private enum Ahead {
        case request(HTTPRequest, fd: Int32, connection: Int, respond: Responder)
        case refusal(HTTPRefusal, HTTPResponse)
    }

    public init(
        configuration: GatewayConfiguration, routes: any GatewayRoutes, time: any TimeSource = SystemTime(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(GatewayError) {
        self.configuration = configuration
        self.routes = routes
        self.time = time
        self.log = log
        tls = try TLSServerContext(certificatePath: configuration.certificatePath, keyPath: configuration.keyPath)
        guard TCPListener.isIPAddress(configuration.address.host) else {
            throw GatewayError("gateway host '\(configuration.address.host)' is not an IP address (use 127.0.0.1, ::1, 0.0.0.0 or localhost)")
        }
        do {
            listener = try TCPListener(host: configuration.address.host, port: configuration.address.port)
        } catch {
            throw GatewayError(error)
        }
        address = GatewayAddress(host: configuration.address.host, port: listener.port)
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        close()
        readBuffer.deallocate()
    }

    /// The address actually listened on (the chosen port for port 0).
    public let address: GatewayAddress
    public var connectionCount: Int { connections.count }

    public func attach(_ sink: any GatewaySink) { self.sink = sink }

    /// Uses `pause` for accept shortages: the one its process's other listener uses.
    public func share(_ pause: AcceptPause) { acceptPause = pause }

    // MARK: - Poll

    /// Appends the listener and every connection with the events each waits for.
    public func pollEntries(into entries: inout [pollfd]) {
        if acceptPause.allows(at: time.now.nanoseconds) {
            entries.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
        }
        let highWater = configuration.limits.outputHighWater
        for connection in connections.values {
            entries.append(pollfd(fd: connection.fd, events: connection.events(highWater: highWater), revents: 0))
        }
    }

    /// One of the gateway's descriptors has events.
    public func ready(_ entry: pollfd) {
        if entry.fd == listener.fd {
            accept()
            return
        }
        guard let connection = connections[entry.fd] else { return }
        if entry.revents & Int16(POLLOUT) != 0 && !connection.flush() {
            drop(connection)
            return
        }
        if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 || connection.stage == .handshaking {
            active.insert(entry.fd)
            advance(connection)
        }
        if !connection.dead { pump(connection) }
    }

    /// While the server's commit is written: reads and parses what the connections active of
    /// late (`active`) sent, as `ready` would, but routes nothing — the routes would hand the server requests in the
    /// middle of its commit. Whole requests (and refusals to log) wait, in order, for
    /// `handleAhead`; what the sessions owe the peers (SETTINGS and PING acknowledgements,
    /// window updates, refusals) goes out after the turn. A backend that keeps requests in
    /// flight finds its next ones parsed when its answers go out.
    public func readAhead() {
        let highWater = configuration.limits.outputHighWater
        readingAhead = true
        defer { readingAhead = false }
        let reading = active.union(recentlyActive)
        recentlyActive = active
        active.removeAll(keepingCapacity: true)
        for fd in reading {
            guard let connection = connections[fd], connection.stage == .open, connection.session != nil, !connection.dead,
                  !connection.aborted, connection.events(highWater: highWater) & Int16(POLLIN) != 0
            else { continue }
            advance(connection)
            dirty.insert(fd)
        }
    }

    /// Whether `readAhead` left requests for `handleAhead`.
    public var hasAhead: Bool { !ahead.isEmpty }

    /// Routes what `readAhead` left, in the order it came (at the start of a turn, before
    /// anything `poll` found ready). A request whose connection closed meanwhile is dropped.
    public func handleAhead() {
        let waiting = ahead
        ahead.removeAll(keepingCapacity: true)
        for item in waiting {
            switch item {
            case .request(let request, let fd, let id, let respond):
                guard connections[fd]?.id == id else { continue }
                active.insert(fd)
                route(request, fd: fd, respond: respond)
            case .refusal(let refusal, let response):
                logRefusal(refusal, response)
            }
        }
    }

    /// Milliseconds until the gateway needs a turn for its timeouts, or nil.
    public func timeout() -> Int64? {
        let now = milliseconds()
        if let due = timers.lazy.map(\.due).min() {
            let rest = [max(0, due - now), acceptPause.until.map { max(0, ($0 + 999_999) / 1_000_000 - now) }].compactMap { $0 }
            let sweep = connections.isEmpty ? Int64.max : max(0, nextSweep - now)
            return min(rest.min() ?? Int64.max, sweep)
        }
        let paused = acceptPause.until.map { ($0 + 999_999) / 1_000_000 - now }
        guard !connections.isEmpty else { return paused.map { max(0, $0) } }
        return max(0, min(nextSweep - now, paused ?? Int64.max))
    }

    /// After the turn's commit: writes the answers that came, closes what is over, and (once a
    /// second) closes connections past their timeouts.
    public func turnEnded() {
        runTimers()
        for fd in dirty {
            if let connection = connections[fd] { pump(connection) }
        }
        dirty.removeAll(keepingCapacity: true)
        let now = milliseconds()
        if !connections.isEmpty && now >= nextSweep {
            nextSweep = now + 1000
            sweep(now: now)
        }
    }

    /// Closes every connection, writing what it can first (the listening socket closes with the gateway).
    public func close() {
        for connection in connections.values {
            _ = connection.flush()
            connection.close()
        }
        connections.removeAll()
    }

    private func milliseconds() -> Int64 { time.now.nanoseconds / 1_000_000 }

    /// Runs the timers that are due (a fault's latency), in the order they fell due.
    private func runTimers() {
        guard !timers.isEmpty else { return }
        let now = milliseconds()
        let due = timers.filter { $0.due <= now }.sorted { $0.due < $1.due }
        guard !due.isEmpty else { return }
        timers.removeAll { $0.due <= now }
        for timer in due { timer.work() }
    }

    // MARK: - Connections

    private func accept() {
        for _ in 0..<256 {
            let fd: Int32
            do {
                guard let accepted = try listener.accept() else {
                    acceptPause.drained(listener.fd)
                    return
                }
                fd = accepted
            } catch {
                guard AcceptPause.isShortage(error.errno) else {
                    log("gateway: \(error)")
                    return
                }
                if acceptPause.shortage(on: listener.fd, at: time.now.nanoseconds) {
                    log("gateway: \(error); new connections wait until a connection closes")
                }
                return
            }
            acceptPause.released()
            guard connections.count < configuration.limits.maxConnections else {
                // A clear close, not a hang: at the cap the newcomer is refused at once.
                refusedConnections += 1
                if refusedConnections == 1 || refusedConnections % 1000 == 0 {
                    log("gateway: \(connections.count) connections open, the most allowed; refused \(refusedConnections) so far")
                }
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                Glibc.close(fd)
                continue
            }
            nextID += 1
            let connection = GatewayConnection(
                fd: fd, id: nextID, cleartextAllowed: configuration.address.isLoopback,
                peerIsLoopback: TCPListener.peerIsLoopback(fd), now: milliseconds())
            connections[fd] = connection
            if nextSweep == 0 { nextSweep = milliseconds() + 1000 }
        }
    }

    /// Moves the connection on: sniff its first bytes, shake hands, or read requests.
    private func advance(_ connection: GatewayConnection) {
        if connection.stage == .sniffing && !sniff(connection) { return }
        if connection.stage == .handshaking && !handshake(connection) { return }
        guard connection.stage == .open else { return }
        if connection.session == nil && !sniffDecrypted(connection) { return }
        guard let session = connection.session else { return }
        let now = milliseconds()
        let alive = connection.read(into: readBuffer, chunk: 256 * 1024) { bytes in
            if !session.receive(bytes, at: now) { connection.closing = true }
        }
        if !alive {
            // The peer closed (or broke) its side: answer what is owed if we can, then close.
            connection.closing = true
            session.peerClosed()
        }
    }

    /// Decides what the connection speaks from its first bytes. False: not decided yet, or closed.
    private func sniff(_ connection: GatewayConnection) -> Bool {
        var first: UInt8 = 0
        let peeked = recv(connection.fd, &first, 1, Int32(MSG_PEEK))
        if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            drop(connection)
            return false
        }
        guard peeked == 1 else { return false }
        if first == 0x16 && connection.sniffed.isEmpty {
            // A TLS handshake record: OpenSSL reads the socket from here on.
            guard let ssl = SSL_new(tls.context) else {
                drop(connection)
                return false
            }
            SSL_set_fd(ssl, connection.fd)
            SSL_set_accept_state(ssl)
            connection.ssl = ssl
            connection.stage = .handshaking
            return true
        }
        guard connection.cleartextAllowed else {
            // Not loopback: TLS only. Anything else is closed unanswered.
            drop(connection)
            return false
        }
        // Cleartext: read (not peek) until the bytes match the HTTP/2 preface or cannot.
        let count = recv(connection.fd, readBuffer.baseAddress, min(readBuffer.count, 64 * 1024), 0)
        if count <= 0 {
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { drop(connection) }
            return false
        }
        connection.sniffed.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
        let preface = GatewayConnection.preface
        let compared = min(connection.sniffed.count, preface.count)
        let isHTTP2 = connection.sniffed.prefix(compared).elementsEqual(preface.prefix(compared))
        if isHTTP2 && connection.sniffed.count < preface.count { return false }
        start(connection, http2: isHTTP2)
        let bytes = connection.sniffed
        connection.sniffed = []
        if let session = connection.session {
            let now = milliseconds()
            let accepted = bytes.withUnsafeBytes { session.receive($0, at: now) }
            if !accepted { connection.closing = true }
        }
        return false
    }

    private func handshake(_ connection: GatewayConnection) -> Bool {
        guard let ssl = connection.ssl else { return false }
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            var selected: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &selected, &length)
            connection.stage = .open
            // No ALPN at all (aioapns, older clients — Apple's servers take them): the decrypted
            // first bytes tell, as they do in cleartext (`sniffDecrypted`).
            guard let selected else { return true }
            let http2 = String(decoding: UnsafeBufferPointer(start: selected, count: Int(length)), as: UTF8.self) == "h2"
            start(connection, http2: http2)
            return true
        }
        let error = SSL_get_error(ssl, result)
        if error == pushdeck_SSL_ERROR_WANT_READ() {
            connection.tlsWantsWrite = false
            return false
        }
        if error == pushdeck_SSL_ERROR_WANT_WRITE() {
            connection.tlsWantsWrite = true
            return false
        }
        // Garbage, no common ALPN, a bad version: OpenSSL wrote its alert (when it could).
        ERR_clear_error()
        drop(connection)
        return false
    }

    private func start(_ connection: GatewayConnection, http2: Bool) {
        connection.stage = .open
        connection.lastActivity = milliseconds()
        let fd = connection.fd
        let onRequest: (HTTPRequest, @escaping Responder) -> Void = { [weak self] request, respond in
            self?.route(request, fd: fd, respond: respond)
        }
        // What a session refuses is answered by the vendor whose path it was.
        let routes = self.routes
        let refusalResponse: (HTTPRefusal) -> HTTPResponse = { [weak self] refusal in
            let response = routes.refuse(refusal)
            self?.logRefusal(refusal, response)
            return response
        }
        if http2 {
            guard let session = HTTP2Session(
                limits: configuration.limits, isTLS: connection.isTLS, fromLoopback: connection.peerIsLoopback,
                refusalResponse: refusalResponse, onRequest: onRequest)
            else {
                drop(connection)
                return
            }
            connection.session = session
        } else {
            connection.session = HTTP1Session(
                limits: configuration.limits, isTLS: connection.isTLS, fromLoopback: connection.peerIsLoopback,
                refusalResponse: refusalResponse, onRequest: onRequest)
        }
    }

    /// TLS without ALPN: reads decrypted bytes until they match the HTTP/2 preface or cannot, then
    /// starts that session and hands it the bytes. False: not decided yet, or closed.
    private func sniffDecrypted(_ connection: GatewayConnection) -> Bool {
        let preface = GatewayConnection.preface
        let alive = connection.read(into: readBuffer, chunk: preface.count) { bytes in
            connection.sniffed.append(contentsOf: bytes)
        }
        let compared = min(connection.sniffed.count, preface.count)
        let isHTTP2 = connection.sniffed.prefix(compared).elementsEqual(preface.prefix(compared))
        if !alive && connection.sniffed.isEmpty {
            drop(connection)
            return false
        }
        if connection.sniffed.isEmpty || (isHTTP2 && connection.sniffed.count < preface.count) {
            if !alive { drop(connection) }
            return false
        }
        start(connection, http2: isHTTP2)
        let bytes = connection.sniffed
        connection.sniffed = []
        guard let session = connection.session else { return false }
        let now = milliseconds()
        if !bytes.withUnsafeBytes({ session.receive($0, at: now) }) { connection.closing = true }
        if !alive {
            connection.closing = true
            session.peerClosed()
            return false
        }
        return true
    }

    /// A whole request: the armed faults first (`ProviderExchange.arrive`), then the routes
    /// decide; an inbox request is answered after the commit.
    private func route(_ request: HTTPRequest, fd: Int32, respond: @escaping Responder) {
        guard let connection = connections[fd], !connection.aborted else { return }
        if readingAhead {
            var request = request
            routes.prepare(&request)
            ahead.append(.request(request, fd: fd, connection: connection.id, respond: respond))
            return
        }
        // A request is what keeps a connection from being idle.
        connection.lastActivity = milliseconds()
        guard let sink else {
            var partial = request
            partial.body = []
            respond(routes.refuse(HTTPRefusal(.unavailable, request: partial)))
            dirty.insert(fd)
            return
        }
        guard routes.isProviderRequest(request.pathOnly) else {
            // pushdeck's own control API: no provider's request, so no fault answers it and the
            // request log leaves it out.
            carryOut(routes.decide(request, context: sink.gatewayContext()), of: request, sink: sink) { [weak self] response in
                respond(response)
                self?.dirty.insert(fd)
            }
            return
        }
        connection.requests += 1
        let receivedAt = sink.gatewayNow()
        let seq = sink.arriveProviderRequest()
        let index = connection.requests
        let arrival = ProviderExchange.arrive(request, routes: routes, seq: seq, receivedAt: receivedAt) { vendor, summary in
            sink.fireFault(vendor: vendor, path: request.path, streamIndex: index, summary: summary)
        }
        switch arrival {
        case .decide(let fault, nil):
            proceed(request, fd: fd, respond: respond, seq: seq, receivedAt: receivedAt, fault: fault)
        case .decide(let fault, let delay?):
            // Latency alone: the request is handled as usual once the loop's timer is due.
            after(milliseconds: delay) { [weak self] in
                self?.proceed(request, fd: fd, respond: respond, seq: seq, receivedAt: receivedAt, fault: fault)
            }
        case .refuse(let exchange, let delay):
            guard case .respond(let response) = exchange.decision else { return }
            let answer = { [weak self, weak sink] in
                respond(response)
                self?.dirty.insert(fd)
                guard let sink else { return }
                sink.logProviderRequest(exchange.record(answer: response, at: sink.gatewayNow()))
            }
            if let delay { after(milliseconds: delay, answer) } else { answer() }
        case .close(let record):
            sink.logProviderRequest(record)
            abort(connection)
        case .goaway(let shutdown, let record):
            sink.logProviderRequest(record)
            guard let session = connection.session as? HTTP2Session else {
                // HTTP/1.1 has no GOAWAY: the connection closes after the requests it had.
                abort(connection)
                return
            }
            session.goAway(leavingOut: request.streamID, debugData: shutdown ? ProviderExchange.shutdownDebugData : [])
            dirty.insert(fd)
        }
    }

    /// Drops a connection at once, unanswered, once the session has returned to the loop.
    private func abort(_ connection: GatewayConnection) {
        connection.aborted = true
        connection.closing = true
        dirty.insert(connection.fd)
    }

    /// Runs `work` on the loop once `milliseconds` have passed on the gateway's clock.
    private func after(milliseconds delay: Int, _ work: @escaping () -> Void) {
        timers.append((due: milliseconds() + Int64(delay), work: work))
    }

    /// The routes decide a request (no fault stopped it) and its answer is logged.
    private func proceed(_ request: HTTPRequest, fd: Int32, respond: @escaping Responder, seq: Int, receivedAt: Date, fault: Int?) {
        guard let sink, let connection = connections[fd], !connection.aborted else { return }
        let exchange = ProviderExchange.decide(
            request, routes: routes, context: sink.gatewayContext(), seq: seq, receivedAt: receivedAt, fault: fault)
        // Every answer is logged as it is handed to the session.
        let log = exchange.log
        let answered: (HTTPResponse) -> Void = { [weak self, weak sink] response in
            respond(response)
            self?.dirty.insert(fd)
            guard let sink else { return }
            sink.logProviderRequest(log.record(answer: response, at: sink.gatewayNow()))
        }
        carryOut(exchange.decision, of: request, sink: sink, answered: answered)
    }

    /// Carries out what the routes decided: an answer now, or the inbox's requests (answered
    /// after the commit), or the control API's long-poll.
    private func carryOut(
        _ decision: GatewayDecision, of http: HTTPRequest, sink: any GatewaySink, answered: @escaping (HTTPResponse) -> Void
    ) {
        switch decision {
        case .respond(let response):
            answered(response)
        case .request(let request, let answer):
            let routes = self.routes
            sink.submit(request) { reply in
                // The push needed the team bus and it is down: the vendor's "unavailable" answer,
                // in the vendor's shape (the routes' `refuse`), as when no server is attached.
                if case .unavailable(let why) = reply {
                    var partial = http
                    partial.body = []
                    answered(routes.refuse(HTTPRefusal(.unavailable, request: partial, why: why)))
                } else {
                    answered(answer(reply))
                }
            }
        case .expect(let query):
            sink.expect(query) { response in answered(response) }
        case .requests(let requests, let answer):
            guard !requests.isEmpty else {
                answered(answer([]))
                return
            }
            let replies = ReplyCollector(count: requests.count)
            for (index, request) in requests.enumerated() {
                sink.submit(request) { reply in
                    guard let all = replies.add(reply, at: index) else { return }
                    answered(answer(all))
                }
            }
        }
    }

    /// Logs a request the transport refused, with the answer its vendor gave.
    private func logRefusal(_ refusal: HTTPRefusal, _ response: HTTPResponse) {
        guard let sink, routes.isProviderRequest(refusal.path) else { return }
        if readingAhead {
            ahead.append(.refusal(refusal, response))
            return
        }
        let seq = sink.arriveProviderRequest()
        sink.logProviderRequest(ProviderExchange.record(
            refusal: refusal, response: response, routes: routes, seq: seq, at: sink.gatewayNow()))
    }

    /// Moves ready output from the session to the socket; closes what is over.
    private func pump(_ connection: GatewayConnection) {
        guard !connection.dead else { return }
        if connection.aborted {
            drop(connection)
            return
        }
        let highWater = configuration.limits.outputHighWater
        while true {
            let before = connection.pendingOutput
            connection.session?.produce(into: &connection.output, limit: highWater)
            guard connection.flush() else {
                drop(connection)
                return
            }
            // Stop when nothing more came or the socket took no more.
            if connection.pendingOutput == before || connection.pendingOutput > 0 { break }
        }
        if connection.pendingOutput == 0 && (connection.session?.isFinished ?? connection.closing) {
            drop(connection)
        }
    }

    private func drop(_ connection: GatewayConnection) {
        connection.close()
        acceptPause.released()
        connections[connection.fd] = nil
        dirty.remove(connection.fd)
        active.remove(connection.fd)
        recentlyActive.remove(connection.fd)
    }

    /// Closes connections past their timeouts, each counted from a fixed moment so that bytes
    /// trickling in do not restart it: a handshake or first bytes not done within
    /// `handshakeTimeout` of the accept; a request not whole within `requestTimeout` of its first
    /// byte (answered first, in its vendor's shape, then closed once written or a sweep later);
    /// a connection with no request under way for `idleTimeout` since its last request
    /// (PINGs, SETTINGS and WINDOW_UPDATEs do not count).
    private func sweep(now: Int64) {
        let limits = configuration.limits
        for connection in Array(connections.values) {
            let expired: Bool
            switch connection.stage {
            case .sniffing, .handshaking: expired = now - connection.acceptedAt > limits.handshakeTimeout
            case .open:
                if connection.session == nil {
                    // TLS without ALPN whose first bytes have not come: still its first bytes.
                    expired = now - connection.acceptedAt > limits.handshakeTimeout
                } else if let timedOutAt = connection.timedOutAt {
                    // Its timed-out requests were answered a sweep ago: what the peer did not
                    // read by now it does not get.
                    expired = now > timedOutAt
                } else if let session = connection.session, let started = session.requestStartedAt {
                    if now - started > limits.requestTimeout {
                        // Answered in the vendor's shape, then closed once that is written.
                        session.requestTimedOut(after: limits.requestTimeout)
                        connection.timedOutAt = now
                        connection.closing = true
                        pump(connection)
                    }
                    expired = false
                } else {
                    expired = now - connection.lastActivity > limits.idleTimeout
                }
            }
            if expired { drop(connection) }
        }
    }
}

/// The replies of one `.requests` decision as their commits come in (on the loop thread).
final class ReplyCollector {
    private var replies: [Reply?]
    private var missing: Int

    init(count: Int) {
        replies = Array(repeating: nil, count: count)
        missing = count
    }

    /// Keeps `reply`; all of them, in order, once the last has come.
    func add(_ reply: Reply, at index: Int) -> [Reply]? {
        guard replies.indices.contains(index), replies[index] == nil else { return nil }
        replies[index] = reply
        missing -= 1
        return missing == 0 ? replies.compactMap { $0 } : nil
    }
}
