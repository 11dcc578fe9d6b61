import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport

/// `prepare` takes ahead, from the request alone, what deciding and logging a request computes
/// (the gateway does it while the server commits). A prepared request must be decided and
/// summarized exactly as the same request unprepared: refused with the same status and reason,
/// or handed to the inbox as the same push, keyed in the log by the same notification key.
@Suite struct PreparedRequestTests {
    static let accepted: [(String, HTTPRequest)] = [
        ("an alert", apnsRequest()),
        ("an apns-id", apnsRequest(headers: adding(HTTPHeader("apns-id", "123e4567-e89b-12d3-a456-426614174000")))),
        ("a token in capitals", apnsRequest(path: "/3/device/\(deviceToken.uppercased())")),
        ("a query", apnsRequest(path: "/3/device/\(deviceToken)?x=1")),
        ("collapse id, priority 5, expiration",
         apnsRequest(headers: adding(HTTPHeader("apns-collapse-id", "orders"), HTTPHeader("apns-priority", "5"),
                                     HTTPHeader("apns-expiration", "0")))),
        ("background", apnsRequest(headers: adding(HTTPHeader("apns-push-type", "background"), HTTPHeader("apns-priority", "5")),
                                   body: #"{"aps":{"content-available":1}}"#)),
        ("VoIP at 5 KB", apnsRequest(headers: replacing("apns-topic", with: "com.example.shop.voip") + [HTTPHeader("apns-push-type", "voip")],
                                     body: #"{"aps":{},"pad":"\#(String(repeating: "v", count: 4900))"}"#)),
        ("a Live Activity", apnsRequest(
            headers: replacing("apns-topic", with: "com.example.shop.push-type.liveactivity") + [HTTPHeader("apns-push-type", "liveactivity")],
            body: #"{"aps":{"event":"update","content-state":{"n":1},"timestamp":1700000000}}"#)),
        ("Chinese text and a badge", apnsRequest(body: #"{"aps":{"alert":{"title":"訂單","body":"已發貨"},"badge":3},"orderId":"7"}"#)),
    ]

    static var cases: [(String, HTTPRequest)] {
        accepted + APNsRoutesTests.refusals.map { ($0.0, $0.1) } + [
            ("a Live Activity that is no object", apnsRequest(
                headers: replacing("apns-topic", with: "com.example.shop.push-type.liveactivity") + [HTTPHeader("apns-push-type", "liveactivity")],
                body: "[1]")),
            ("a channel path", apnsRequest(path: "/1/apps/com.example.shop/channels", body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)),
        ]
    }

    /// A device of another app, and one unregistered: refusals that depend on the inbox.
    static let inboxes: [Inbox] = {
        var other = Inbox()
        other.devices[deviceToken] = Device(token: deviceToken, app: "com.example.other")
        var gone = Inbox()
        gone.devices[deviceToken] = Device(token: deviceToken, app: "com.example.shop", unregisteredAt: Date(timeIntervalSince1970: 1_700_000_000))
        return [Inbox(), other, gone]
    }()

    @Test(arguments: cases) func aPreparedRequestIsDecidedAndLoggedAsTheSameRequestUnprepared(name: String, request: HTTPRequest) {
        var prepared = request
        ProviderRoutes(devices: .open).prepare(&prepared)
        for inbox in Self.inboxes {
            let context = GatewayContext(inbox: inbox, now: now)
            let plain = APNsRoutes().decide(request, context: context)
            let ahead = APNsRoutes().decide(prepared, context: context)
            switch (plain, ahead) {
            case (.request(.push(var one), _), .request(.push(var other), _)):
                // A request without an apns-id gets a new one each time it is decided.
                if request.value("apns-id") == nil { (one.headers["apns-id"], other.headers["apns-id"]) = (nil, nil) }
                #expect(one == other, "\(name)")
            case (.respond, .respond):
                #expect(reasonAndStatus(plain).status == reasonAndStatus(ahead).status, "\(name)")
                #expect(reasonAndStatus(plain).reason == reasonAndStatus(ahead).reason, "\(name)")
            case (.request, .request):
                break
            default:
                Issue.record("\(name): \(reasonAndStatus(plain)) unprepared, \(reasonAndStatus(ahead)) prepared")
            }
            let routes = ProviderRoutes(devices: .open)
            #expect(routes.summarize(request, decision: plain).notificationKey == routes.summarize(prepared, decision: ahead).notificationKey, "\(name)")
        }
    }

    /// What was prepared for one token, app or push type is not used for another: a request
    /// changed after `prepare` is decided as it is now.
    @Test func aPushPreparedForOtherHeadersIsNotUsed() {
        var request = apnsRequest(body: #"{"aps":{"alert":"Hi"}}"#)
        ProviderRoutes(devices: .open).prepare(&request)
        request.headers = replacing("apns-topic", with: "com.example.news")
        request.path = "/3/device/\(String(repeating: "ab", count: 32))"
        guard case .request(.push(let push), _) = APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now)) else {
            Issue.record("refused: \(reasonAndStatus(APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now))))")
            return
        }
        #expect(push.app == "com.example.news" && push.token == String(repeating: "ab", count: 32))
    }

    /// JPush and FCM requests carry their body's digest, as their summaries take it.
    @Test func jpushAndFCMTakeTheirBodysDigestAhead() {
        let body = Array(#"{"platform":"all","audience":"all","notification":{"alert":"hi"}}"#.utf8)
        for path in ["/v3/push", "/v1/projects/demo/messages:send"] {
            var request = HTTPRequest(method: "POST", path: path, headers: [], body: body, version: .http2, isTLS: true)
            ProviderRoutes(devices: .open).prepare(&request)
            #expect(request.prepared.bodyDigest == RequestSummary.digest(body), "\(path)")
        }
    }

    /// A body's digest is its 64-bit XXH3 in 16 hex digits (`xxhsum -H3`'s answers), and both
    /// parts a request can take ahead are kept when the second is taken.
    @Test func theDigestIsXXH3sSixteenHexDigitsAndBothPartsAreKept() {
        #expect(RequestSummary.digest(Array("abc".utf8)) == "78af5f94892f3950")
        #expect(RequestSummary.digest([]) == "2d06800538d394c2")
        #expect(RequestSummary.digest(Array("abd".utf8)) != RequestSummary.digest(Array("abc".utf8)))
        var prepared = PreparedRequest()
        #expect(prepared.bodyDigest == nil)
        prepared.bodyDigest = "78af5f94892f3950"
        let copy = prepared
        prepared.bodyDigest = "2d06800538d394c2"
        #expect(copy.bodyDigest == "78af5f94892f3950" && prepared.bodyDigest == "2d06800538d394c2")
        prepared.apnsPush = (token: "ab", app: "com.example.news", pushType: .alert, push: nil)
        #expect(prepared.bodyDigest == "2d06800538d394c2" && prepared.apnsPush?.app == "com.example.news")
        #expect(copy.apnsPush == nil)
    }
}
