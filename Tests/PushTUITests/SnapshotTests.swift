import Foundation
import PushCore
import PushTUI
import Testing
import TestSupport

/// Every view drawn into a grid and compared with the text files in `Snapshots/`.
@Suite("Screen snapshots")
struct SnapshotTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

    func check(_ grid: Grid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let problem = GridSnapshot.mismatch(grid, named: name, in: GridSnapshot.directory(besides: #filePath))
        #expect(problem == nil, "\(problem ?? "")", sourceLocation: sourceLocation)
        // Whatever the snapshot says, no row may be wider than the screen.
        for y in 0..<grid.height {
            #expect(grid.rowText(y).columns == grid.width, sourceLocation: sourceLocation)
        }
    }

    func screen(_ size: Size, messages: [Message] = SampleMessages.sampleMessages(), selected: Int = 0) -> Screen {
        var screen = Screen(size: size)
        let source = ArrayMessageSource(messages)
        screen.load(from: source)
        screen.apply(.select(selected))
        screen.load(from: source)
        return screen
    }

    func banner(count: Int = 1) -> Banner {
        Banner(message: SampleMessages.sampleMessages()[0], enteredAt: .zero, shownAt: Instant(seconds: 0.25), count: count)
    }

    func name(_ view: String, _ size: Size) -> String { "\(view)-\(size.width)x\(size.height)" }

    @Test(arguments: sizes)
    func list(size: Size) {
        let grid = screen(size, selected: 1).render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now)
        check(grid, name("list", size))
    }

    @Test(arguments: sizes)
    func emptyList(size: Size) {
        let grid = screen(size, messages: []).render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        check(grid, name("list-empty", size))
    }

    @Test(arguments: sizes)
    func headerWithDriftOffAndDropped(size: Size) {
        var grid = Grid(width: size.width, height: 1)
        let inbox = SampleMessages.sampleInbox(mode: .off, appState: .background, dropped: 12, serverBadge: 5)
        HeaderView.render(into: &grid, area: grid.bounds, inbox: inbox)
        check(grid, name("header-off-drift", size))
    }

    @Test(arguments: sizes)
    func headerWithPlatformBadgePolicy(size: Size) {
        var grid = Grid(width: size.width, height: 1)
        var inbox = SampleMessages.sampleInbox()
        inbox.settings.badgePolicies = ["com.example.shop": .platform]
        HeaderView.render(into: &grid, area: grid.bounds, inbox: inbox)
        check(grid, name("header-platform", size))
    }

    @Test(arguments: sizes)
    func headerWithMuteAndQuietHours(size: Size) {
        var grid = Grid(width: size.width, height: 1)
        var inbox = SampleMessages.sampleInbox()
        inbox.settings.muted = ["com.example.news": Date?.none]
        inbox.settings.quiet = QuietHours(start: 22 * 60, end: 7 * 60)
        HeaderView.render(into: &grid, area: grid.bounds, inbox: inbox)
        check(grid, name("header-mute-quiet", size))
    }

    @Test(arguments: sizes)
    func bannerFocusedAndPaused(size: Size) {
        var paused = banner()
        paused.pauses = [.focus]
        paused.pausedAt = Instant(seconds: 1)
        var inbox = SampleMessages.sampleInbox()
        inbox.banner = paused
        // Paused after it slid in: still shown at 1 s, and however long after.
        #expect(inbox.bannerPhase(at: Instant(seconds: 1)) == .shown)
        let grid = screen(size).render(inbox: inbox, now: Instant(seconds: 1), date: SampleMessages.now)
        check(grid, name("banner-paused", size))
    }

    @Test(arguments: sizes)
    func headerPlain(size: Size) {
        var grid = Grid(width: size.width, height: 1)
        HeaderView.render(into: &grid, area: grid.bounds, inbox: SampleMessages.sampleInbox())
        check(grid, name("header", size))
    }

    @Test(arguments: [
        ("entering-20", BannerPhase.entering(fraction: 0.2)),
        ("entering-60", BannerPhase.entering(fraction: 0.6)),
        ("shown", BannerPhase.shown),
        ("leaving-50", BannerPhase.leaving(fraction: 0.5)),
        ("gone", BannerPhase.gone),
    ])
    func bannerFrames(frame: String, phase: BannerPhase) {
        for size in Self.sizes {
            var inbox = SampleMessages.sampleInbox()
            inbox.banner = banner(count: 3)
            let grid = screen(size).render(inbox: inbox, now: inbox.instant(whereBannerIs: phase), date: SampleMessages.now)
            check(grid, name("banner-\(frame)", size))
        }
    }

    @Test(arguments: sizes)
    func bannerWithEmojiTitleAndOneLineBody(size: Size) {
        var inbox = SampleMessages.sampleInbox()
        inbox.banner = Banner(message: SampleMessages.sampleMessages()[2], enteredAt: .zero, shownAt: .zero)
        let grid = screen(size).render(inbox: inbox, now: inbox.instant(whereBannerIs: .shown), date: SampleMessages.now)
        check(grid, name("banner-emoji", size))
    }

    @Test(arguments: sizes)
    func bannerWithALongBodyTakesTwoLines(size: Size) throws {
        var inbox = SampleMessages.sampleInbox()
        let long = SampleMessages.message(
            8, app: "com.example.shop", title: "官方客服",
            body: String(repeating: "您有一條新消息：訂單 1270339 已發貨，點擊查看物流。Tap to track your parcel 📦. ", count: 3))
        inbox.banner = Banner(message: long, enteredAt: .zero, shownAt: .zero, count: 1)
        #expect(BannerView.height(of: try #require(inbox.banner), width: size.width) == 4)
        for (frame, phase) in [("25", BannerPhase.entering(fraction: 0.25)), ("75", .entering(fraction: 0.75)), ("shown", .shown)] {
            let grid = screen(size).render(inbox: inbox, now: inbox.instant(whereBannerIs: phase), date: SampleMessages.now)
            check(grid, name("banner-long-\(frame)", size))
        }
    }

    @Test(arguments: sizes)
    func detail(size: Size) {
        // A payload that is not JSON shows as received (JSON payloads are pretty-printed).
        let message = SampleMessages.message(
            9, app: "com.example.shop", channel: .transparent, title: "官方客服",
            body: "您有一條新消息：訂單 1270339 已發貨，點擊查看物流。A long body line that has to wrap at the edge of the screen. ❤️",
            url: "3?_from=push", secondsAgo: 30,
            payload: "content = 您有一條新消息;\nid = 5077;\nmid = 1270339;\ntitle = 官方客服;\nurl = \"3?_from=push\";\nurlType = 3;\u{1b}[2J",
            taskId: "GT-TASK-1", msgId: "1270339")
        var screen = screen(size, messages: [message])
        screen.apply(.openDetail(id: 9))
        screen.load(from: ArrayMessageSource([message]))
        let grid = screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now,
                                 callback: { _ in "GeTuiSdkDelegate.GeTuiSdkDidReceivePayloadData (foreground)" })
        check(grid, name("detail", size))
    }

    @Test(arguments: sizes)
    func help(size: Size) {
        var screen = screen(size)
        screen.apply(.toggleHelp)
        check(screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now), name("help", size))
    }

    @Test func filterPrompt() {
        var screen = screen(Size(width: 80, height: 12))
        screen.apply(.openFilter)
        for character in "news" { screen.apply(.filterInput(character)) }
        screen.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        check(screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now), "filter-80x12")
    }

    @Test func aFilterStillSearchingSaysSoBesideItsCountSoFar() {
        var screen = screen(Size(width: 80, height: 12))
        screen.apply(.openFilter)
        for character in "news" { screen.apply(.filterInput(character)) }
        screen.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        screen.searching = true
        let searching = screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now)
        #expect(searching.rowText(11).hasSuffix("1/\(screen.total)+ searching… "), "\(searching.rowText(11))")
        screen.searching = false
        let done = screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now)
        #expect(!done.rowText(11).contains("searching"))
        #expect(done.rowText(11).hasSuffix(" 1/\(screen.total) "))
    }

    @Test func narrowTerminal() {
        var inbox = SampleMessages.sampleInbox(mode: .off, dropped: 3)
        inbox.banner = banner()
        let narrow = screen(Size(width: 40, height: 10))
        let grid = narrow.render(inbox: inbox, now: inbox.instant(whereBannerIs: .leaving(fraction: 0.4)), date: SampleMessages.now)
        check(grid, "narrow-banner-40x10")
        let list = narrow.render(inbox: inbox, now: inbox.instant(whereBannerIs: .gone), date: SampleMessages.now)
        check(list, "narrow-list-40x10")
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 2), (3, 3), (5, 2), (10, 4), (20, 5), (9, 30)])
    func tinySizesDoNotCrash(width: Int, height: Int) {
        let size = Size(width: width, height: height)
        var inbox = SampleMessages.sampleInbox(dropped: 9, serverBadge: 7)
        inbox.banner = banner(count: 2)
        for phase in [BannerPhase.entering(fraction: 0.5), .shown, .gone] {
            var list = screen(size, selected: 3)
            #expect(list.render(inbox: inbox, now: inbox.instant(whereBannerIs: phase), date: SampleMessages.now).size == size)
            list.apply(.toggleHelp)
            _ = list.render(inbox: inbox, now: inbox.instant(whereBannerIs: phase), date: SampleMessages.now)
            list.apply(.toggleHelp)
            list.apply(.openDetail(id: 5))
            list.apply(.scrollDetail(by: Int.max))
            _ = list.render(inbox: inbox, now: inbox.instant(whereBannerIs: phase), date: SampleMessages.now)
        }
    }
}

@Suite("Styles on screen")
struct StyleTests {
    @Test func selectionUnreadAndHeaderRoles() {
        var screen = Screen(size: Size(width: 80, height: 24))
        let source = ArrayMessageSource(SampleMessages.sampleMessages())
        screen.load(from: source)
        screen.apply(.select(1))
        let grid = screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now)
        #expect(grid[0, 0].style.role == .header)
        #expect(grid[79, 0].style.role == .header)
        // Row 1 is the newest (unread, not selected): its marker has the unread role.
        #expect(grid[1, 1].character == "●")
        #expect(grid[1, 1].style.role == .unreadMarker)
        // Row 2 is selected from edge to edge.
        #expect((0..<80).allSatisfy { grid[$0, 2].style.role == .selection })
        #expect(grid[5, 3].style.role != .selection)
    }

    @Test func bannerCellsUseTheBannerRole() throws {
        var screen = Screen(size: Size(width: 80, height: 24))
        screen.load(from: ArrayMessageSource(SampleMessages.sampleMessages()))
        var inbox = SampleMessages.sampleInbox()
        inbox.banner = Banner(message: SampleMessages.sampleMessages()[0], enteredAt: .zero, shownAt: .zero)
        let grid = screen.render(inbox: inbox, now: inbox.instant(whereBannerIs: .shown), date: SampleMessages.now)
        let rows = BannerView.height(of: try #require(inbox.banner), width: 80)
        #expect(rows == 3)
        #expect((0..<rows).allSatisfy { y in (0..<80).allSatisfy { grid[$0, y].style.role == .bannerBackground } })
        #expect(grid[0, rows].style.role != .bannerBackground)
    }

    @Test func payloadEscapesNeverReachTheGrid() {
        let evil = SampleMessages.message(1, title: "t\u{1b}]0;owned\u{7}itle", body: "b\u{1b}[2J\u{9b}31mody\u{202e}x")
        var screen = Screen(size: Size(width: 80, height: 24))
        screen.load(from: ArrayMessageSource([evil]))
        var inbox = SampleMessages.sampleInbox()
        inbox.banner = Banner(message: evil, enteredAt: .zero, shownAt: .zero)
        var grids = [screen.render(inbox: inbox, now: inbox.instant(whereBannerIs: .shown), date: SampleMessages.now)]
        screen.apply(.openDetail(id: 1))
        screen.load(from: ArrayMessageSource([evil]))
        grids.append(screen.render(inbox: inbox, now: inbox.instant(whereBannerIs: .gone), date: SampleMessages.now))
        for grid in grids {
            for cell in grid.cells {
                for scalar in cell.character?.unicodeScalars ?? "".unicodeScalars {
                    #expect(scalar.value >= 0x20 && !(0x7f...0x9f).contains(scalar.value))
                    #expect(!(0x202a...0x202e).contains(scalar.value))
                }
            }
        }
        #expect(grids[0].text.contains("title"))
        #expect(grids[1].text.contains("body"))
    }
}
