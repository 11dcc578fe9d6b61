import PushCore

/// A front end running inside the server's loop (the full-screen UI): it gets its descriptors
/// polled alongside the sockets and is told when a turn ends so it can redraw.
public protocol ServerHost: AnyObject {
    /// Descriptors to poll for input (the terminal, its resize pipe).
    var descriptors: [Int32] { get }
    /// One of `descriptors` is readable; the host reads it and may call `server.perform` or
    /// `server.dispatch`.
    func readable(_ fd: Int32, server: Server)
    /// The next instant the host needs a turn without input (e.g. to refresh relative times).
    func deadline(after now: Instant) -> Instant?
    /// A turn ended: the store is committed and `server.inbox` is current.
    func turnEnded(server: Server, now: Instant)
}
