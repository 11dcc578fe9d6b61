import Foundation

/// A point on a monotonic clock, in nanoseconds from an arbitrary origin.
///
/// Time is an input to the reducer: the loop passes `now`, tests pass a manual clock's instant.
public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    public static let zero = Instant(nanoseconds: 0)

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: Instant, seconds: Double) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds + Int64((seconds * 1e9).rounded()))
    }
    public static func - (lhs: Instant, seconds: Double) -> Instant { lhs + (-seconds) }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    public func seconds(since earlier: Instant) -> Double {
        Double(nanoseconds - earlier.nanoseconds) / 1e9
    }

    public var description: String { String(format: "%.3fs", Double(nanoseconds) / 1e9) }
}

/// Where the loop gets the time: monotonic for timers and animation, wall for `receivedAt`.
public protocol TimeSource: Sendable {
    var now: Instant { get }
    var wallNow: Date { get }
}

/// The real clock: `CLOCK_MONOTONIC` through `DispatchTime`, and the system's wall clock.
public struct SystemTime: TimeSource {
    public init() {}
    public var now: Instant { Instant(nanoseconds: Int64(DispatchTime.now().uptimeNanoseconds)) }
    public var wallNow: Date { Date() }
}

/// A clock that moves only when told: the server's with `serve --clock manual`, so a live
/// scenario's timed steps and expects hold at once, as they do on the instant player's clock; and
/// the tests'. The monotonic reading and the wall time move on together.
public final class ManualTime: TimeSource, @unchecked Sendable {
    // @unchecked: the lock guards every field (the loop moves it; the gateway and the UI read it).
    private let lock = NSLock()
    private let start: Instant
    private var instant: Instant
    private var wall: Date

    public init(now: Instant, wall: Date) {
        start = now
        instant = now
        self.wall = wall
    }

    public var now: Instant { lock.withLock { instant } }
    public var wallNow: Date { lock.withLock { wall } }
    /// Seconds the clock has been moved on since it was made.
    public var elapsed: Double { lock.withLock { instant.seconds(since: start) } }

    /// Moves both clocks forward (a negative amount leaves them where they are).
    public func advance(by seconds: Double) {
        guard seconds > 0 else { return }
        lock.withLock {
            instant = instant + seconds
            wall = wall.addingTimeInterval(seconds)
        }
    }

    /// Moves both clocks on to `target` (never back).
    public func advance(to target: Instant) {
        lock.withLock {
            guard target > instant else { return }
            wall = wall.addingTimeInterval(target.seconds(since: instant))
            instant = target
        }
    }
}
