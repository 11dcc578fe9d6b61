import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport

/// The APNs route's checks of a `liveactivity` push: its topic, the kind of token it goes to, a
/// payload APNs does not read; and the `apns-unique-id` of an accepted push.
@Suite struct LiveActivityRoutesTests {
    static let liveTopic = "com.example.shop.push-type.liveactivity"

    func request(topic: String = liveTopic, type: String = "liveactivity", token: String = deviceToken,
                 body: String = #"{"aps":{"event":"update","content-state":"anything"}}"#) -> HTTPRequest {
        apnsRequest(
            path: "/3/device/\(token)",
            headers: [HTTPHeader("apns-topic", topic), HTTPHeader("authorization", unsignedToken), HTTPHeader("apns-push-type", type)],
            body: body)
    }

    func inbox(_ kind: DeviceKind) -> Inbox {
        var inbox = Inbox()
        inbox.devices[deviceToken] = Device(token: deviceToken, app: "com.example.shop", kind: kind)
        return inbox
    }

    @Test func aLiveActivityPushGoesToTheBundlesLiveActivityTopicAsAnActivityPush() throws {
        // What is inside aps is the device's to judge: a content-state that is no object passes.
        guard case .request(.push(let push), let answer) = APNsRoutes().decide(request(), context: GatewayContext(inbox: inbox(.activity), now: now))
        else { Issue.record("refused: \(reasonAndStatus(APNsRoutes().decide(request(), context: GatewayContext(inbox: inbox(.activity), now: now))))"); return }
        #expect(push.app == "com.example.shop" && push.pushType == "liveactivity" && push.token == deviceToken)
        let ok = answer(.activityPush(ActivityPushReply(activity: "activity-1", accepted: false, why: "no timestamp")))
        #expect(ok.status == 200)
        let unique = try #require(ok.headers.first { $0.name == "apns-unique-id" }?.value)
        #expect(UUID(uuidString: unique) != nil)
    }

    @Test func theWrongTopicOrTheWrongKindOfTokenIsRefusedAsAPNsRefusesIt() {
        let cases: [(String, HTTPRequest, Inbox, String)] = [
            ("liveactivity on the bare topic", request(topic: "com.example.shop"), Inbox(), "TopicDisallowed"),
            ("alert on the liveactivity topic", request(type: "alert"), Inbox(), "InvalidPushType"),
            ("activity token on the bare topic", request(topic: "com.example.shop", type: "alert", body: #"{"aps":{"alert":"x"}}"#),
             inbox(.activity), "DeviceTokenNotForTopic"),
            ("push-to-start token, alert", request(topic: "com.example.shop", type: "alert", body: #"{"aps":{"alert":"x"}}"#),
             inbox(.pushToStart), "DeviceTokenNotForTopic"),
            ("app token, liveactivity", request(), inbox(.app), "DeviceTokenNotForTopic"),
            ("payload not an object", request(body: "[1]"), inbox(.activity), "BadPayload"),
        ]
        for (name, request, inbox, reason) in cases {
            let answer = reasonAndStatus(APNsRoutes().decide(request, context: GatewayContext(inbox: inbox, now: now)))
            #expect(answer.status == 400 && answer.reason == reason, "\(name): \(answer)")
        }
        let strict = reasonAndStatus(APNsRoutes(devices: .strict).decide(request(), context: GatewayContext(inbox: Inbox(), now: now)))
        #expect(strict.reason == "BadDeviceToken")
    }
}
