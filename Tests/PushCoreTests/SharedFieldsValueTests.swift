import Foundation
import PushCore
import Testing

/// A push request and a request record keep their fields in a box their copies share. Each is
/// still a value: a copy changed leaves the original as it was, and equal fields are equal
/// whether or not they share a box.
@Suite struct SharedFieldsValueTests {
    @Test func aCopyOfAPushRequestChangedLeavesTheOriginal() {
        let original = PushRequest(
            payloadText: #"{"aps":{"alert":"hi"}}"#, app: "com.example.shop", headers: ["apns-topic": "com.example.shop"])
        var copy = original
        copy.app = "com.example.news"
        copy.headers["apns-priority"] = "5"
        #expect(original.app == "com.example.shop")
        #expect(original.headers == ["apns-topic": "com.example.shop"])
        #expect(copy != original)
        copy.app = "com.example.shop"
        copy.headers["apns-priority"] = nil
        #expect(copy == original)
    }

    @Test func aHeaderSetOnARequestIsSetOnItsDecodedPushAndNowhereElse() throws {
        var request = PushRequest(payloadText: #"{"aps":{"alert":"hi"}}"#, via: .apns, headers: ["apns-topic": "t"])
        request.decoded = try PushDecoder().decode(request)
        let before = request
        request.setHeader("apns-id", "8E2B6F1A-0C3D-4E5F-9A7B-1C2D3E4F5A6B")
        #expect(request.headers == ["apns-topic": "t", "apns-id": "8E2B6F1A-0C3D-4E5F-9A7B-1C2D3E4F5A6B"])
        #expect(request.decoded?.headers == request.headers)
        #expect(before.headers == ["apns-topic": "t"])
        #expect(before.decoded?.headers == ["apns-topic": "t"])
    }

    @Test func aCopyOfARequestRecordChangedLeavesTheOriginal() {
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let original = ProviderRequestRecord(
            receivedAt: at, answeredAt: at, vendor: .apns, method: "POST", path: "/3/device/ab", tokens: ["ab"], app: "a", status: 0)
        var answered = original
        answered.status = 200
        answered.path = "/3/device/cd"
        answered.tokens.append("cd")
        #expect(original.status == 0)
        #expect(original.path == "/3/device/ab")
        #expect(original.tokens == ["ab"])
        #expect(answered.path == "/3/device/cd")
        #expect(answered.tokens == ["ab", "cd"])
        #expect(answered != original)
        let rebuilt = ProviderRequestRecord(
            receivedAt: at, answeredAt: at, vendor: .apns, method: "POST", path: "/3/device/cd", tokens: ["ab", "cd"], app: "a",
            status: 200)
        #expect(rebuilt == answered)
    }
}
