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
        defer {
            turnWrites.removeAll(keepingCapacity: true)
            turnHasWrites = false
            writesOutstanding = false
        }
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
    func endTurn() {
        if turnHasWrites {
            if let error = commitTurn() { recoverFromFailedCommit(error) }
            if let failure = store.takeCheckpointFailure() {
                options.log("store: a background checkpoint failed (\(failure)); the loop checkpoints the WAL itself meanwhile")
            }
        }

        if !turnForwards.isEmpty { publishForwards() }
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
            } else if client.closeAfterFlush && client.pendingOutput == 0 && !client.backlog && !client.awaitingBus {
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
            // The request log and the faults are not stored: they stay as they were.
            let requestLog = inbox.requestLog
            let faults = inbox.faults
            inbox = reloaded
            inbox.banner = banner
            inbox.requestLog = requestLog
            inbox.faults = faults
        }
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
