import Foundation
import PushCore
import PushTUI
import Testing
import TestSupport

/// The list grouped by `aps.thread-id` — one row per thread with its count, Enter
/// opens and folds it, `relevance-score` orders inside, `t` lists every message on its own.
@Suite struct ThreadListTests {
    /// Newest first: a thread "orders" of three (ids 5, 3, 2), a thread "chat" of one, two alone.
    static func messages() -> [Message] {
        func message(_ id: Int64, _ title: String, thread: String? = nil, relevance: Double? = nil,
                     app: String = "com.example.shop") -> Message {
            var message = SampleMessages.message(id, app: app, title: title, secondsAgo: Double(10 - id) * 60)
            message.threadId = thread
            message.relevance = relevance
            return message
        }
        return [
            message(6, "Alone new"),
            message(5, "Order C", thread: "orders", relevance: 0.2),
            message(4, "Chat one", thread: "chat"),
            message(3, "Order B", thread: "orders", relevance: 0.9),
            message(2, "Order A", thread: "orders", relevance: 0.2),
            // The same thread id in another app is another thread.
            message(1, "Other app", thread: "orders", app: "com.example.news"),
        ]
    }

    static func loaded(_ size: Size = Size(width: 80, height: 24)) -> (Screen, ArrayMessageSource) {
        var screen = Screen(size: size)
        let source = ArrayMessageSource(messages())
        screen.load(from: source)
        return (screen, source)
    }

    static func titles(_ screen: Screen) -> [String] { screen.rows.map { $0.title ?? "" } }

    @Test func aThreadIsOneRowWithItsCountAtItsNewestMessage() {
        let (screen, _) = Self.loaded()
        #expect(screen.grouped)
        #expect(Self.titles(screen) == ["Alone new", "Order C", "Chat one", "Other app"])
        #expect(screen.total == 4)
        #expect(screen.listRows[1] == .thread(Self.messages()[1], count: 3, expanded: false))
        // A thread of one is a message like any other.
        #expect(screen.listRows[2] == .message(Self.messages()[2]))
    }

    @Test func enterOpensTheThreadByRelevanceThenNewestAndFoldsItAgain() {
        var (screen, source) = Self.loaded()
        _ = screen.handle(.down, inbox: Inbox(), now: .zero)
        let actions = screen.handle(.enter, inbox: Inbox(), now: .zero)
        // Opening a thread reads nothing and opens no detail view.
        #expect(actions == [.toggleThread(ThreadKey(app: "com.example.shop", thread: "orders"))])
        #expect(screen.needsLoad)
        screen.load(from: source)
        #expect(Self.titles(screen) == ["Alone new", "Order C", "Order B", "Order C", "Order A", "Chat one", "Other app"])
        #expect(screen.total == 7)
        #expect(screen.selected == 1)
        #expect(screen.listRows[2] == .member(Self.messages()[3]))
        // Enter on one of its messages opens that message.
        _ = screen.handle(.down, inbox: Inbox(), now: .zero)
        #expect(screen.actions(for: .enter, inbox: Inbox(), now: .zero).first == .openDetail(id: 3))
        _ = screen.handle(.up, inbox: Inbox(), now: .zero)
        _ = screen.handle(.enter, inbox: Inbox(), now: .zero)
        screen.load(from: source)
        #expect(Self.titles(screen) == ["Alone new", "Order C", "Chat one", "Other app"])
    }

    @Test func tListsEveryMessageOnItsOwnAndAFilterSearchesMessages() {
        var (screen, source) = Self.loaded()
        _ = screen.handle(.char("t"), inbox: Inbox(), now: .zero)
        screen.load(from: source)
        #expect(!screen.grouped)
        #expect(screen.total == 6)
        #expect(Self.titles(screen) == ["Alone new", "Order C", "Chat one", "Order B", "Order A", "Other app"])
        _ = screen.handle(.char("t"), inbox: Inbox(), now: .zero)
        screen.load(from: source)
        #expect(screen.total == 4)
        // A filter lists its matches one by one, grouped or not.
        for key in [Key.char("/"), .char("O"), .char("r"), .char("d")] { _ = screen.handle(key, inbox: Inbox(), now: .zero) }
        screen.load(from: source)
        #expect(Self.titles(screen) == ["Order C", "Order B", "Order A"])
    }

    @Test func aThreadFarDownPagesLikeTheRest() {
        // 40 messages alone, then a thread of 30 at the bottom: expanding it pages through it.
        var messages: [Message] = (0..<40).map { SampleMessages.message(Int64(100 - $0), title: "Alone \($0)") }
        for index in 0..<30 {
            var message = SampleMessages.message(Int64(30 - index), title: "T \(index)")
            message.threadId = "t"
            messages.append(message)
        }
        let source = ArrayMessageSource(messages)
        var screen = Screen(size: Size(width: 80, height: 24))
        screen.load(from: source)
        #expect(screen.total == 41)
        _ = screen.handle(.end, inbox: Inbox(), now: .zero)
        screen.load(from: source)
        #expect(screen.selectedRow == .thread(messages[40], count: 30, expanded: false))
        _ = screen.handle(.enter, inbox: Inbox(), now: .zero)
        screen.load(from: source)
        #expect(screen.total == 71)
        _ = screen.handle(.end, inbox: Inbox(), now: .zero)
        screen.load(from: source)
        #expect(screen.selectedRow == .member(messages[69]))
        #expect(screen.rows.count == screen.listHeight)
        #expect(screen.rows.last?.title == "T 29")
    }

    @Test func theGroupedListOnScreen() {
        var (screen, source) = Self.loaded()
        _ = screen.handle(.down, inbox: Inbox(), now: .zero)
        _ = screen.handle(.enter, inbox: Inbox(), now: .zero)
        screen.load(from: source)
        let grid = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        let problem = GridSnapshot.mismatch(grid, named: "list-threads-80x24", in: GridSnapshot.directory(besides: #filePath))
        #expect(problem == nil, "\(problem ?? "")")
        #expect(grid.rowText(2).contains("▾ 3 Order C"))
        #expect(grid.rowText(3).contains("  Order B"))
        #expect(grid.rowText(23).contains("t threads"))
    }
}
