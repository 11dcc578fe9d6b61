import Glibc

/// What a listener does when `accept(2)` fails for want of a resource: out of descriptors
/// (EMFILE for the process, ENFILE for the system) or of kernel memory (ENOBUFS, ENOMEM). The
/// connection then stays queued in the kernel and the listening socket stays readable, so a
/// listener polled again at once fails again at once: a busy loop and a log line per try.
///
/// Instead every listener of the process (the Unix socket, the gateway's port) stays out of
/// `poll` until a connection closes (a descriptor is free again) or a second passes (for one freed
/// elsewhere), and the shortage is logged once per episode. The listeners share one pause because
/// they share the one descriptor table: a close on either side frees a descriptor for both.
public final class AcceptPause {
    /// When the listeners are polled again, while paused: nanoseconds of the monotonic clock the
    /// listeners' loop reads (the same clock as `now` in the calls below).
    public private(set) var until: Int64?
    /// The listeners whose last `accept` failed for want of a resource: the episode lasts until
    /// each of them has taken its queue to the end (an `accept` that would block).
    private var short: Set<Int32> = []

    public init() {}

    /// The errors that mean "no resource now, the connection waits in the queue" — not the peer's fault.
    public static func isShortage(_ code: Int32) -> Bool {
        code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
    }

    /// Whether the listeners are polled at `now` (a pause that has run out is over).
    public func allows(at now: Int64) -> Bool {
        if let until, until <= now { self.until = nil }
        return until == nil
    }

    /// `accept` on `listener` failed for want of a resource at `now`: pauses every listener for
    /// a second. True when this starts an episode (the caller logs it, once).
    public func shortage(on listener: Int32, at now: Int64) -> Bool {
        until = now + 1_000_000_000
        let starts = short.isEmpty
        short.insert(listener)
        return starts
    }

    /// A connection closed, or one was accepted: a descriptor is (or was) free, poll again.
    public func released() { until = nil }

    /// `listener` has no connection waiting any more: its part of the episode is over.
    public func drained(_ listener: Int32) {
        if !short.isEmpty { short.remove(listener) }
    }
}
