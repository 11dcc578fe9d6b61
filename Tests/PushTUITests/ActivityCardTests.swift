import Foundation
import PushCore
import PushJSON
import PushTUI
import Testing
import TestSupport

/// The Live Activity cards under the header and the header's compact line, drawn at a fixed
/// wall clock (the clock is moved by choosing `date`, never by waiting).
@Suite("Live Activity cards")
struct ActivityCardTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]
    let now = SampleMessages.now

    func object(_ pairs: [(String, JSON)]) -> JSON {
        var object = JSONObject()
        for (key, value) in pairs { object[key] = value }
        return .object(object)
    }

    /// A delivery updated 3 s ago, a stale score (relevance 50), and one ended a minute ago.
    func inbox() -> Inbox {
        var inbox = SampleMessages.sampleInbox()
        var delivery = Activity(
            id: "activity-1", app: "com.example.delivery", attributesType: "DeliveryAttributes",
            attributes: object([("orderId", .string("1270339"))]),
            contentState: object([("status", .string("shipped")), ("eta", .number(JSONNumber(10)))]),
            startedAt: now.addingTimeInterval(-600))
        delivery.updatedAt = now.addingTimeInterval(-3)
        delivery.relevanceScore = 10
        var score = Activity(
            id: "activity-2", app: "com.example.sports", attributesType: "MatchAttributes",
            attributes: object([("home", .string("Lions")), ("away", .string("Bears"))]),
            contentState: object([("home", .number(JSONNumber(2))), ("away", .number(JSONNumber(1)))]),
            startedAt: now.addingTimeInterval(-3600))
        score.updatedAt = now.addingTimeInterval(-300)
        score.staleDate = now.addingTimeInterval(-60)
        score.relevanceScore = 50
        var ride = Activity(
            id: "activity-3", app: "com.example.ride", attributesType: "RideAttributes",
            contentState: object([("driver", .string("Ana")), ("arrived", .bool(true))]),
            startedAt: now.addingTimeInterval(-1200))
        ride.updatedAt = now.addingTimeInterval(-60)
        ride.endedAt = now.addingTimeInterval(-60)
        var gone = Activity(id: "activity-4", app: "com.example.gone", startedAt: now.addingTimeInterval(-1200))
        gone.endedAt = now.addingTimeInterval(-120)
        gone.dismissalDate = now.addingTimeInterval(-1)
        for activity in [delivery, score, ride, gone] { inbox.activities.put(activity) }
        return inbox
    }

    func render(_ size: Size, inbox: Inbox, date: Date) -> Grid {
        var screen = Screen(size: size)
        screen.activityCount = ActivityCardView.shown(inbox.activities, at: date).count
        let source = ArrayMessageSource(SampleMessages.sampleMessages())
        screen.load(from: source)
        return screen.render(inbox: inbox, now: .zero, date: date)
    }

    func check(_ grid: Grid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let problem = GridSnapshot.mismatch(grid, named: name, in: GridSnapshot.directory(besides: #filePath))
        #expect(problem == nil, "\(problem ?? "")", sourceLocation: sourceLocation)
        for y in 0..<grid.height {
            #expect(grid.rowText(y).columns == grid.width, sourceLocation: sourceLocation)
        }
    }

    @Test("cards by relevance-score, stale and ended marked, the dismissed one gone", arguments: sizes)
    func cards(size: Size) {
        let grid = render(size, inbox: inbox(), date: now)
        check(grid, "activities-\(size.width)x\(size.height)")
        let text = (0..<grid.height).map(grid.rowText).joined(separator: "\n")
        // Relevance 50 before 10 before none.
        let sports = text.range(of: "com.example.sports")?.lowerBound
        let delivery = text.range(of: "com.example.delivery · orderId: 1270339")?.lowerBound
        #expect(sports != nil && delivery != nil && sports! < delivery!)
        #expect(text.contains("updated 3s ago"))
        #expect(text.contains("status: shipped  eta: 10"))
        #expect(text.contains(" stale "))
        #expect(text.contains("ended · leaves in 3h59m"))
        #expect(!text.contains("com.example.gone"))
        // The compact line: the newest (updated 3 s ago), on the header row.
        #expect(grid.rowText(0).contains("◖"))
    }

    @Test("updated in place: the clock moves, the same card says how long ago")
    func clockMoves() {
        let size = Size(width: 80, height: 24)
        let later = render(size, inbox: inbox(), date: now.addingTimeInterval(120))
        check(later, "activities-later-80x24")
        let text = (0..<later.height).map(later.rowText).joined(separator: "\n")
        #expect(text.contains("updated 2m ago"))
        #expect(text.contains("ended · leaves in 3h57m"))
    }

    @Test("no activities: no cards, no compact line, the list as before")
    func none() {
        let size = Size(width: 80, height: 24)
        var inbox = SampleMessages.sampleInbox()
        inbox.activities = ActivityBook()
        let grid = render(size, inbox: inbox, date: now)
        #expect(!grid.rowText(0).contains("◖"))
        #expect(!grid.rowText(1).contains("╭"))
    }

    @Test("text in a card is made inert")
    func inert() {
        var inbox = Inbox()
        inbox.activities.put(Activity(
            id: "activity-1", app: "com.example.evil",
            contentState: object([("msg", .string("\u{1B}[2Jgone"))]), startedAt: now))
        let grid = render(Size(width: 80, height: 24), inbox: inbox, date: now)
        let text = (0..<grid.height).map(grid.rowText).joined()
        #expect(!text.contains("\u{1B}"))
    }

    /// What a host keeps between frames is what the screen works out at any date until one of
    /// the activities changes state: the ride's dismissal, 3h59m after `now`, here.
    @Test func theShownActivitiesHoldUntilTheFirstChangeOfState() throws {
        let inbox = inbox()
        let shown = ShownActivities(inbox.activities, at: now, revision: 7)
        #expect(shown.ids == ["activity-2", "activity-1", "activity-3"])
        #expect(shown.compact == ActivityCardView.compact(inbox.activities, at: now))
        #expect(shown.revision == 7)
        let ride = try #require(inbox.activities.byId["activity-3"])
        let lastHeld = ride.dismissedAt.addingTimeInterval(-0.001)
        #expect(shown.holds(at: now) && shown.holds(at: lastHeld))
        #expect(ActivityCardView.shown(inbox.activities, at: lastHeld).map(\.id) == shown.ids)
        #expect(!shown.holds(at: ride.dismissedAt))
        #expect(ActivityCardView.shown(inbox.activities, at: ride.dismissedAt).map(\.id) == ["activity-2", "activity-1"])
        #expect(!shown.holds(at: now.addingTimeInterval(-1)), "nor before it was worked out")
        #expect(!ShownActivities.none.holds(at: now))
    }

    /// The screen draws the same with the host's activities as it does working them out itself.
    @Test(arguments: sizes)
    func theKeptActivitiesDrawAsTheInboxDoes(size: Size) {
        let inbox = inbox()
        let date = now.addingTimeInterval(2)
        var kept = Screen(size: size)
        kept.shownActivities = ShownActivities(inbox.activities, at: now)
        kept.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        #expect(kept.cardIds == ["activity-2", "activity-1", "activity-3"])
        // As a host set the cards before: their ids each turn, the rest worked out while drawing.
        var worked = Screen(size: size)
        worked.cardIds = ActivityCardView.shown(inbox.activities, at: date).map(\.id)
        worked.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        let same = kept.render(inbox: inbox, now: .zero, date: date) == worked.render(inbox: inbox, now: .zero, date: date)
        #expect(same)
    }
}
