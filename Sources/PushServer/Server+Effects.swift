import Glibc
import PushCore
import PushJSON
import PushStore

// MARK: - Effect execution: store writes into the turn's transaction, bus events and replies
// queued until it commits

extension Server {
    /// Runs an event through the reducer and carries out its effects; returns its reply.
    @discardableResult
    public func apply(_ event: Event) -> Reply? {
        let effects = reduce(into: &inbox, event, now: time.now)
        var reply: Reply?
        for effect in effects {
            if case .reply(let typed) = effect { reply = typed }
        }
        carryOut(effects)
        return reply
    }

    /// Carries out effects in order: store writes into the turn's transaction, bus events to
    /// the subscribers (a reply effect is the caller's to take).
    func carryOut(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .store(let change): write(change)
            case .publish(let event): publish(event)
            case .forward(let remote):
                // The outbox row just written holds its message as it is published (`write`).
                let wire = outboxWire.flatMap { $0.id == remote.id ? $0.wire : nil }
                outboxWire = nil
                turnForwards.append((remote, wire))
            case .reply: break
            }
        }
    }

    /// A store write, into the turn's transaction: gathered, and handed to the writer's thread
    /// in batches once the turn is large (`StoreWriter`). After a failed write the rest of the
    /// turn's are skipped and the commit fails.
    func write(_ change: StoreChange) {
        revision += 1
        if case .outboxAdd(let remote) = change, let bus {
            // A push for another instance is encoded once, as the bus publishes it, for its
            // outbox row and for the publish after the commit (`carryOut`'s `.forward`, the
            // effect that follows this one): encoding it twice was a twentieth of a sender's
            // CPU time a push.
            let wire = bus.wire(remote)
            outboxWire = (remote.id, wire)
            turnWrites.append(.outbox(remote, body: String(decoding: wire, as: UTF8.self)))
        } else {
            turnWrites.append(.change(change))
        }
        turnHasWrites = true
        if turnWrites.count >= StoreWriter.handOffSize {
            writer.handOff(turnWrites)
            turnWrites.removeAll(keepingCapacity: true)
            writesOutstanding = true
        }
    }

    /// Puts every write of the turn so far into the store, so a read sees them: waits for the
    /// writer's thread, then applies the rest here (the store is one thread's at a time).
    func settleWrites() {
        if writesOutstanding {
            writer.settle()
            writesOutstanding = false
        }
        guard !turnWrites.isEmpty else { return }
        writer.apply(turnWrites)
        turnWrites.removeAll(keepingCapacity: true)
    }

    /// Commits the turn's writes: on the writer's thread after what it still has (reading the
    /// clients' and the participants' next requests meanwhile, `readAhead`), else here.
    /// Returns the commit's error, if it failed.
    private func commitTurn() -> (any Error)? {
        defer { clearTurnWrites() }
        guard writesOutstanding else {
            writer.apply(turnWrites)
            return writer.commit()
        }
        writer.handOff(turnWrites, commit: true)
        readAhead()
        for participant in participants { participant.readAhead() }
        return writer.waitForCommit()
    }

    /// Queues a bus event's line for every subscriber that wants its topic and for the team
    /// bus; with neither, nothing is even encoded. The line is written once for all of them:
    /// encoding it twice (once for the bus, once for the subscribers) was a tenth of an owner's
    /// CPU time a push by the bus.
    func publish(_ event: BusEvent) {
        busTap?(event)
        var line: Range<Int>?
        if let bus {
            let start = pendingBytes.count
            event.json.write(into: &pendingBytes)
            bus.announce(line: pendingBytes[start...])
            pendingBytes.append(0x0A)
            line = start..<pendingBytes.count
        }
        guard subscriberCount > 0 else { return }
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

    /// Queues a reply line for a client, sent once the turn has committed.
    func queue(_ reply: Reply, to fd: Int32) {
        let start = pendingBytes.count
        reply.writeLine(into: &pendingBytes)
        pending.append((fd, start..<pendingBytes.count, true))
    }

    // MARK: - End of turn: commit, then answer

    /// Commits the turn's writes, then hands out its replies and events, then flushes the
    /// clients (closing those that are done or fell too far behind).
    ///
    /// A large turn's commit may instead be left to the writer's thread while the loop goes on
    /// to the next turn (`overlapsCommits`): what the turn sends waits in `committing` until
    /// that commit is on disk, and at most one turn waits so. Every other end of turn first
    /// sends what the turn before it held back, so a client's replies keep their order.
    ///
    /// Only a turn without gateway answers overlaps: an HTTP client keeps a bounded number of
    /// requests open and sends the next as answers come, so answers held a turn longer slowed
    /// it (the APNs gateway's rate fell by a tenth), while a socket client that pipelines has
    /// already sent what the next turn takes. Nor does a turn with the team bus, whose
    /// announcements are the turn's until its commit, or one whose events an in-process watcher
    /// heard (`busTap`: the control API's long-polls judge them when the turn ends).
    func endTurn() {
        let wrote = turnHasWrites
        if wrote && writesOutstanding && overlapsCommits && gatewayAnswers.isEmpty && bus == nil && busTap == nil {
            writer.handOff(turnWrites, commit: true)
            clearTurnWrites()
            committing.append(takeOutput())
            finishCommitting(leaving: 1)
        } else {
            finishCommitting()
            if turnHasWrites, let error = commitTurn() { recoverFromFailedCommit(error) }
            deliver()
        }
        if wrote, let failure = storage.takeCheckpointFailure() {
            options.log("store: a background checkpoint failed (\(failure)); the loop checkpoints the WAL itself meanwhile")
        }
        flushClients()
    }

    /// Waits for the commits of the turns in `committing`, oldest first, until `count` are
    /// left, and hands out what each held back. When one failed, the turns after it were
    /// reduced on top of it (and their writes skipped by the writer): they fail with it, and so
    /// does what the current turn did so far.
    func finishCommitting(leaving count: Int = 0) {
        while committing.count > count {
            let output = committing.removeFirst()
            if let error = writer.waitForCommit() {
                failCommitting(from: output, error)
                return
            }
            sending(output) { deliver() }
        }
    }

    private func failCommitting(from first: TurnOutput, _ error: any Error) {
        let failed = [first] + committing
        // Each of those commits fails with the first one's error: take their outcomes.
        for _ in committing { _ = writer.waitForCommit() }
        committing.removeAll()
        clearTurnWrites()
        writer.settle()
        rollBackAndReload(error)
        for output in failed {
            sending(output) {
                refuseTurn(error)
                deliver()
            }
        }
        refuseTurn(error)
    }

    /// Runs `body` with `output` as the turn's replies, events and answers, the current turn's
    /// set aside meanwhile; what `body` leaves is added to the current turn's.
    private func sending(_ output: TurnOutput, _ body: () -> Void) {
        let current = takeOutput()
        pending = output.pending
        pendingBytes = output.bytes
        gatewayAnswers = output.gatewayAnswers
        body()
        let left = takeOutput()
        pending = current.pending
        pendingBytes = current.bytes
        gatewayAnswers = current.gatewayAnswers + left.gatewayAnswers
        for (fd, line, isReply) in left.pending {
            let start = pendingBytes.count
            pendingBytes += left.bytes[line]
            pending.append((fd, start..<pendingBytes.count, isReply))
        }
    }

    /// The turn's replies, events and gateway answers, taken out of it.
    private func takeOutput() -> TurnOutput {
        defer {
            pending = []
            pendingBytes = []
            gatewayAnswers = []
        }
        return TurnOutput(pending: pending, bytes: pendingBytes, gatewayAnswers: gatewayAnswers)
    }

    private func clearTurnWrites() {
        turnWrites.removeAll(keepingCapacity: true)
        turnHasWrites = false
        writesOutstanding = false
    }

    /// Hands out the turn's forwards, gateway answers, replies and events: its commit is on disk.
    private func deliver() {
        if !turnForwards.isEmpty { publishForwards() }
        if !gatewayAnswers.isEmpty { answerGateway() }
        for (fd, line, _) in pending {
            clients[fd]?.output.append(contentsOf: pendingBytes[line])
        }
        pending.removeAll(keepingCapacity: true)
        pendingBytes.removeAll(keepingCapacity: pendingBytes.capacity <= 1 << 20)
    }

    /// Sends what the clients have waiting; closes those that are done (none while a turn's
    /// replies wait for its commit) or fell too far behind.
    func flushClients() {
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
            } else if client.closeAfterFlush && client.pendingOutput == 0 && !client.backlog && !client.awaitingBus
                && committing.isEmpty
            {
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
        rollBackAndReload(error)
        refuseTurn(error)
    }

    /// Rolls back what the store holds of the failed turns and reloads the inbox from it.
    private func rollBackAndReload(_ error: any Error) {
        options.log("store: \(error); the turn's changes were rolled back")
        try? store.rollback()
        writer.clearFailure()
        if let reloaded = try? Self.loadInbox(from: store, options: options) {
            let banner = inbox.banner
            // The request log and the faults are not stored: they stay as they were.
            let requestLog = inbox.requestLog
            let faults = inbox.faults
            inbox = reloaded
            inbox.banner = banner
            inbox.requestLog = requestLog
            inbox.faults = faults
        }
    }

    /// Every reply and gateway answer of the turn becomes the error; its events and forwards
    /// are dropped.
    private func refuseTurn(_ error: any Error) {
        let start = pendingBytes.count
        let failed = Reply.error("store: \(error); nothing was saved")
        failed.writeLine(into: &pendingBytes)
        let failure = start..<pendingBytes.count
        pending = pending.compactMap { entry in entry.isReply ? (entry.fd, failure, true) : nil }
        turnForwards.removeAll()
        outboxWire = nil
        bus?.discardAnnouncements()
        for index in gatewayAnswers.indices { gatewayAnswers[index].reply = failed }
    }
}

/// What a turn sends once its commit is on disk: its replies and events (each one's client and
/// where its line is in `bytes`) and its gateway answers.
struct TurnOutput {
    var pending: [(fd: Int32, line: Range<Int>, isReply: Bool)]
    var bytes: [UInt8]
    var gatewayAnswers: [(reply: Reply, completion: (Reply) -> Void)]
}
