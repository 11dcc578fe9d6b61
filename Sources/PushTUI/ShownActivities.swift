import Foundation
import PushCore

/// The Live Activities a screen shows, worked out once for a stretch of time: the ones not
/// dismissed in the cards' order (`ActivityCardView.shown`) and the header's compact line.
///
/// Neither moves with the clock except where an activity changes state — its stale date, its
/// end, its dismissal — so until the first of those it is what `shown` and `compact` give at any
/// date, for the same activities. A host keeps one between frames and works it out again only
/// when the activities may have changed or the stretch is over: ordering and formatting all of
/// them three times a frame was most of what 20 activities added to a frame. What does move
/// every second ("updated 3s ago", "leaves in 3h59m") is drawn each frame, for the cards on
/// screen only.
public struct ShownActivities: Sendable, Equatable {
    /// Every activity on screen, in the cards' order.
    public let activities: [Activity]
    /// The header's compact line, its forms longest first; nil without activities.
    public let compact: [String]?
    /// What the host changed it at (its store's revision); -1 for none.
    public let revision: Int
    /// The stretch it holds for: from the date it was worked out at until the first change of
    /// state of one of them after it.
    private let from: Date
    private let until: Date

    /// Nothing worked out: it holds at no date.
    public static let none = ShownActivities(activities: [], compact: nil, revision: -1, from: .distantFuture, until: .distantPast)

    /// The activities `book` shows at `date`; `revision` is the host's, to tell a change by.
    public init(_ book: ActivityBook, at date: Date, revision: Int = -1) {
        let shown = ActivityCardView.shown(book, at: date)
        self.init(
            activities: shown, compact: ActivityCardView.compact(shown: shown, at: date), revision: revision, from: date,
            until: shown.lazy.compactMap { Self.nextChange(of: $0, after: date) }.min() ?? .distantFuture)
    }

    private init(activities: [Activity], compact: [String]?, revision: Int, from: Date, until: Date) {
        self.activities = activities
        self.compact = compact
        self.revision = revision
        self.from = from
        self.until = until
    }

    /// Whether it is what the screen shows at `date` (the activities unchanged).
    public func holds(at date: Date) -> Bool { from <= date && date < until }

    /// The ids of the activities, in the cards' order.
    public var ids: [String] { activities.map(\.id) }

    /// The first moment after `date` at which `activity`'s state (`Activity.state(at:)`) can
    /// change: its stale date, its end or its dismissal.
    static func nextChange(of activity: Activity, after date: Date) -> Date? {
        [activity.staleDate, activity.endsAt, activity.dismissedAt].lazy.compactMap { $0 }.filter { $0 > date }.min()
    }
}
