import Foundation
import PushCore

/// A clock tests move by hand: no test sleeps to wait for time to pass.
public final class ManualClock: TimeSource, @unchecked Sendable {
    // @unchecked: the lock guards both fields.
    private let lock = NSLock()
    private var instant: Instant
    private var wall: Date

    public init(now: Instant = .zero, wall: Date = Date(timeIntervalSince1970: 1_764_496_800)) {
        self.instant = now
        self.wall = wall
    }

    public var now: Instant { lock.withLock { instant } }
    public var wallNow: Date { lock.withLock { wall } }

    /// Moves both clocks forward.
    public func advance(by seconds: Double) {
        lock.withLock {
            instant = instant + seconds
            wall = wall.addingTimeInterval(seconds)
        }
    }
}
