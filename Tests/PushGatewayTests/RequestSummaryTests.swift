import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport

/// What the request log takes from a provider request: the tokens as the request named them and
/// the key that tells a resend of the same notification.
@Suite struct RequestSummaryTests {
    /// The path's token as sent — capitals kept, the query left out — whether or not the request
    /// became a push (whose token the summary reuses when its digits are the path's), with the
    /// key `token:TOKEN:DIGEST` of the payload's bytes.
    @Test(arguments: [
        ("/3/device/\(deviceToken)", deviceToken),
        ("/3/device/\(deviceToken.uppercased())", deviceToken.uppercased()),
        ("/3/device/\(deviceToken)?x=1", deviceToken),
        ("/3/device/\(deviceToken)0", deviceToken + "0"),
        ("/3/device/\(deviceToken.dropLast())", String(deviceToken.dropLast())),
    ])
    func anAPNsRequestIsLoggedUnderItsPathsToken(path: String, token: String) {
        let body = #"{"aps":{"alert":"Hi"}}"#
        let request = apnsRequest(path: path, body: body)
        let routes = APNsRoutes()
        let decided = routes.decide(request, context: GatewayContext(inbox: Inbox(), now: now))
        let key = "token:\(token):\(RequestSummary.digest(Array(body.utf8)))"
        for decision in [decided, nil] {
            let summary = routes.summarize(request, decision: decision)
            #expect(summary.tokens == [token], "\(path)")
            #expect(summary.notificationKey == key, "\(path)")
            #expect(summary.app == "com.example.shop")
        }
    }

    /// The request's own apns-id keys it instead, lower-cased.
    @Test func anAPNsRequestWithAnIdIsKeyedByIt() {
        let request = apnsRequest(headers: adding(HTTPHeader("apns-id", "123E4567-E89B-12D3-A456-426614174000")))
        let summary = APNsRoutes().summarize(request, decision: nil)
        #expect(summary.notificationKey == "apns-id:123e4567-e89b-12d3-a456-426614174000")
        #expect(summary.ids == ["apns-id": "123E4567-E89B-12D3-A456-426614174000"])
    }

    /// A JPush push without `options.sendno` is keyed by its body; an FCM send by its target and
    /// body.
    @Test func jpushAndFCMAreKeyedByTheirBodysDigest() {
        let jpushBody = #"{"platform":"all","audience":"all","notification":{"alert":"hi"}}"#
        let jpush = JPushRoutes().summarize(jpushRequest(body: jpushBody), decision: nil)
        #expect(jpush.notificationKey == "body:\(RequestSummary.digest(Array(jpushBody.utf8)))")

        let fcmBody = #"{"message":{"token":"bench:APA91b-token","notification":{"title":"Hi"}}}"#
        let fcm = FCMRoutes().summarize(fcmRequest(FCMSendRoutesTests.send, body: fcmBody), decision: nil)
        #expect(fcm.notificationKey == "token:bench:APA91b-token:\(RequestSummary.digest(Array(fcmBody.utf8)))")
        #expect(fcm.tokens == ["bench:APA91b-token"])
    }

    @Test func partsAreJoinedByColons() {
        #expect(RequestSummary.colonJoined("token", "ab", "0123") == "token:ab:0123")
        #expect(RequestSummary.colonJoined("body", "0123") == "body:0123")
        #expect(RequestSummary.colonJoined("", "") == ":")
        #expect(RequestSummary.colonJoined("訂單", "é", "") == "訂單:é:")
    }
}
