import Foundation
import PushCore
import Testing

/// An activity's history keeps its newest entries in order however often it has wrapped, and is
/// equal to any history of the same entries.
@Suite struct ActivityHistoryTests {
    static func update(_ number: Int) -> ActivityUpdate {
        ActivityUpdate(at: Date(timeIntervalSince1970: Double(number)), token: "1ac7", app: "a.b", event: "update",
                       timestamp: Int64(number), contentState: nil, accepted: true)
    }

    @Test func theNewestAreKeptOldestFirstAsItWraps() {
        var history = ActivityHistory()
        var went = 0
        for number in 0..<13 {
            went += history.append(Self.update(number), keeping: 5)
            let kept = max(0, number - 4)...number
            #expect(history.map(\.timestamp) == kept.map { Int64($0) }, "after \(number)")
            #expect(history.first?.timestamp == Int64(kept.lowerBound) && history.last?.timestamp == Int64(number))
        }
        #expect(went == 8 && history.count == 5)
        #expect(Array(history.reversed()).map(\.timestamp) == [12, 11, 10, 9, 8])
    }

    @Test func historiesOfTheSameEntriesAreEqualWhereverTheirRingStarts() {
        var wrapped = ActivityHistory()
        for number in 0..<8 { _ = wrapped.append(Self.update(number), keeping: 3) }
        let plain = ActivityHistory((5..<8).map(Self.update))
        #expect(wrapped == plain)
        #expect(wrapped != ActivityHistory((4..<7).map(Self.update)))
        #expect(ActivityHistory() == [])
    }

    /// Given more than it keeps (a history built whole), the next entry leaves the newest.
    @Test func moreThanItKeepsIsCutToTheNewestOnTheNextEntry() {
        var history = ActivityHistory((0..<6).map(Self.update))
        #expect(history.append(Self.update(6), keeping: 4) == 3)
        #expect(history.map(\.timestamp) == [3, 4, 5, 6])
        #expect(history.append(Self.update(7), keeping: 4) == 1)
        #expect(history.map(\.timestamp) == [4, 5, 6, 7])
    }

    @Test func anActivityCountsWhatItsHistoryLetGo() {
        var activity = Activity(id: "activity-1", app: "a.b", startedAt: Date(timeIntervalSince1970: 0))
        for number in 0..<(Activity.historyLimit + 7) { activity.record(Self.update(number)) }
        #expect(activity.earlier == 7 && activity.history.count == Activity.historyLimit)
        #expect(activity.history.first?.timestamp == 7 && activity.history.last?.timestamp == Int64(Activity.historyLimit + 6))
    }
}
