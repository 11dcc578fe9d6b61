import Foundation
import PushCore
import PushScenario
import Testing
import TestSupport

/// A push step `via` the APNs or JPush gateway is decided by the gateway's own routes;
/// a refusal is the step's reply (`delivered: false`, the vendor's reason), an acceptance a push.
@Suite struct InstantGatewayTests {
    private func play(_ steps: String) throws -> PlayResult {
        var player = InstantPlayer()
        let text = #"{"name":"gateway","steps":["# + steps + "]}"
        return player.play(try ScenarioLoader.parse(Array(text.utf8), file: "gateway.json"))
    }

    private static let token = SampleCredentials.apnsDeviceToken

    private static func apns(_ alert: String, headers: String, token: String = token) -> String {
        #"{"app":"com.example.shop","push":{"payload":{"aps":{"alert":""# + alert + #"","badge":1}},"via":"apns","token":""#
            + token + #"","headers":"# + headers + "}}"
    }

    @Test func anAPNsPushIsDeliveredAndItsCollapseIdReplacesTheEarlierOne() throws {
        let headers = #"{"apns-topic":"com.example.shop","apns-push-type":"alert","apns-collapse-id":"order-7"}"#
        let result = try play("""
            {"app":"com.example.shop","state":"background"},
            \(Self.apns("packed", headers: headers)),
            {"app":"com.example.shop","expect":{"delivered":true,"unread":1,"badge":1}},
            {"at":10,"app":"com.example.shop","push":{"payload":{"aps":{"alert":"other"}},"via":"apns","token":"\(Self.token)"}},
            \(Self.apns("shipped", headers: headers)),
            {"app":"com.example.shop","expect":{"delivered":true,"unread":2,"badge":1}}
            """)
        #expect(result.expects.count == 2)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test(arguments: [
        (apns("x", headers: #"{"apns-topic":"com.example.shop"}"#, token: "not-hex"), "BadDeviceToken"),
        (apns("x", headers: #"{"apns-collapse-id":"\#(String(repeating: "c", count: 65))"}"#), "BadCollapseId"),
        (apns("x", headers: #"{"apns-push-type":"pager"}"#), "InvalidPushType"),
        (apns("x", headers: #"{"authorization":"bearer abc.def"}"#), "InvalidProviderToken"),
        (apns("x", headers: #"{"apns-topic":"com.example.shop","APNS-TOPIC":"com.example.shop"}"#), "DuplicateHeaders"),
        (#"{"app":"shopkey","push":{"payload":{"platform":["android"],"audience":"all","notification":{"android":{"alert":"x"}}},"via":"jpush"}}"#, "1011"),
        (#"{"app":"shopkey","push":{"payload":{"platform":["ios"],"audience":"all"},"via":"jpush","headers":{"authorization":"Bearer x"}}}"#, "1004"),
        (#"{"app":"shop-project","push":{"payload":{"data":{"k":"v"}},"via":"fcm"}}"#, "INVALID_ARGUMENT"),
        (#"{"app":"shop-project","push":{"payload":{"token":"cK9x:APA91b-s","data":{"k":"v"}},"via":"fcm","headers":{"authorization":"Basic x"}}}"#, "UNAUTHENTICATED"),
    ])
    func aRefusedPushIsNotDeliveredAndSaysTheVendorsReason(_ push: String, _ reason: String) throws {
        let app = push.contains("shopkey") ? "shopkey" : "com.example.shop"
        let result = try play("""
            \(push),
            {"app":"\(app)","expect":{"delivered":false,"reason":"\(reason)","unread":0,"badge":0}}
            """)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test func aScenarioNeedNotSignAProviderTokenNorNameTheTopic() throws {
        let result = try play("""
            {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"hi"}},"via":"apns","token":"\(Self.token)"}},
            {"app":"com.example.shop","expect":{"delivered":true,"unread":1}}
            """)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test func aJPushBodyWithANotificationAndAMessageDeliversTwoMessages() throws {
        let result = try play("""
            {"app":"shopkey","state":"background"},
            {"app":"shopkey","push":{"via":"jpush","payload":{"platform":["ios"],"audience":{"registration_id":["1a0018970a"]},"notification":{"ios":{"alert":"hello","badge":"+1"}},"message":{"msg_content":"data"}}}},
            {"app":"shopkey","expect":{"delivered":true,"unread":2}},
            {"app":"other","expect":{"unread":0}}
            """)
        #expect(result.expects.count == 2)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    /// A push step `via: fcm`: the payload a v1 message, the step's app its project; an Android
    /// notification message in the background is shown, a data message reaches the app.
    @Test func anFCMMessageIsPlayedThroughTheGatewaysRoutes() throws {
        let result = try play("""
            {"app":"shop-project","state":"background"},
            {"app":"shop-project","push":{"via":"fcm","token":"cK9x:APA91b-scenario","payload":{"notification":{"title":"Order shipped","body":"On its way"}}}},
            {"app":"shop-project","expect":{"delivered":true,"unread":1,"banner":"Order shipped"}},
            {"app":"shop-project","push":{"via":"fcm","payload":{"token":"cK9x:APA91b-scenario","data":{"sync":"1"}}}},
            {"app":"shop-project","expect":{"delivered":true,"unread":1}}
            """)
        #expect(result.expects.count == 2)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    /// A push step `via: getui`: a token from `/auth` of the step's app as the appId first, then
    /// the push API v2 body; a notification is listed, a transmission held while terminated, and
    /// a token the step gives that Getui did not issue is its 10001.
    @Test func aGetuiPushIsPlayedAfterItsAuthExchange() throws {
        let result = try play("""
            {"app":"com.example.shop","state":"background"},
            {"app":"com.example.shop","push":{"via":"getui","token":"9c1f5e4d3b2a1908f7e6d5c4b3a29180","payload":{"push_message":{"notification":{"title":"订单通知","body":"已发货","click_type":"none"}}}}},
            {"app":"com.example.shop","expect":{"delivered":true,"unread":1}},
            {"state":"terminated"},
            {"app":"com.example.shop","push":{"via":"getui","payload":{"request_id":"pushdeck-trans-0001","audience":{"cid":["9c1f5e4d3b2a1908f7e6d5c4b3a29180"]},"push_message":{"transmission":"sync"}}}},
            {"app":"com.example.shop","expect":{"delivered":false,"reason":"held","held":1}},
            {"app":"com.example.shop","push":{"via":"getui","token":"9c1f5e4d3b2a1908f7e6d5c4b3a29180","headers":{"token":"not-issued"},"payload":{"push_message":{"transmission":"x"}}}},
            {"app":"com.example.shop","expect":{"delivered":false,"reason":"10001","held":1}}
            """)
        #expect(result.expects.count == 3)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test func expectsJudgeTheGatewaysRequestLogAsExpectDoes() throws {
        let headers = #"{"apns-topic":"com.example.shop","apns-id":"123e4567-e89b-12d3-a456-426614174000"}"#
        // A refusal (not a device token), the same notification sent again a second later.
        let result = try play("""
            \(Self.apns("x", headers: headers, token: "not-hex")),
            {"at":1,"app":"com.example.shop","push":{"payload":{"aps":{"alert":"x","badge":1}},"via":"apns","token":"\(Self.token)","headers":\(headers)}},
            {"expect":{"requests":{"count":2,"vendor":"apns"},"retried":{"afterStatus":400,"minWait":1}}},
            {"expect":{"retried":{"minWait":1.5}}},
            {"expect":{"requests":3,"stopped":"\(Self.token)"}}
            """)
        #expect(result.expects.count == 3)
        #expect(result.expects[0].passed, "\(result.failureLines.joined(separator: "\n"))")
        let early = try #require(result.expects[1].mismatches.first)
        #expect(early.field == "retried")
        #expect(early.got.contains("waited 1000 ms, 500 ms sooner than the 1500 ms it had to wait"), "\(early.got)")
        #expect(result.expects[2].mismatches.map(\.field) == ["requests", "stopped"])
        #expect(result.expects[2].mismatches.first?.got == "saw 2 of 2 requests")
    }
}
