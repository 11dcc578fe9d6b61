import Foundation
import PushCore
import PushStore

/// The team bus (MQTT) in the server's loop, attached by whoever assembles the server (the
/// executable): PushServer knows it only through this protocol, as it knows a gateway, so the
/// server's module does not depend on the bus's. It is a participant of the one `poll(2)` loop.
public protocol AttachedBus: PollParticipant {
    /// What the engine is told: connected, or not now and why.
    var link: BusLink { get }
    /// The header's words: `bus connected`, `bus reconnecting (N)`, `bus refused: REASON`.
    var statusLine: String { get }
    /// Publishes a push committed to the outbox by the turn that just ended. `acknowledged`
    /// (when given) hears true once the broker acknowledged the publish (PUBACK), false when the
    /// connection went first or no acknowledgement came in time — the push stays in the outbox.
    func publish(_ remote: RemotePush, wire: [UInt8]?, acknowledged: ((Bool) -> Void)?)
    /// The message `publish` sends for `remote` (`RemotePush.wireJSON` naming this instance as
    /// its sender): the outbox row keeps it, so it is encoded once for both.
    func wire(_ remote: RemotePush) -> [UInt8]
    /// A bus event of this server, as `watch` prints it (its compact JSON, without the newline),
    /// for `instances/{id}/events`: held until the turn has committed, as a watcher's events are.
    func announce(line: ArraySlice<UInt8>)
    /// The turn's commit failed: its announced events are dropped, as a watcher's are.
    func discardAnnouncements()
    /// `{"op":"bus"}`: the connection and the instances seen.
    func busReply() -> Reply
    /// Says goodbye to the broker (the server is shutting down).
    func close()
}

extension Server {
    /// Runs `bus` in this server's loop.
    public func attach(bus: any AttachedBus) {
        self.bus = bus
        add(bus)
    }

    /// The attached bus's header words, or nil without one.
    public var busStatus: String? { bus?.statusLine }

    /// Writes a change into the turn's transaction (the bus's outbox bookkeeping: a receipt
    /// removes its push); it is committed with the turn, before any of the turn's answers.
    public func record(_ change: StoreChange) {
        write(change)
    }

    /// Hands the turn's forwarded pushes to the bus, now that they are committed, and holds
    /// back the gateway answers of those pushes until the broker acknowledges each.
    func publishForwards() {
        let forwards = turnForwards
        turnForwards.removeAll()
        guard let bus else { return }
        var waiting: [String: (Reply) -> Void] = [:]
        gatewayAnswers.removeAll { answer in
            guard case .forwarded(let id, _) = answer.reply else { return false }
            waiting[id] = answer.completion
            return true
        }
        for (remote, wire) in forwards {
            guard let completion = waiting[remote.id] else {
                bus.publish(remote, wire: wire, acknowledged: nil)
                continue
            }
            let reply = Reply.forwarded(id: remote.id, topic: remote.topic)
            bus.publish(remote, wire: wire) { acknowledged in
                completion(acknowledged
                    ? reply
                    : .unavailable("the broker did not acknowledge the push for \(remote.token.prefix(200)) in time; it stays in the outbox and is published again"))
            }
        }
    }
}
