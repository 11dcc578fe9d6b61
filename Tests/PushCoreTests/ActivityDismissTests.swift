import Foundation
import PushCore
import PushJSON
import Testing

/// The user's dismissal of a Live Activity (`x` on its card, the socket's
/// `{"op":"activity","action":"dismiss","id":…}`): it ends and leaves the screen at once, its push
/// token goes with it; an unknown or already gone id changes nothing.
@Suite struct ActivityDismissTests {
    static let app = "com.example.food"
    static let startToken = String(repeating: "5a", count: 32)
    static let t0 = Date(timeIntervalSince1970: 1_764_547_200)

    func started() -> Inbox {
        var inbox = Inbox()
        inbox.devices[Self.startToken] = Device(token: Self.startToken, app: Self.app, kind: .pushToStart)
        let aps: JSON = [
            "timestamp": .int(1_764_547_200), "event": "start", "attributes-type": "DeliveryAttributes",
            "attributes": ["order": "A-17"], "content-state": ["status": "preparing"], "input-push-token": 1,
        ]
        let request = PushRequest(
            payloadText: JSON.object(["aps": aps]).compactText, app: Self.app, channel: .apns, pushType: "liveactivity",
            via: .apns, token: Self.startToken, headers: ["apns-push-type": "liveactivity"])
        _ = Engine.handle(.push(request), inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: Self.t0)
        return inbox
    }

    func dismiss(_ id: String, at: Date, _ inbox: inout Inbox) -> Engine.Handled {
        Engine.handle(.activity(.dismiss(id: id)), inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: at)
    }

    @Test func aDismissalEndsTheActivityAndTakesItOffTheScreenAtOnce() throws {
        var inbox = started()
        let at = Self.t0.addingTimeInterval(90)
        let handled = dismiss("activity-1", at: at, &inbox)
        #expect(handled.reply == .ok)
        let activity = try #require(inbox.activities.byId["activity-1"])
        #expect(activity.state(at: at) == .dismissed && activity.dismissedByUser)
        #expect(activity.endedAt == at && activity.dismissalDate == at)
        // Kept and told: one store write, one activity.changed event.
        #expect(handled.effects.contains(.store(.activity(ActivityWrite(activity, adding: false)))))
        #expect(handled.effects.contains { if case .publish(let event) = $0 { event.topic == .activityChanged } else { false } })
        // The list and the store keep that the user did it.
        #expect(activity.wireJSON(at: at).objectValue?["dismissedByUser"] == .bool(true))
        #expect(Activity(stored: activity.wireJSON(at: nil)) == activity)
    }

    @Test func anUnknownIdOrOneAlreadyGoneIsRefusedAndChangesNothing() throws {
        var inbox = started()
        let before = inbox
        let unknown = dismiss("activity-9", at: Self.t0, &inbox)
        #expect(unknown.reply.errorMessage?.contains("no activity activity-9") == true && unknown.effects.isEmpty)
        #expect(inbox == before)
        _ = dismiss("activity-1", at: Self.t0.addingTimeInterval(1), &inbox)
        let dismissed = inbox
        let again = dismiss("activity-1", at: Self.t0.addingTimeInterval(2), &inbox)
        #expect(again.reply.errorMessage?.contains("already left the screen") == true && again.effects.isEmpty)
        #expect(inbox == dismissed)
    }

    @Test func theDismissRequestReadsBackAsWrittenAndWantsAnId() throws {
        let request = Request.activity(.dismiss(id: "activity-2"))
        #expect(try Request.decode(frame: request.encode()) == request)
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"activity","action":"dismiss"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"activity","action":"dismiss","id":""}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"activity","action":"dismiss","id":"a","app":"x"}"#.utf8)) }
    }
}
