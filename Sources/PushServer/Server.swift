import Glibc
import PushCore
import PushGateway
import PushStore
import PushJSON

/// The one process owning the loop, the inbox, the store, the bus and the injection socket.
///
/// One `poll(2)` loop: each turn reads what every client sent, handles the requests in order
/// through the reducer, writes every change of the turn in one transaction (group commit), and
/// only then sends the replies and bus events — so an acknowledged change is on disk. With nothing
/// due it sleeps in `poll` with no timeout: an idle server uses no CPU.
public final class Server {
    public let store: Store
    // The properties marked `@exclusivity(unchecked)` are touched several times per push by
    // the loop alone, and no access to one of them overlaps another to the same one: the
    // runtime check each access paid (a thread-local lookup) was 4 % of a push.
    @exclusivity(unchecked) public private(set) var inbox: Inbox
    public let options: ServerOptions
    let listener: Listener?
    let signals: SignalPipe?
    let time: any TimeSource
    /// The one decoder configuration (`--max-payload`), kept in the inbox so held messages are
    /// decoded again with it too (it survives a reload after a failed commit).
    var decoder: PushDecoder { inbox.decoder }
    @exclusivity(unchecked) var clients: [Int32: Connection] = [:]
    /// Clients that subscribed to the bus: with none, publishing costs nothing.
    var subscriberCount = 0
    var running = true
    /// Counts loop turns (see `Connection.handledTurn`).
    private var turnNumber = 0
    /// Counts store writes, so a front end knows when to reload what it shows from the store.
    @exclusivity(unchecked) public private(set) var revision = 0
    /// When the current turn's `poll` returned: the moment its input was read.
    public private(set) var wokeAt = Instant.zero
    /// Out of descriptors (EMFILE, ENFILE) or kernel memory: the listener stays out of `poll`
    /// until a client closes or this moment passes, so a full table is not a busy loop.
    private var acceptPausedUntil: Instant?
    /// An accept shortage is going on: it was logged once and is not logged again until the
    /// pending connections have all been taken.
    private var acceptShortage = false

    // MARK: The current turn
    /// Where `recv` reads into, allocated once: a fresh 64 KiB buffer per read showed in profiles.
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Replies and events of this turn, sent once the turn's transaction has committed: each
    /// one's client and where its line is in `pendingBytes`, where every line is written once
    /// (an event's line is shared by its subscribers).
    @exclusivity(unchecked) var pending: [(fd: Int32, line: Range<Int>, isReply: Bool)] = []
    @exclusivity(unchecked) var pendingBytes: [UInt8] = []
    @exclusivity(unchecked) var inTransaction = false
    @exclusivity(unchecked) var storeFailure: (any Error)?
    /// Replies of the turn's gateway requests, handed to their completions after the commit.
    var gatewayAnswers: [(reply: JSONObject, completion: (JSONObject) -> Void)] = []
    /// Others with descriptors in the loop (the gateway).
    private(set) var participants: [any PollParticipant] = []
    /// The provider gateway, when `--gateway` runs one.
    public internal(set) var gateway: Gateway?

    public init(
        store: Store, listener: Listener?, signals: SignalPipe?, options: ServerOptions = ServerOptions(),
        time: any TimeSource = SystemTime()
    ) throws {
        self.store = store
        self.listener = listener
        self.signals = signals
        self.options = options
        self.time = time
        self.inbox = try Self.loadInbox(from: store, options: options)
    }

    /// The inbox as stored, with the server's configuration: the one place it is built, at
    /// start-up and after a failed commit, so neither gets default settings (`--max-payload`
    /// for held messages, `--banner-seconds`).
    private static func loadInbox(from store: Store, options: ServerOptions) throws(SQLiteError) -> Inbox {
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
        if let until = acceptPausedUntil, until <= time.now { acceptPausedUntil = nil }
        if let listener, acceptPausedUntil == nil {
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
            if !client.readClosed && !client.backlog && caughtUp { events |= POLLIN }
            if client.pendingOutput > 0 { events |= POLLOUT }
            fds.append(pollfd(fd: client.fd, events: Int16(events), revents: 0))
            backlog = backlog || (client.backlog && caughtUp)
        }

        // Requests already read are waiting: look at the sockets, but do not sleep.
        let timeout = backlog ? 0 : pollTimeout(host: host)
        let ready = fds.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
        }
        wokeAt = time.now
        if ready < 0 && errno != EINTR {
            options.log("poll: \(SystemError("poll", errno: errno))")
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
            dispatch(.tick)
        }
        endTurn()
        for participant in participants { participant.turnEnded(server: self) }
        host?.turnEnded(server: self, now: time.now)
    }

    /// Milliseconds until the next thing time alone changes, or -1 (sleep until input).
    func pollTimeout(host: (any ServerHost)?) -> Int32 {
        let now = time.now
        var deadlines = [inbox.nextDeadline(after: now), host?.deadline(after: now), acceptPausedUntil].compactMap { $0 }
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
                    acceptShortage = false
                    return
                }
                fd = accepted
            } catch {
                guard [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errno) else {
                    options.log("\(error)")
                    return
                }
                // The connection stays queued in the kernel; retry when a client closes (or in a
                // second, for a descriptor freed elsewhere) rather than at once, forever.
                if !acceptShortage {
                    options.log("\(error); new connections wait until a client disconnects")
                    acceptShortage = true
                }
                acceptPausedUntil = time.now + 1
                return
            }
            acceptPausedUntil = nil
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
        var total = 0
        while total < options.readChunk && !client.readClosed && !client.backlog {
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
        handleFrames(of: client)
    }

    private func handleFrames(of client: Connection) {
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
            let frame: [UInt8]?
            do {
                frame = try client.framer.next()
            } catch {
                switch error {
                case .tooLarge(let limit):
                    queue(Reply.error("request is larger than the \(limit)-byte limit; the connection is closed"), to: client.fd)
                    client.closeAfterFlush = true
                    client.readClosed = true
                    return
                case .unexpected(let message):
                    queue(Reply.error(message), to: client.fd)
                    continue
                }
            }
            guard let frame else { return }
            let reply: JSONObject
            do {
                let request = try Request.decode(frame: frame)
                reply = handle(request, from: client)
            } catch {
                reply = Reply.error(error.message)
            }
            queue(reply, to: client.fd)
        }
    }

    private func close(_ client: Connection) {
        if client.topics != nil { subscriberCount -= 1 }
        Glibc.close(client.fd)
        clients[client.fd] = nil
        acceptPausedUntil = nil
    }

    // MARK: - Requests and events

    /// Handles a request the way a socket client's is handled, and returns the reply. For the
    /// UI: a key is the same request a script would send.
    public func perform(_ request: Request) -> JSONObject {
        handle(request, from: nil)
    }

    func handle(_ request: Request, from client: Connection?) -> JSONObject {
        do {
            switch request {
            case .push(let pushRequest):
                var push = try decoder.decode(pushRequest)
                // A collapse id replaces the newest stored message of the app with it (issue 13).
                if let collapseId = push.collapseId, push.channel == .apns {
                    push.replacing = try store.message(app: push.app, collapseId: collapseId)
                }
                let reply = dispatch(.push(push, at: time.wallNow)) ?? Reply.ok()
                if subscriberCount > 0, reply["delivered"] == .bool(false) { publishUndelivered(push, reply: reply) }
                return reply
            case .read(.ids(let ids)):
                return dispatch(.read(try lookUp(ids))) ?? Reply.ok()
            case .read(.all(let app)):
                return dispatch(.readAll(app: app)) ?? Reply.ok()
            case .delete(let ids):
                return dispatch(.delete(try lookUp(ids))) ?? Reply.ok()
            case .badge(let app, let change, let sync):
                if subscriberCount > 0 { publish(BusEvent.badgeRequest(app: app, change: change, sync: sync)) }
                return dispatch(.badge(app: app, change: change, sync: sync)) ?? Reply.ok()
            case .badgePolicy(let app, let policy):
                let target = app ?? Inbox.defaultApp
                guard let policy else {
                    let badge = inbox.badge(of: target)
                    return Reply.ok([
                        "badge": .number(JSONNumber(badge.icon)), "serverBadge": .number(JSONNumber(badge.server)),
                        "policy": .string(inbox.badgePolicy(of: target).rawValue),
                    ])
                }
                return dispatch(.setBadgePolicy(app: target, policy)) ?? Reply.ok()
            case .sdkBadge(let app, let call):
                return dispatch(.sdkBadge(app: app ?? Inbox.defaultApp, call)) ?? Reply.ok()
            case .mute(let app, let seconds):
                // Time is an input: the wall time the mute ends is decided here, not in the reducer.
                return dispatch(.mute(app: app, until: seconds.map { time.wallNow.addingTimeInterval(Double($0)) })) ?? Reply.ok()
            case .unmute(let app):
                return dispatch(.unmute(app: app)) ?? Reply.ok()
            case .quiet(let quiet):
                guard let quiet else { return Reply.ok(["quiet": .string(inbox.settings.quiet?.description ?? "off")]) }
                return dispatch(.setQuiet(quiet)) ?? Reply.ok()
            case .mode(let mode):
                guard let mode else { return Reply.ok(["mode": .string(inbox.mode.rawValue)]) }
                // Held messages past their time to live expire before anything could deliver them.
                dispatch(.expireHeld(at: time.wallNow))
                return dispatch(.setMode(mode)) ?? Reply.ok()
            case .app(let state):
                guard let state else { return Reply.ok(["state": .string(inbox.appState.rawValue)]) }
                dispatch(.expireHeld(at: time.wallNow))
                return dispatch(.setAppState(state)) ?? Reply.ok()
            case .list(let query):
                let messages = try store.page(query)
                return Reply.ok(["messages": .array(messages.map(\.wireJSON))])
            case .subscribe(let topics):
                guard let client else { return Reply.error("subscribe needs a socket connection") }
                if client.topics == nil { subscriberCount += 1 }
                client.topics = Set(topics)
                return Reply.ok()
            case .ping:
                return Reply.ok(["version": .string(Version.current)])
            case .device(let command):
                // Stored messages past their expiry go before a device coming online could get them.
                if case .setOffline = command { dispatch(.expireHeld(at: time.wallNow)) }
                return dispatch(.device(command, at: time.wallNow)) ?? Reply.ok()
            case .key(let command):
                return dispatch(.key(command)) ?? Reply.ok()
            case .gateway:
                return gatewayReply()
            case .reset(let app, let all):
                return dispatch(.reset(app: app, all: all)) ?? Reply.ok()
            }
        } catch let error as WireError {
            return Reply.error(error.message)
        } catch {
            return Reply.error("\(error)")
        }
    }

    /// `push.undelivered`: a held or dropped push with its payload, so `record` sees every push.
    private func publishUndelivered(_ push: Push, reply: JSONObject) {
        publish(BusEvent(.pushUndelivered, [
            "id": reply["id"] ?? .null, "app": .string(push.app), "channel": .string(push.channel.rawValue),
            "payload": (try? JSON.parse(push.payload)) ?? .string(push.payload),
            "held": .bool(reply["held"] == .bool(true)), "reason": reply["reason"] ?? .null,
        ]))
    }

    /// The stored messages with these ids; an unknown id refuses the whole request.
    private func lookUp(_ ids: [Int64]) throws -> [Message] {
        let found = try store.messages(ids: ids)
        if found.count < Set(ids).count {
            let known = Set(found.map(\.id))
            let missing = ids.filter { !known.contains($0) }.prefix(5).map(String.init).joined(separator: ", ")
            throw WireError("no message with id \(missing); nothing was changed")
        }
        return found
    }

    /// Runs an event through the reducer and carries out its effects; returns its reply.
    @discardableResult
    public func dispatch(_ event: Event) -> JSONObject? {
        let effects = reduce(into: &inbox, event, now: time.now)
        var reply: JSONObject?
        for effect in effects {
            switch effect {
            case .store(let change): write(change)
            case .publish(let event): publish(event)
            case .reply(let object): reply = object
            }
        }
        return reply
    }

    private func write(_ change: StoreChange) {
        revision += 1
        guard storeFailure == nil else { return }
        do {
            if !inTransaction {
                try store.begin()
                inTransaction = true
            }
            try store.apply(change)
        } catch {
            storeFailure = error
        }
    }

    private func publish(_ event: BusEvent) {
        guard subscriberCount > 0 else { return }
        var line: Range<Int>?
        for client in clients.values where client.wants(event.topic) {
            if line == nil {
                let start = pendingBytes.count
                event.json.write(into: &pendingBytes)
                pendingBytes.append(0x0A)
                line = start..<pendingBytes.count
            }
            if let line { pending.append((client.fd, line, false)) }
        }
    }

    private func queue(_ reply: JSONObject, to fd: Int32) {
        let start = pendingBytes.count
        reply.writeLine(into: &pendingBytes)
        pending.append((fd, start..<pendingBytes.count, true))
    }

    // MARK: - End of turn: commit, then answer

    private func endTurn() {
        if inTransaction {
            do {
                if let storeFailure { throw storeFailure }
                try store.commit()
            } catch {
                recoverFromFailedCommit(error)
            }
            inTransaction = false
            storeFailure = nil
            if let failure = store.takeCheckpointFailure() {
                options.log("store: a background checkpoint failed (\(failure)); the loop checkpoints the WAL itself meanwhile")
            }
        }

        if !gatewayAnswers.isEmpty { answerGateway() }
        for (fd, line, _) in pending {
            clients[fd]?.output.append(contentsOf: pendingBytes[line])
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes.removeAll(keepingCapacity: pendingBytes.capacity <= 1 << 20)

        for client in Array(clients.values) {
            if client.pendingOutput > 0 {
                do {
                    try client.flush()
                } catch {
                    close(client)
                    continue
                }
            }
            if client.topics != nil && client.pendingOutput > options.maxOutputBytes {
                options.log("dropped a watcher that fell \(client.pendingOutput) bytes behind")
                close(client)
            } else if client.closeAfterFlush && client.pendingOutput == 0 && !client.backlog {
                close(client)
            }
        }
    }

    /// Hands the turn's gateway replies to their completions, now that they are committed.
    private func answerGateway() {
        let answers = gatewayAnswers
        gatewayAnswers.removeAll(keepingCapacity: true)
        for (reply, completion) in answers { completion(reply) }
    }

    /// The turn's transaction failed (disk full, I/O error): nothing of it is stored, so the
    /// inbox is reloaded from the store and every reply of the turn becomes an error — an
    /// acknowledgement must never be sent for a change that is not on disk.
    private func recoverFromFailedCommit(_ error: any Error) {
        options.log("store: \(error); the turn's changes were rolled back")
        try? store.rollback()
        if let reloaded = try? Self.loadInbox(from: store, options: options) {
            let banner = inbox.banner
            inbox = reloaded
            inbox.banner = banner
        }
        let start = pendingBytes.count
        Reply.error("store: \(error); nothing was saved").writeLine(into: &pendingBytes)
        let failure = start..<pendingBytes.count
        pending = pending.compactMap { entry in entry.isReply ? (entry.fd, failure, true) : nil }
        let failed = Reply.error("store: \(error); nothing was saved")
        for index in gatewayAnswers.indices { gatewayAnswers[index].reply = failed }
    }

    private func shutDown() {
        for client in Array(clients.values) {
            try? client.flush()
            close(client)
        }
        listener?.close()
        gateway?.close()
        store.close()
    }
}
