import PushCore
import PushJSON

/// A subscription to the server's bus: a connection of its own that hears typed `BusEvent`s,
/// each read by the wire layer (`BusEvent(wire:)`), so no client reads an event's field by name.
public final class EventStream {
    private let client: SocketClient
    public var path: String { client.path }

    /// Subscribes to `topics` (every topic when empty); the server's refusal is an error.
    public init(path: String, topics: [Topic] = []) throws(ClientError) {
        client = try SocketClient(path: path)
        if case .error(let message) = try client.reply(to: .subscribe(topics)) {
            throw .connection("subscribe was refused: \(message)")
        }
    }

    /// The next event, waiting at most `milliseconds` (-1: no limit) for it; nil when none came
    /// in time or `alsoWatching` (a signal pipe) became readable first.
    public func next(waitingMilliseconds milliseconds: Int32 = -1, alsoWatching other: Int32? = nil) throws(ClientError) -> BusEvent? {
        guard client.waitForLine(milliseconds: milliseconds, alsoWatching: other) else { return nil }
        guard let event = try read() else {
            throw .connection("the server at \(path) answered a request this subscription did not send")
        }
        return event
    }

    /// Every event published so far: a `ping` on the subscribed connection is answered after
    /// the events queued before it, so its reply marks the end.
    public func drain() throws(ClientError) -> [BusEvent] {
        try client.send(Request.ping.wireLine)
        var events: [BusEvent] = []
        while let event = try read() { events.append(event) }
        return events
    }

    /// The next line as an event; nil for a reply (a line with no `topic`).
    private func read() throws(ClientError) -> BusEvent? {
        let object = try client.readReply()
        guard object["topic"] != nil else { return nil }
        do {
            return try BusEvent(wire: object)
        } catch {
            throw .connection("the server at \(path) sent an event this pushdeck cannot read (\(error)): \(JSON.object(object).compactText)")
        }
    }
}
