import Foundation
import PushCore
import Testing
import TestSupport

/// The held queue's cost (no scan of it per message) and the decoder held messages are decoded
/// with (the server's own, not a default one).
@Suite struct HeldQueueTests {
    static func heldMessage(_ id: Int64) -> Message {
        Message(id: id, app: "com.example.news", channel: .transparent, body: "held \(id)", held: true,
                receivedAt: Date(timeIntervalSince1970: 1_700_000_000), payload: #"{"payload":"held \#(id)"}"#)
    }

    /// Reading and deleting 10 000 delivered messages with 60 000 held: each message's "is it
    /// held?" is a set lookup, not a scan of the queue. Before, this was 6·10⁸ comparisons
    /// (over a minute in a debug build); the bound is generous so a loaded machine cannot fail it.
    @Test func readingAndDeletingDoNotScanTheHeldQueue() {
        let held = (1...60_000).map { Self.heldMessage(Int64($0)) }
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated), nextId: 70_001, held: held))
        let delivered = (60_001...70_000).map { id in
            Message(id: Int64(id), app: "com.example.shop", channel: .apns, body: "m",
                    receivedAt: Date(timeIntervalSince1970: 1_700_000_000), payload: "{}")
        }
        let started = Date()
        s.send(.read(delivered))
        s.send(.delete(delivered))
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 5, "read + delete of 10 000 ids with 60 000 held took \(elapsed) s")
        #expect(s.inbox.held.count == 60_000)
    }

    @Test func theHeldIndexFollowsHoldReleaseAndDelete() {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        for index in 1...5 { s.push(.passThrough(msgId: "M\(index)")) }
        #expect(s.inbox.held.map(\.id) == [1, 2, 3, 4, 5])
        #expect(s.inbox.heldIds == [1, 2, 3, 4, 5])
        // Deleting held messages, one of them twice, and an id that is not held.
        var notHeld = s.inbox.held[1]
        notHeld.held = false  // as a caller might pass it: the index still knows it is held
        s.send(.delete([s.inbox.held[3], notHeld, notHeld]))
        #expect(s.inbox.held.map(\.id) == [1, 3, 5])
        #expect(s.inbox.heldIds == [1, 3, 5])
        #expect(s.inbox.totalBadge == 0)
        s.setState(.foreground)
        #expect(s.inbox.held.isEmpty)
        #expect(s.inbox.heldIds.isEmpty)
        #expect(s.inbox.totalUnread == 3)
    }

    /// `--max-payload 8192`: a held 5 000-byte Getui message with `autoBadge: "7"` sets the badge
    /// to 7 when delivered. It was decoded again with the default 4 096-byte decoder, refused,
    /// and counted as +1.
    @Test func heldMessagesAreDecodedAgainWithTheServersDecoder() throws {
        let payload = PayloadBuilder.getui(
            payload: .string(String(repeating: "x", count: 4_900)), appId: "com.example.news", autoBadge: "7")
        #expect(payload.utf8.count > 4_096 && payload.utf8.count < 8_192)
        let decoder = PushDecoder(maxPayloadBytes: 8_192)
        let push = try decoder.decode(PushRequest(payloadText: payload))
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated), decoder: decoder))
        s.push(push)
        #expect(s.inbox.held.count == 1)
        s.setState(.foreground)
        #expect(s.inbox.badge(of: "com.example.news").icon == 7)
    }
}
