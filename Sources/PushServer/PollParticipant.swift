import Glibc
import PushCore

/// Something with descriptors of its own in the server's one `poll(2)` loop (the provider
/// gateway): each turn it says what it waits for, hears what is ready, and is told when the turn
/// has committed — no second event loop, no thread.
public protocol PollParticipant: AnyObject {
    /// Appends its descriptors with the events it waits for now (POLLOUT only with output).
    func pollEntries(into entries: inout [pollfd])
    /// One of its descriptors has events (`entry.revents`).
    func ready(_ entry: pollfd, server: Server)
    /// The next instant it needs a turn without input (its timeouts), or nil.
    func deadline(after now: Instant) -> Instant?
    /// The turn ended: the store is committed and the turn's answers are handed out.
    func turnEnded(server: Server)
    /// The turn's commit is being written on the store's thread and the loop would only wait:
    /// read and parse what is ready, handing nothing to the server — a request that comes whole
    /// waits for `handleAhead`, since the server cannot take it into a turn it is committing.
    func readAhead()
    /// Whether `readAhead` left something for `handleAhead`.
    var hasAhead: Bool { get }
    /// Hands what `readAhead` left to the server, in the order it came: at the start of the next
    /// turn, before anything that turn's `poll` found ready.
    func handleAhead(server: Server)
}

extension PollParticipant {
    public func readAhead() {}
    public var hasAhead: Bool { false }
    public func handleAhead(server: Server) {}
}
