import Foundation
import PushCore
import PushTUI
import Testing
import TestSupport

/// Key handling as reducer tests: a state, a key, the actions and the next state.
@Suite("Keys and mouse")
struct ScreenKeyTests {
    let messages = SampleMessages.sampleMessages()
    var source: ArrayMessageSource { ArrayMessageSource(messages) }

    func loaded(_ size: Size = Size(width: 80, height: 24)) -> Screen {
        var screen = Screen(size: size)
        screen.load(from: source)
        return screen
    }

    /// Presses `keys` in turn; with a `phase`, at the instant the banner is there.
    func press(_ keys: [Key], on screen: inout Screen, inbox: Inbox = SampleMessages.sampleInbox(),
               phase: BannerPhase? = nil) -> [UIAction] {
        let now = phase.map(inbox.instant(whereBannerIs:)) ?? .zero
        var all: [UIAction] = []
        for key in keys {
            all += screen.handle(key, inbox: inbox, now: now)
            if screen.needsLoad { screen.load(from: source) }
        }
        return all
    }

    @Test func arrowsMoveAndClamp() {
        var screen = loaded()
        _ = press([.down, .down, .char("j")], on: &screen)
        #expect(screen.selected == 3)
        _ = press([.up, .char("k")], on: &screen)
        #expect(screen.selected == 1)
        _ = press([.up, .up, .up], on: &screen)
        #expect(screen.selected == 0)
        _ = press([.end], on: &screen)
        #expect(screen.selected == messages.count - 1)
        _ = press([.down, .pageDown], on: &screen)
        #expect(screen.selected == messages.count - 1)
        _ = press([.home], on: &screen)
        #expect(screen.selected == 0)
        #expect(screen.selectedMessage?.id == messages[0].id)
    }

    @Test func enterOpensDetailAndReads() {
        var screen = loaded()
        _ = press([.down], on: &screen)
        let actions = press([.enter], on: &screen)
        #expect(actions == [.openDetail(id: messages[1].id), .request(.read(.ids([messages[1].id])))])
        #expect(screen.view == .detail(id: messages[1].id))
        #expect(screen.detailMessage == messages[1])
        _ = press([.escape], on: &screen)
        #expect(screen.view == .list)
        #expect(screen.selected == 1)
    }

    @Test func inboxCommands() {
        var screen = loaded()
        #expect(press([.char("r")], on: &screen) == [.request(.read(.ids([messages[0].id])))])
        #expect(press([.char("a")], on: &screen) == [.request(.read(.all(app: nil)))])
        #expect(press([.char("c")], on: &screen) == [.request(.badge(app: nil, change: .clear, sync: nil))])
        #expect(press([.char("m")], on: &screen) == [.request(.mode(.off))])
        #expect(press([.char("m")], on: &screen, inbox: SampleMessages.sampleInbox(mode: .off)) == [.request(.mode(.on))])
        #expect(press([.char("f")], on: &screen) == [.request(.app(.background))])
        #expect(press([.char("f")], on: &screen, inbox: SampleMessages.sampleInbox(appState: .terminated))
            == [.request(.app(.foreground))])
        #expect(press([.down, .char("d")], on: &screen).last == .request(.delete([messages[1].id])))
        #expect(press([.char("q")], on: &screen) == [.quit])
    }

    /// The keys' requests are the ones a script's lines decode to (`pushdeck read 1`, …): a key
    /// goes through exactly what the socket's request goes through.
    @Test(arguments: [
        ("r", #"{"op":"read","id":7}"#), ("a", #"{"op":"read","all":true}"#), ("c", #"{"op":"badge","clear":true}"#),
        ("m", #"{"op":"mode","set":"off"}"#), ("f", #"{"op":"app","state":"background"}"#), ("d", #"{"op":"delete","id":7}"#),
    ])
    func aKeyIsTheRequestAScriptSends(key: Character, line: String) throws {
        var screen = loaded()
        #expect(screen.selectedMessage?.id == 7)
        let sent = press([.char(key)], on: &screen).compactMap { action -> Request? in
            if case .request(let request) = action { return request }
            return nil
        }
        #expect(sent == [try Request.decode(frame: Array(line.utf8))])
    }

    @Test("the banner is pinned on screen by the clock", arguments: [
        BannerPhase.entering(fraction: 0.25), .entering(fraction: 0.75), .shown, .leaving(fraction: 0.4), .gone,
    ])
    func bannerPinnedByTheClock(phase: BannerPhase) {
        var inbox = SampleMessages.sampleInbox()
        inbox.banner = Banner(message: messages[0], enteredAt: Instant(seconds: 3), shownAt: Instant(seconds: 3.25))
        #expect(inbox.bannerPhase(at: inbox.instant(whereBannerIs: phase)) == phase)
    }

    @Test("Tab focuses the banner and the pointer over it pauses its timer")
    func bannerPauseKeys() {
        var screen = loaded()
        var inbox = SampleMessages.sampleInbox()
        #expect(press([.tab], on: &screen, inbox: inbox).isEmpty, "no banner: Tab does nothing")
        #expect(press([.mouse(.move(x: 10, y: 1))], on: &screen, inbox: inbox).isEmpty)
        inbox.banner = Banner(message: messages[0], enteredAt: .zero, shownAt: .zero)
        #expect(press([.tab], on: &screen, inbox: inbox, phase: .shown) == [.banner(.pause(.focus, true))])
        #expect(press([.mouse(.move(x: 10, y: 1))], on: &screen, inbox: inbox, phase: .shown) == [.banner(.pause(.pointer, true))])
        inbox.banner?.pauses = [.focus, .pointer]
        #expect(press([.tab], on: &screen, inbox: inbox, phase: .shown) == [.banner(.pause(.focus, false))])
        #expect(press([.mouse(.move(x: 10, y: 2))], on: &screen, inbox: inbox, phase: .shown).isEmpty, "still over it")
        #expect(press([.mouse(.move(x: 10, y: 12))], on: &screen, inbox: inbox, phase: .shown) == [.banner(.pause(.pointer, false))])
        #expect(screen.view == .list)
    }

    @Test func bannerKeys() {
        var screen = loaded()
        var inbox = SampleMessages.sampleInbox()
        #expect(press([.char("o")], on: &screen, inbox: inbox).isEmpty)
        inbox.banner = Banner(message: messages[0], enteredAt: .zero, shownAt: .zero, count: 2)
        // Esc while the banner shows sends it up, and nothing else.
        #expect(press([.escape], on: &screen, inbox: inbox, phase: .shown) == [.banner(.dismiss)])
        #expect(screen.view == .list)
        // A click on the banner opens its message.
        let click = press([.mouse(.click(x: 10, y: 1))], on: &screen, inbox: inbox, phase: .shown)
        #expect(click == [.banner(.open), .openDetail(id: messages[0].id)])
        #expect(screen.view == .detail(id: messages[0].id))
        _ = press([.escape], on: &screen, inbox: inbox, phase: .gone)
        #expect(screen.view == .list)
        #expect(press([.char("o")], on: &screen, inbox: inbox, phase: .shown)
            == [.banner(.open), .openDetail(id: messages[0].id)])
        // A click below the part that has slid in is a click on the list.
        screen.apply(.back)
        let below = press([.mouse(.click(x: 10, y: 3))], on: &screen, inbox: inbox, phase: .entering(fraction: 0.25))
        #expect(below == [.select(2)])
    }

    @Test func mouseSelectsOpensAndScrolls() {
        var screen = loaded()
        #expect(press([.mouse(.click(x: 5, y: 3))], on: &screen) == [.select(2)])
        #expect(screen.selected == 2)
        #expect(press([.mouse(.click(x: 5, y: 3))], on: &screen)
            == [.openDetail(id: messages[2].id), .request(.read(.ids([messages[2].id])))])
        _ = press([.escape], on: &screen)
        _ = press([.mouse(.wheelDown)], on: &screen)
        #expect(screen.selected == 5)
        _ = press([.mouse(.wheelUp)], on: &screen)
        #expect(screen.selected == 2)
        // A click on the header or below the last row does nothing.
        #expect(press([.mouse(.click(x: 5, y: 0))], on: &screen).isEmpty)
        #expect(press([.mouse(.click(x: 5, y: 20))], on: &screen).isEmpty)
    }

    @Test func filterTakesTheKeys() {
        var screen = loaded()
        _ = press([.char("/")], on: &screen)
        #expect(screen.filterOpen)
        let typed = press([.char("n"), .char("e"), .char("q"), .backspace, .char("w"), .char("s")], on: &screen)
        #expect(!typed.contains(.quit))
        #expect(screen.filter == "news")
        #expect(screen.total == 2)
        #expect(screen.rows.allSatisfy { $0.app == "com.example.news" })
        _ = press([.enter], on: &screen)
        #expect(!screen.filterOpen)
        #expect(screen.filter == "news")
        _ = press([.escape], on: &screen)
        #expect(screen.filter.isEmpty)
        #expect(screen.total == messages.count)
    }

    @Test func helpToggles() {
        var screen = loaded()
        _ = press([.char("?")], on: &screen)
        #expect(screen.helpShown)
        #expect(press([.char("m"), .down], on: &screen).isEmpty)
        _ = press([.escape], on: &screen)
        #expect(!screen.helpShown)
    }

    @Test func detailScrollsAndDeletes() {
        var screen = loaded(Size(width: 80, height: 10))
        _ = press([.enter], on: &screen)
        _ = press([.down, .down], on: &screen)
        #expect(screen.detailScroll == 2)
        _ = press([.end], on: &screen)
        let bottom = screen.detailScroll
        #expect(bottom > 2)
        _ = press([.down], on: &screen)
        #expect(screen.detailScroll == bottom)
        _ = press([.home], on: &screen)
        #expect(screen.detailScroll == 0)
        #expect(press([.char("d")], on: &screen) == [.request(.delete([messages[0].id])), .back])
        #expect(screen.view == .list)
    }

    @Test func statusClearsOnTheNextKey() {
        var screen = loaded()
        screen.status = "3 messages read"
        _ = press([.down], on: &screen)
        #expect(screen.status == nil)
    }

    @Test func selectionFollowsTheMessageWhenNewOnesArrive() {
        var screen = loaded()
        _ = press([.down], on: &screen)
        let newer = SampleMessages.message(8, title: "new")
        screen.load(from: ArrayMessageSource([newer] + messages))
        #expect(screen.selectedMessage?.id == messages[1].id)
        #expect(screen.selected == 2)
    }

    @Test func atTheTopTheSelectionFollowsTheNewest() {
        var screen = loaded()
        let newer = SampleMessages.message(8, title: "new")
        screen.load(from: ArrayMessageSource([newer] + messages))
        #expect(screen.selected == 0)
        #expect(screen.selectedMessage?.id == 8)
    }

    @Test func aMillionMessagesLoadOnlyTheVisibleRows() {
        let source = CountingSource(total: 1_000_000)
        var screen = Screen(size: Size(width: 80, height: 24))
        screen.load(from: source)
        #expect(screen.rows.count == 22)
        _ = screen.handle(.end, inbox: Inbox(), now: .zero)
        #expect(screen.needsLoad)
        screen.load(from: source)
        #expect(screen.selected == 999_999)
        #expect(screen.selectedMessage?.id == 1)
        #expect(screen.rows.count == 22)
        #expect(source.largestPage.value <= 22)
        let grid = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        #expect(grid.rowText(23).contains("1000000/1000000"))
    }
}

/// A source that makes a million messages up on the fly and records the largest page asked for.
final class CountingSource: MessageSource, @unchecked Sendable {
    // @unchecked: used by one test at a time; the box is only touched by that test.
    let total: Int
    let largestPage = Box(0)

    init(total: Int) { self.total = total }

    func count(filter: String) -> Int { total }

    func page(offset: Int, limit: Int, filter: String) -> [Message] {
        largestPage.value = max(largestPage.value, limit)
        return (offset..<min(total, offset + limit)).map { message(index: $0) }
    }

    func message(id: Int64) -> Message? { message(index: total - Int(id)) }

    // No threads: the grouped list is the flat one.
    func groupedCount() -> Int { total }
    func groupedPage(offset: Int, limit: Int) -> [Message] { page(offset: offset, limit: limit, filter: "") }
    func threadSize(_ thread: ThreadKey) -> Int { 0 }
    func groupedPosition(of thread: ThreadKey) -> Int? { nil }
    func threadMembers(_ thread: ThreadKey, offset: Int, limit: Int) -> [Message] { [] }

    private func message(index: Int) -> Message {
        SampleMessages.message(Int64(total - index), title: "Message \(total - index)", read: index % 3 == 0,
                               secondsAgo: Double(index) * 60)
    }

    final class Box {
        var value: Int
        init(_ value: Int) { self.value = value }
    }
}
