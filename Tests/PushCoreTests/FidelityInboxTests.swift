import Foundation
import PushCore
import Testing

/// Issue 13 through the reducer on the manual clock: what a device would do with a push.
@Suite("Platform fidelity in the inbox")
struct FidelityInboxTests {
    static let jpushBoth = #"{"platform":"ios","audience":"all","notification":{"ios":{"alert":"note","badge":"+1"}},"message":{"msg_content":"in-app"}}"#

    private func decode(_ text: String, app: String = "com.example.shop") throws -> Push {
        try PushDecoder().decode(PushRequest(payloadText: text, app: app))
    }

    @Test func aJPushBodyWithBothBecomesTwoMessagesAndOneReply() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let effects = s.push(try decode(Self.jpushBoth))
        let inserted = effects.writes.compactMap { if case .insert(let message) = $0 { message } else { nil } }
        #expect(inserted.map(\.channel) == [.apns, .transparent])
        #expect(inserted.map(\.body) == ["note", "in-app"])
        #expect(effects.topics.filter { $0 == .remoteReceived || $0 == .messageReceived } == [.remoteReceived, .messageReceived])
        let reply = try #require(effects.reply)
        #expect(reply["id"] == 1)
        #expect(reply["delivered"] == true)
        #expect(reply["also"] == [["channel": "transparent", "id": 2, "delivered": true]])
        // "+1" moved JPush's server badge to 1 and the icon took it; the in-app message then
        // counted +1 as the seeds' app code does (policy `app`).
        #expect(reply["badge"] == 2)
        #expect(s.inbox.unread["com.example.shop"] == 2)
    }

    @Test func whileTerminatedTheNotificationIsDeliveredAndTheMessageHeld() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .terminated)))
        let reply = try #require(s.push(try decode(Self.jpushBoth)).reply)
        #expect(reply["delivered"] == true)
        #expect(reply["also"] == [["channel": "transparent", "id": 2, "delivered": false, "held": true]])
        #expect(s.inbox.held.map(\.body) == ["in-app"])
        // Released in the foreground, the held message counts +1 (its own part, not the "+1").
        s.setState(.foreground)
        #expect(s.inbox.badge(of: "com.example.shop").icon == 2)
    }
}
