import Foundation
import PushCore

/// The tests' clock: the server's manual clock, started at zero on a fixed wall time.
public typealias ManualClock = ManualTime

extension ManualTime {
    public convenience init() {
        self.init(now: .zero, wall: Date(timeIntervalSince1970: 1_764_496_800))
    }
}
