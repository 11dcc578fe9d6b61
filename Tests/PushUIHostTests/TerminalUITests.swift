import Foundation
import PushCore
import PushJSON
import PushStore
import PushTUI
import Testing
import TestSupport
@testable import PushUIHost

/// The UI host's rules — when the screen reloads from the store, when it redraws, what a key
/// sends, when the loop stops — run in the real loop on a recording terminal and a real SQLite
/// file. (The tmux tests run the same host on curses in a real terminal.)
@Suite struct TerminalUITests {
    static let seed = [SampleMessages.message(1, title: "Old one"), SampleMessages.message(2, title: "Newer")]

    func push(_ title: String, thread: String? = nil) -> Request {
        let thread = thread.map { #","thread-id":"\#($0)""# } ?? ""
        return .push(PushRequest(payloadText: #"{"aps":{"alert":{"title":"\#(title)","body":"b"}\#(thread)}}"#))
    }

    func rows(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

    // MARK: - Reloading from the store

    @Test func theFirstFrameShowsTheStoredInboxAndAScriptsPushShowsOnTheNext() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.request(push("Hello there"))])
        #expect(session.replies.first?["ok"] == true)
        let first = rows(session.screens[0])
        #expect(first[0].contains("● 2 unread"))
        #expect(first[1].contains("Newer") && first[2].contains("Old one"))
        #expect(!session.screens[0].contains("Hello there"))
        let next = rows(session.screens[1])
        #expect(next[0].contains("● 3 unread"))
        #expect(next[1].contains("Hello there"))
        #expect(next[23].hasSuffix("1/3"))
    }

    @Test func anUnchangedScreenIsNotDrawnAgain() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.keys([]), .keys([]), .keys([.up])])
        #expect(session.terminal.frames.count == 1)
        #expect(Set(session.screens).count == 1)
    }

    @Test func aGrownThreadAndADeleteInItAreShown() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([
            .request(push("One", thread: "t1")), .request(push("Two", thread: "t1")), .keys([.enter]),
            .request(.delete([4])),
        ])
        // New messages are added to the thread counts as they arrive…
        #expect(rows(session.screens[1])[1].hasSuffix("APNs  One — b"))
        #expect(rows(session.screens[2])[1].hasSuffix("APNs  ▸ 2 Two — b"))
        // …Enter expands the thread's row…
        let expanded = rows(session.screens[3])
        #expect(expanded[1].hasSuffix("▾ 2 Two — b"))
        #expect(expanded[2].hasSuffix("    Two — b") && expanded[3].hasSuffix("    One — b"))
        // …and a delete builds them again: a thread of one is a plain row.
        let after = rows(session.screens[4])
        #expect(after[1].hasSuffix("APNs  One — b"))
        #expect(after[2].contains("Newer"))
    }

    // MARK: - Keys are requests

    @Test func readAndDeleteKeysChangeTheStoreAsAScriptWould() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.keys([.char("r")]), .keys([.down, .char("d")])])
        #expect(rows(session.screens[1])[0].contains("● 1 unread"))
        #expect(rows(session.screens[2])[1].contains("Newer"))
        #expect(!session.screens[2].contains("Old one"))
        let store = try session.store()
        defer { store.close() }
        #expect(try store.message(id: 2)?.read == true)
        #expect(try store.message(id: 1) == nil)
    }

    @Test func enterOpensTheMessageAndReadsIt() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.keys([.down, .enter])])
        let detail = rows(session.screens[1])
        #expect(detail[1] == " Message #1")
        #expect(detail.contains { $0.hasPrefix(" read       yes") })
        let store = try session.store()
        defer { store.close() }
        #expect(try store.message(id: 1)?.read == true)
        #expect(try store.message(id: 2)?.read == false)
    }

    @Test func pushOffKeyDropsTheNextPush() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.keys([.char("m")]), .request(push("Dropped"))])
        #expect(rows(session.screens[1])[0].contains("PUSH [OFF]"))
        #expect(session.replies.first?["delivered"] == false)
        #expect(!session.screens[2].contains("Dropped"))
    }

    // MARK: - The filter

    /// 95 messages: every third titled "Order …", every fifth with "order" only in its body.
    static let orders: [Message] = (1...95).map { (id: Int) -> Message in
        let title = id % 3 == 0 ? "Order \(id) shipped" : "News \(id)"
        let body = id % 5 == 0 ? "your ORDER is late" : "訂單 \(id)"
        return SampleMessages.message(Int64(id), title: title, body: body)
    }
    static let orderMatches = (1...95).filter { $0 % 3 == 0 || $0 % 5 == 0 }.count

    @Test func aFilterSearchesARangeATurnWithoutSleepingAndKeepsUpWithPushes() throws {
        let session = try HostSession(seed: Self.orders)
        let idle = [HostSession.Step](repeating: .keys([]), count: 12)
        try session.run([.type("/order"), .request(push("Order 96 new"))] + idle, searchRange: 10)
        // Typed: the newest range is searched at once, the older ones a range a turn, and the
        // loop does not sleep meanwhile.
        #expect(session.sleepless[0] == false)
        #expect(session.sleepless[1] == true)
        #expect(rows(session.screens[1])[23].contains("searching…"))
        let done = try #require(session.sleepless.indices.first { $0 > 1 && !session.sleepless[$0] })
        #expect(done == 10)
        #expect(session.sleepless[done...].allSatisfy { !$0 })
        // The new push was searched alone and goes first; the count is the full scan's.
        let last = rows(session.screens[done])
        #expect(!last[23].contains("searching"))
        #expect(last[23].hasSuffix("1/\(Self.orderMatches + 1)"), "\(last[23])")
        #expect(last[1].contains("Order 96 new"))
        #expect(last[2].hasSuffix("News 95 — your ORDER is late"))
        #expect(last[3].hasSuffix("Order 93 shipped — 訂單 93"))
    }

    // MARK: - Terminal, clock and status line

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.resize(Size(width: 50, height: 12))])
        #expect(session.terminal.frames.first?.size == Size(width: 80, height: 24))
        #expect(session.terminal.frames.last?.size == Size(width: 50, height: 12))
        let shown = rows(session.screens[1])
        #expect(shown.count == 12)
        #expect(shown[11].hasSuffix("1/2"))
    }

    @Test func theBannerComesAndGoesWithTheClock() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.request(push("Hello")), .wait(seconds: 0.25), .wait(seconds: 5), .wait(seconds: 0.25)])
        #expect(rows(session.screens[1])[0].contains("pushdeck"), "the banner starts sliding in")
        let shown = rows(session.screens[2])
        #expect(shown[0].hasPrefix("╭─ ■ com.example.shop · Hello") || shown[0].hasPrefix("╭─ ■ default · Hello"))
        #expect(rows(session.screens[3])[0].hasPrefix("╭─"), "leaving from the top down")
        #expect(rows(session.screens[4])[0].contains("pushdeck"))
    }

    // MARK: - Live Activity cards, kept between frames

    /// The host works the cards out again only when the store changes or the clock passes a
    /// change of state: a stale date passing with nothing written, a dismissal, an update by a
    /// script each show on the next frame.
    @Test func theCardsFollowTheClockAndThePushesTheyAreKeptBetween() throws {
        let session = try HostSession(seed: Self.seed)
        let wall = session.clock.wallNow
        let token = String(repeating: "ac", count: 32)
        var delivery = Activity(
            id: "activity-1", app: "com.example.food", attributesType: "DeliveryAttributes", attributes: ["order": "A-17"],
            contentState: ["status": "preparing"], pushToken: token, startedAt: wall.addingTimeInterval(-60))
        delivery.staleDate = wall.addingTimeInterval(1.5)
        delivery.timestamp = Int64(wall.timeIntervalSince1970) - 60
        var ride = Activity(id: "activity-2", app: "com.example.ride", attributesType: "RideAttributes",
                            contentState: ["driver": "Ana"], startedAt: wall.addingTimeInterval(-60))
        ride.endedAt = wall.addingTimeInterval(-30)
        ride.dismissalDate = wall.addingTimeInterval(2.5)
        let store = try session.store()
        try store.write([.device(Device(token: token, app: "com.example.food", kind: .activity)), .activity(ActivityWrite(delivery)), .activity(ActivityWrite(ride))])
        store.close()
        let update = #"{"aps":{"timestamp":\#(Int(wall.timeIntervalSince1970) + 10),"event":"update","content-state":{"status":"on the way"}}}"#
        try session.run([
            .keys([]), .wait(seconds: 2), .wait(seconds: 1),
            .request(.push(PushRequest(payloadText: update, app: "com.example.food", channel: .apns, pushType: "liveactivity",
                                       via: .apns, token: token, headers: ["apns-push-type": "liveactivity"]))),
        ])
        let first = session.screens[0]
        #expect(first.contains("com.example.food · order: A-17") && first.contains("status: preparing"))
        #expect(first.contains("com.example.ride") && first.contains("ended · leaves in 3s"))
        #expect(!first.contains(" stale "))
        #expect(session.screens[1] == first, "nothing changed, nothing worked out again")
        // Past the stale date, nothing written: the card says so.
        #expect(session.screens[2].contains(" stale ") && session.screens[2].contains("ended · leaves in 1s"))
        // Past the ride's dismissal: its card is gone.
        #expect(!session.screens[3].contains("com.example.ride") && session.screens[3].contains("com.example.food"))
        // An update by a script: the new content-state, fresh again.
        let last = session.screens[4]
        #expect(last.contains("status: on the way") && !last.contains("preparing") && !last.contains(" stale "))
    }

    @Test func aServerLogLineShowsOnTheStatusLineUntilTheNextKey() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.log("store: disk full"), .keys([.down])])
        #expect(rows(session.screens[1])[23].hasPrefix(" store: disk full"))
        #expect(!session.screens[2].contains("disk full"))
    }

    @Test func qStopsTheLoopAndNothingAfterIsRead() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([.type("q"), .request(push("Never"))])
        #expect(session.stepsTaken == 1)
        let store = try session.store()
        defer { store.close() }
        #expect(try store.count(filter: "") == 2)
    }

    @Test func aTerminalThatHangsUpEndsTheLoop() throws {
        let session = try HostSession(seed: Self.seed)
        try session.run([])
        #expect(session.stepsTaken == 0)
        #expect(session.terminal.frames.count == 1)
    }
}
