import PushCore
@testable import PushGateway
import Testing

/// What the request log keeps of each vendor's answer: the reason of a refusal, in the vendor's
/// words, and the ids an accepted push was given — read from the answer's body as sent.
struct AnswerSummaryTests {
    private static func answer(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("content-type", "application/json")], body: Array(body.utf8))
    }

    @Test func apnsGivesItsReason() {
        let routes = APNsRoutes()
        #expect(routes.summarize(answer: Self.answer(400, #"{"reason":"BadDeviceToken"}"#), path: "/3/device/ab").reason == "BadDeviceToken")
        #expect(routes.summarize(answer: Self.answer(400, #"{"reason":"A","reason":"B"}"#), path: "/3/device/ab").reason == "B")
        for body in ["", "not json", #"["reason"]"#, #"{"reason":7}"#] {
            #expect(routes.summarize(answer: Self.answer(500, body), path: "/3/device/ab").reason == "HTTP 500", "\(body)")
        }
    }

    @Test func jpushGivesItsMessageIdOrItsCode() {
        let routes = JPushRoutes()
        let sent = JPushRoutes.success(sendno: "0", msgId: "2305843009213693952")
        #expect(routes.summarize(answer: sent, path: "/v3/push") == AnswerSummary(ids: ["msg_id": "2305843009213693952"]))
        #expect(routes.summarize(answer: Self.answer(200, "{}"), path: "/v3/push") == AnswerSummary())
        let refused = Self.answer(400, #"{"error":{"code":1011,"message":"cannot find user by this audience"},"msg_id":"1"}"#)
        #expect(routes.summarize(answer: refused, path: "/v3/push").reason == "1011")
        #expect(routes.summarize(answer: Self.answer(400, #"{"error":{"code":"1011"}}"#), path: "/v3/push").reason == "HTTP 400")
        #expect(routes.summarize(answer: Self.answer(401, #"{"error":[1004]}"#), path: "/v3/push").reason == "HTTP 401")
    }

    @Test func getuiGivesItsCodeAndMessage() {
        let routes = GetuiRoutes()
        let path = "/v2/app/push/single/cid"
        #expect(routes.summarize(answer: Self.answer(200, #"{"code":0,"msg":"success","data":{}}"#), path: path) == AnswerSummary())
        #expect(routes.summarize(answer: Self.answer(200, #"{"code":10001,"msg":"token expired"}"#), path: path).reason == "10001 token expired")
        #expect(routes.summarize(answer: Self.answer(400, #"{"code":20001}"#), path: path).reason == "20001")
        #expect(routes.summarize(answer: Self.answer(502, "<html>"), path: path).reason == "HTTP 502")
    }

    @Test func fcmGivesItsErrorCodeElseItsStatus() {
        let routes = FCMRoutes()
        let path = "/v1/projects/p/messages:send"
        let unregistered = #"""
            {"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[
              {"@type":"type.googleapis.com/google.rpc.BadRequest"},
              {"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}
            """#
        #expect(routes.summarize(answer: Self.answer(404, unregistered), path: path).reason == "UNREGISTERED")
        #expect(routes.summarize(answer: Self.answer(403, #"{"error":{"code":403,"status":"PERMISSION_DENIED","details":"x"}}"#), path: path).reason == "PERMISSION_DENIED")
        #expect(routes.summarize(answer: Self.answer(500, #"{"error":"internal"}"#), path: path).reason == "HTTP 500")
    }
}
