import Glibc
import PushCore
import PushStore
import PushJSON
import PushSystem

/// The one process owning the loop, the inbox, the store, the bus and the injection socket.
///
/// One `poll(2)` loop: each turn reads what every client sent, handles the requests in order
/// through the reducer, writes every change of the turn in one transaction (group commit), and
/// only then sends the replies and bus events — so an acknowledged change is on disk. A large
/// turn's commit may be written on the store writer's thread while the loop reads and reduces
/// the next turn; its replies wait for it (`committing`). With nothing due it sleeps in `poll`
/// with no timeout: an idle server uses no CPU.
///
/// This file is the loop (poll, accept, read, frame); `Server+Requests.swift` turns a decoded
/// request into reducer events and a typed `Reply`; `Server+Effects.swift` carries out the
/// reducer's effects and ends the turn: commit, then reply lines (`Reply+Wire.swift`) and events.
public final class Server {
    /// The store, once every write of the turn so far is in it (see `StoreWriter`): what the
    /// engine's lookups and the UI read.
    public var store: Store {
        settleWrites()
        return storage
    }
    let storage: Store
    /// Carries out the turn's store writes (a large turn's on a thread of its own).
    let writer: StoreWriter
    // The properties marked `@exclusivity(unchecked)` are touched several times per push by
    // the loop alone, and no access to one of them overlaps another to the same one: the
    // runtime check each access paid (a thread-local lookup) was 4 % of a push.
    @exclusivity(unchecked) public internal(set) var inbox: Inbox
    /// The parts of the inbox the gateway's routes read. Another module reading `inbox` gets a
    /// copy of all of it (a retain and a release of each of its buffers); this copies those parts.
    public var inboxView: InboxView { InboxView(inbox) }
    public let options: ServerOptions
    let listener: Listener?
    let signals: SignalPipe?
    let time: any TimeSource
    /// The one decoder configuration (`--max-payload`), kept in the inbox so held messages are
    /// decoded again with it too (it survives a reload after a failed commit).
    var decoder: PushDecoder { inbox.decoder }
    @exclusivity(unchecked) var clients: [Int32: Connection] = [:]
    /// Clients that subscribed to the bus: with none, publishing costs nothing.
    @exclusivity(unchecked) var subscriberCount = 0
    /// Hears every bus event of the turn as it is published, before the commit (an in-process
    /// watcher: the control API's long-polls). While it is set, events are made even with no
    /// socket subscriber.
    @exclusivity(unchecked) public var busTap: ((BusEvent) -> Void)?
    /// Whether anyone hears the bus events a turn publishes (a subscriber, the tap, the team
    /// bus): without one the engine is asked not to build the events only they would read.
    var announces: Bool { subscriberCount > 0 || busTap != nil || bus != nil }
    var running = true
    /// Counts loop turns (see `Connection.handledTurn`).
    private var turnNumber = 0
    /// Counts store writes, so a front end knows when to reload what it shows from the store.
    @exclusivity(unchecked) public internal(set) var revision = 0
    /// When the current turn's `poll` returned: the moment its input was read.
    public private(set) var wokeAt = Instant.zero
    /// Out of descriptors (EMFILE, ENFILE) or kernel memory: the listeners (this one and the
    /// gateway's, which shares it) stay out of `poll` until a connection closes or a second
    /// passes, so a full table is not a busy loop.
    public let acceptPause = AcceptPause()

    // MARK: The current turn
    /// Where `recv` reads into, allocated once: a fresh 64 KiB buffer per read showed in profiles.
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Replies and events of this turn, sent once the turn's transaction has committed: each
    /// one's client and where its line is in `pendingBytes`, where every line is written once
    /// (an event's line is shared by its subscribers).
    @exclusivity(unchecked) var pending: [(fd: Int32, line: Range<Int>, isReply: Bool)] = []
    @exclusivity(unchecked) var pendingBytes: [UInt8] = []
    /// The turn's writes not yet handed to the writer or applied.
    @exclusivity(unchecked) var turnWrites: [StoreWriter.Write] = []
    /// The turn wrote something: it ends with a commit.
    @exclusivity(unchecked) var turnHasWrites = false
    /// The writer's thread has writes of this turn that the loop has not waited for.
    @exclusivity(unchecked) var writesOutstanding = false
    /// Replies of the turn's gateway requests, handed to their completions after the commit.
    var gatewayAnswers: [(reply: Reply, completion: (Reply) -> Void)] = []
    /// A large turn whose commit the writer's thread is writing while the loop reads and
    /// reduces the next one: what it sends once that commit is on disk (see `endTurn`).
    var committing: [TurnOutput] = []
    /// Whether a large turn's commit may overlap the next turn: in `run` without a host (a
    /// host reads the store after every turn). A turn driven by hand ends with its commit.
    var overlapsCommits = false
    /// Others with descriptors in the loop (the gateway).
    private(set) var participants: [any PollParticipant] = []
    /// The provider gateway, when the executable attached one (`--gateway`).
    var gateway: (any AttachedGateway)?
    /// The team bus, when the executable attached one (`--mqtt`).
    @exclusivity(unchecked) var bus: (any AttachedBus)?
    /// Pushes for other instances this turn put in the outbox, published after its commit, each
    /// with its message as the bus publishes it when the outbox row was written from it.
    var turnForwards: [(remote: RemotePush, wire: [UInt8]?)] = []
    /// The message of the outbox row written last, for the `.forward` effect that follows it.
    var outboxWire: (id: String, wire: [UInt8])?

    public init(
        store: Store, listener: Listener?, signals: SignalPipe?, options: ServerOptions = ServerOptions(),
        time: any TimeSource = SystemTime()
    ) throws {
        self.storage = store
        self.writer = StoreWriter(store: store)
        self.listener = listener
        self.signals = signals
        self.options = options
        self.time = time
        self.inbox = try Self.loadInbox(from: store, options: options)
    }

    deinit { writer.stop() }

    /// The inbox as stored, with the server's configuration: the one place it is built, at
    /// start-up and after a failed commit, so neither gets default settings (`--max-payload`
    /// for held messages, `--banner-seconds`).
    static func loadInbox(from store: Store, options: ServerOptions) throws(SQLiteError) -> Inbox {
        var inbox = try store.loadInbox(bannerSeconds: options.bannerSeconds)
        inbox.decoder = PushDecoder(maxPayloadBytes: options.maxPayloadBytes)
        return inbox
    }

    /// Adds descriptors of another part to the loop.
    public func add(_ participant: any PollParticipant) { participants.append(participant) }

    /// Ends the loop after the current turn.
    public func stop() { running = false }

    /// Runs until a signal arrives or `stop` is called, then closes every client, removes the
    /// socket and closes the store.
    public func run(host: (any ServerHost)? = nil) {
        // The host draws its first frame now, not after the first input or timer.
        host?.turnEnded(server: self, now: time.now)
        overlapsCommits = host == nil
        while running {
            turn(host: host)
        }
        shutDown()
    }

    // MARK: - One turn

    func turn(host: (any ServerHost)?) {
        turnNumber += 1
        var fds: [pollfd] = []
        if let signals { fds.append(pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0)) }
        if let listener, acceptPause.allows(at: time.now.nanoseconds) {
            fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
        }
        let hostFDs = host?.descriptors ?? []
        for fd in hostFDs { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        // Each participant's entries follow one another; `ends[i]` is where participant i's end.
        let participantsStart = fds.count
        var ends: [Int] = []
        for participant in participants {
            participant.pollEntries(into: &fds)
            ends.append(fds.count)
        }
        let clientsStart = fds.count
        var backlog = false
        for client in clients.values {
            let caughtUp = client.pendingOutput < options.replyHighWater
            var events: Int32 = 0
            if !client.readClosed && !client.backlog && !client.awaitingBus && caughtUp { events |= POLLIN }
            if client.pendingOutput > 0 { events |= POLLOUT }
            fds.append(pollfd(fd: client.fd, events: Int16(events), revents: 0))
            backlog = backlog || (client.backlog && caughtUp)
        }

        // Requests already read are waiting, or a turn's commit is being written: look at the
        // sockets, but do not sleep.
        let ahead = participants.contains { $0.hasAhead }
        let timeout = backlog || ahead || !committing.isEmpty ? 0 : pollTimeout(host: host)
        let ready = fds.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
        }
        wokeAt = time.now
        if ready < 0 && errno != EINTR {
            options.log("poll: \(SystemError("poll", errno: errno))")
        }
        if ready <= 0 && !backlog && !ahead && !committing.isEmpty {
            // Nothing came to go on with while the writer commits a turn: wait for the commit
            // and send what the turn held back.
            finishCommitting()
            flushClients()
            for participant in participants { participant.turnEnded(server: self) }
            return
        }
        if ahead {
            for participant in participants where participant.hasAhead { participant.handleAhead(server: self) }
        }

        for index in fds.indices where fds[index].revents != 0 {
            let entry = fds[index]
            if index >= clientsStart {
                if let client = clients[entry.fd], entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    receive(from: client)
                }
            } else if index >= participantsStart, let owner = ends.firstIndex(where: { index < $0 }) {
                participants[owner].ready(entry, server: self)
            } else if let signals, entry.fd == signals.readFD {
                let received = signals.drain()
                if !received.isEmpty {
                    options.log("signal \(received[0]): shutting down")
                    running = false
                }
            } else if let listener, entry.fd == listener.fd {
                acceptClients(listener)
            } else if hostFDs.contains(entry.fd) {
                host?.readable(entry.fd, server: self)
            }
        }
        if backlog {
            for client in clients.values
            where client.backlog && client.handledTurn != turnNumber && client.pendingOutput < options.replyHighWater {
                handleFrames(of: client)
            }
        }

        let now = time.now
        if let deadline = inbox.nextDeadline(after: now), deadline <= now {
            apply(.tick)
        }
        endTurn()
        for participant in participants { participant.turnEnded(server: self) }
        host?.turnEnded(server: self, now: time.now)
    }

    /// Milliseconds until the next thing time alone changes, or -1 (sleep until input).
    func pollTimeout(host: (any ServerHost)?) -> Int32 {
        let now = time.now
        // A manual clock moves only by request: nothing of the inbox's falls due while it sleeps.
        let inboxDeadline = time is ManualTime ? nil : inbox.nextDeadline(after: now)
        var deadlines = [inboxDeadline, host?.deadline(after: now), acceptPause.until.map(Instant.init(nanoseconds:))].compactMap { $0 }
        for participant in participants {
            if let deadline = participant.deadline(after: now) { deadlines.append(deadline) }
        }
        guard let next = deadlines.min() else { return -1 }
        let milliseconds = (next.nanoseconds - now.nanoseconds + 999_999) / 1_000_000
        return Int32(clamping: max(milliseconds, 0))
    }

    // MARK: - Clients

    private func acceptClients(_ listener: Listener) {
        for _ in 0..<128 {
            let fd: Int32
            do {
                guard let accepted = try listener.accept() else {
                    acceptPause.drained(listener.fd)
                    return
                }
                fd = accepted
            } catch {
                guard AcceptPause.isShortage(error.errno) else {
                    options.log("\(error)")
                    return
                }
                if acceptPause.shortage(on: listener.fd, at: time.now.nanoseconds) {
                    options.log("\(error); new connections wait until a client disconnects")
                }
                return
            }
            acceptPause.released()
            let client = Connection(fd: fd, maxObjectBytes: options.maxObjectBytes)
            if let uid = client.peerUID(), uid != getuid() {
                options.log("refused a client of uid \(uid)")
                client.output = Reply.error("permission denied: this pushdeck belongs to uid \(getuid()), you are uid \(uid)").wireLine
                try? client.flush()
                Glibc.close(fd)
                continue
            }
            clients[fd] = client
        }
    }

    /// Reads what the client sent (at most one chunk) and handles every complete request in it.
    private func receive(from client: Connection) {
        read(from: client)
        handleFrames(of: client)
    }

    /// Reads what the client sent, at most one chunk, into its framer.
    private func read(from client: Connection) {
        var total = 0
        while total < options.readChunk && !client.readClosed && !client.backlog && !client.awaitingBus {
            let count: Int?
            do {
                count = try nonBlockingSyscall("recv") { recv(client.fd, &readBuffer, readBuffer.count, 0) }
            } catch {
                client.readClosed = true
                client.closeAfterFlush = true
                break
            }
            guard let count else { break }
            if count == 0 {
                client.readClosed = true
                client.closeAfterFlush = true
                break
            }
            total += count
            client.framer.append(readBuffer[0..<count])
            // A short read took all there was: asking again would only get EAGAIN, a system call
            // per request in a one-at-a-time exchange. Anything arriving later wakes poll again.
            if count < readBuffer.count { break }
        }
    }

    /// While the writer's thread commits a large turn, what the turn's clients sent since is
    /// read and decoded — framing, JSON, and a push's payload where nothing the turn changes
    /// can alter it (`Engine.decodeAhead`) — and waits, in order, to be handled next turn before
    /// anything else of theirs, as requests read but not handled do (`backlog`). A pipelining
    /// client's next requests are then ready when its replies go out.
    func readAhead() {
        for client in clients.values
        where client.handledTurn == turnNumber && !client.backlog && !client.awaitingBus && !client.readClosed {
            read(from: client)
            var count = 0
            while count < options.maxRequestsPerTurn, var incoming = Self.nextIncoming(from: &client.framer) {
                if case .request(var request) = incoming {
                    Engine.decodeAhead(&request, decoder: decoder)
                    incoming = .request(request)
                }
                client.appendAhead(incoming)
                count += 1
                if case .tooLarge = incoming { break }
            }
            if count > 0 { client.backlog = true }
        }
    }

    /// The next request in a client's framer, decoded; nil when more bytes are needed.
    static func nextIncoming(from framer: inout StreamFramer) -> Incoming? {
        let frame: [UInt8]?
        do {
            frame = try framer.next()
        } catch {
            switch error {
            case .tooLarge(let limit): return .tooLarge(limit: limit)
            case .unexpected(let message): return .refused(message)
            }
        }
        guard let frame else { return nil }
        do {
            return .request(try Request.decode(frame: frame))
        } catch {
            return .refused(error.message)
        }
    }

    private func handleFrames(of client: Connection) {
        guard !client.awaitingBus else { return }
        client.handledTurn = turnNumber
        client.backlog = false
        var handled = 0
        // The client's budget counts what this turn already queued for it: one turn of big
        // replies (64 pages of 4 MB) must not pile up before the high-water check between turns.
        let queuedBefore = pendingBytes.count
        while true {
            if handled == options.maxRequestsPerTurn
                || client.pendingOutput + pendingBytes.count - queuedBefore >= options.replyHighWater
            {
                client.backlog = true
                return
            }
            handled += 1
            guard let incoming = client.takeAhead() ?? Self.nextIncoming(from: &client.framer) else { return }
            switch incoming {
            case .tooLarge(let limit):
                queue(Reply.error("request is larger than the \(limit)-byte limit; the connection is closed"), to: client.fd)
                client.closeAfterFlush = true
                client.readClosed = true
                client.dropAhead()
                return
            case .refused(let message):
                queue(Reply.error(message), to: client.fd)
            case .request(let request):
                let reply = handle(request, from: client)
                if case .forwarded = reply, bus != nil {
                    awaitBus(reply, for: client)
                    return
                }
                queue(reply, to: client.fd)
            }
        }
    }

    /// A socket push for another instance's device is answered as the gateway answers one: after
    /// the outbox commit and the broker's acknowledgement (or the unavailable answer when none
    /// comes in time). The client's later requests wait behind it.
    private func awaitBus(_ reply: Reply, for client: Connection) {
        client.awaitingBus = true
        gatewayAnswers.append((reply, { [weak self, weak client] answer in
            guard let self, let client, self.clients[client.fd] === client else { return }
            client.awaitingBus = false
            // What it sent after the push is handled next turn.
            client.backlog = true
            self.queue(answer, to: client.fd)
        }))
    }

    func close(_ client: Connection) {
        // What a turn still holds for it is dropped: its descriptor's number may be the next
        // client's before that turn's commit is on disk.
        for index in committing.indices { committing[index].pending.removeAll { $0.fd == client.fd } }
        if client.topics != nil { subscriberCount -= 1 }
        Glibc.close(client.fd)
        clients[client.fd] = nil
        acceptPause.released()
    }

    private func shutDown() {
        finishCommitting()
        for client in Array(clients.values) {
            try? client.flush()
            close(client)
        }
        listener?.close()
        gateway?.close()
        bus?.close()
        writer.stop()
        storage.close()
    }
}
