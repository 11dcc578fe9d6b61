import Foundation
import PushCore
import PushJSON
import PushTUI
import Testing
import TestSupport

/// The Live Activity cards' keys as reducer tests: `]`/`[` select a card, `⏎` opens it (its
/// fields and its history, the discarded pushes marked with why), `x` dismisses it, `Esc` gives
/// the selection back to the list. Drawn at a fixed wall clock.
@Suite("Live Activity card keys")
struct ActivityCardKeyTests {
    let cards = ActivityCardTests()
    var now: Date { cards.now }
    let size = Size(width: 80, height: 24)

    /// The cards' inbox, the delivery's history: its start, an update, an older one discarded,
    /// one with no timestamp discarded.
    func inbox() -> Inbox {
        var inbox = cards.inbox()
        guard var delivery = inbox.activities.byId["activity-1"] else { return inbox }
        let at = now.addingTimeInterval(-600)
        func update(_ seconds: Double, _ event: String?, _ timestamp: Int64?, _ state: JSON?, why: String? = nil) -> ActivityUpdate {
            ActivityUpdate(at: at.addingTimeInterval(seconds), token: "1ac7", app: delivery.app, event: event, timestamp: timestamp,
                           contentState: state, accepted: why == nil, why: why)
        }
        delivery.history = [
            update(0, "start", 1_764_547_200, cards.object([("status", .string("preparing"))])),
            update(300, "update", 1_764_547_500, cards.object([("status", .string("shipped")), ("eta", .number(JSONNumber(10)))])),
            update(420, "update", 1_764_547_400, cards.object([("status", .string("late news"))]),
                   why: "timestamp 1764547400 is older than the last applied (1764547500)"),
            update(597, "update", nil, cards.object([("status", .string("no timestamp"))]), why: "no timestamp"),
        ]
        inbox.activities.put(delivery)
        return inbox
    }

    func screen(_ inbox: Inbox) -> Screen {
        var screen = Screen(size: size)
        screen.cardIds = ActivityCardView.shown(inbox.activities, at: now).map(\.id)
        screen.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        return screen
    }

    func press(_ keys: [Key], _ screen: inout Screen, _ inbox: Inbox) -> [UIAction] {
        keys.flatMap { screen.handle($0, inbox: inbox, now: .zero) }
    }

    func text(_ grid: Grid) -> String { (0..<grid.height).map(grid.rowText).joined(separator: "\n") }

    @Test func bracketsMoveBetweenCardsAndEscOrAnArrowGivesTheSelectionBack() {
        let inbox = inbox()
        var screen = screen(inbox)
        #expect(screen.cardIds == ["activity-2", "activity-1", "activity-3"])
        _ = press([.char("]")], &screen, inbox)
        #expect(screen.selectedCard == "activity-2")
        _ = press([.char("]"), .char("]"), .char("]")], &screen, inbox)
        #expect(screen.selectedCard == "activity-3")
        _ = press([.char("[")], &screen, inbox)
        #expect(screen.selectedCard == "activity-1")
        _ = press([.escape], &screen, inbox)
        #expect(screen.selectedCard == nil)
        // From none, `[` selects the last card; a list move takes the selection back.
        _ = press([.char("[")], &screen, inbox)
        #expect(screen.selectedCard == "activity-3")
        _ = press([.down], &screen, inbox)
        #expect(screen.selectedCard == nil && screen.selected == 1)
        // No cards: the brackets do nothing.
        var plain = Screen(size: size)
        plain.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        #expect(press([.char("]"), .char("[")], &plain, Inbox()).isEmpty && plain.selectedCard == nil)
    }

    @Test func theSelectedCardShowsItsKeysAndTheFooterSaysThem() {
        let inbox = inbox()
        var screen = screen(inbox)
        _ = press([.char("]"), .char("]")], &screen, inbox)
        let grid = screen.render(inbox: inbox, now: .zero, date: now)
        cards.check(grid, "activities-selected-80x24")
        let text = text(grid)
        #expect(text.contains("⏎ open  x dismiss  esc list"))
        #expect(grid.rowText(grid.height - 1).contains("x dismiss"))
    }

    @Test func enterOpensTheActivityWithItsHistoryTheDiscardedOnesMarkedWithWhy() {
        let inbox = inbox()
        var screen = screen(inbox)
        let actions = press([.char("]"), .char("]"), .enter], &screen, inbox)
        #expect(actions.last == .openActivity(id: "activity-1"))
        #expect(screen.view == .activity(id: "activity-1"))
        let grid = screen.render(inbox: inbox, now: .zero, date: now)
        cards.check(grid, "activity-open-80x24")
        let text = text(grid)
        #expect(text.contains("Live Activity activity-1"))
        #expect(text.contains("history  4 pushes, 2 discarded, newest first"))
        #expect(text.contains("✗ ") && text.contains("why: no timestamp"))
        #expect(text.contains("why: timestamp 1764547400 is older than the last applied (1764547500)"))
        #expect(text.contains("✓ ") && text.contains("applied"))
        // Newest first: the push with no timestamp before the start.
        let newest = text.range(of: "no timestamp")?.lowerBound, start = text.range(of: "  start  ")?.lowerBound
        #expect(newest != nil && start != nil && newest! < start!)
        // Esc goes back to the list, the card still selected.
        _ = press([.escape], &screen, inbox)
        #expect(screen.view == .list && screen.selectedCard == "activity-1")
    }

    @Test func theOpenedActivityScrollsWithinItsLinesAndBracketsOpenTheNext() {
        let inbox = inbox()
        var screen = screen(inbox)
        _ = press([.char("]"), .char("]"), .enter, .end], &screen, inbox)
        let lines = ActivityDetailView.lines(inbox.activities.byId["activity-1"]!, width: size.width, timeZone: screen.timeZone).count
        #expect(screen.activityScroll == max(0, lines - screen.listHeight))
        _ = press([.home], &screen, inbox)
        #expect(screen.activityScroll == 0)
        #expect(press([.char("]")], &screen, inbox) == [.openActivity(id: "activity-3")])
        #expect(screen.view == .activity(id: "activity-3"))
        #expect(press([.char("]")], &screen, inbox).isEmpty)
    }

    @Test func xDismissesTheSelectedOrOpenedActivityThroughTheSocketsRequest() {
        let inbox = inbox()
        var screen = screen(inbox)
        #expect(press([.char("x")], &screen, inbox).isEmpty)
        #expect(press([.char("]"), .char("x")], &screen, inbox).last == .request(.activity(.dismiss(id: "activity-2"))))
        _ = press([.enter], &screen, inbox)
        #expect(press([.char("x")], &screen, inbox) == [.request(.activity(.dismiss(id: "activity-2"))), .back])
        #expect(screen.view == .list)
        // The host sets the cards each turn: the dismissed one is no longer selected.
        screen.cardIds = ["activity-1", "activity-3"]
        #expect(screen.selectedCard == nil)
    }

    @Test func aClickSelectsACardAndASecondClickOpensIt() {
        let inbox = inbox()
        var screen = screen(inbox)
        let second = screen.layout.cards.y + ActivityCardView.cardHeight + 1
        #expect(press([.mouse(.click(x: 10, y: second))], &screen, inbox) == [.selectCard("activity-1")])
        #expect(press([.mouse(.click(x: 10, y: second))], &screen, inbox) == [.openActivity(id: "activity-1")])
    }

    @Test func theHelpListsTheCardKeys() {
        let keys = HelpView.keys(grouped: true).map(\.keys)
        #expect(keys.contains("[ ]") && keys.contains("x"))
        // No key of the cards is another key's.
        #expect(Set(keys).count == keys.count)
    }
}
