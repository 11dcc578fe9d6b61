import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport
import PushJSON

/// A well-formed provider token (enough while no key is registered).
let unsignedToken = "bearer " + ProviderToken.base64URL(Array(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8)) + "."
    + ProviderToken.base64URL(Array(#"{"iss":"TEAM123456","iat":1700000000}"#.utf8)) + "."
    + ProviderToken.base64URL([UInt8](repeating: 7, count: 64))

let deviceToken = SampleCredentials.apnsDeviceToken
let simulatorToken = String(repeating: "0f", count: 80)

/// A request that APNs accepts; each case below spoils one thing.
func apnsRequest(
    method: String = "POST", path: String = "/3/device/\(deviceToken)",
    headers: [HTTPHeader] = [HTTPHeader("apns-topic", "com.example.shop"), HTTPHeader("authorization", unsignedToken)],
    body: String = #"{"aps":{"alert":"Hi"}}"#
) -> HTTPRequest {
    HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8), version: .http2, isTLS: true)
}

func replacing(_ name: String, with value: String?) -> [HTTPHeader] {
    var headers = [HTTPHeader("apns-topic", "com.example.shop"), HTTPHeader("authorization", unsignedToken)]
    headers.removeAll { $0.name == name }
    if let value { headers.append(HTTPHeader(name, value)) }
    return headers
}

func adding(_ extra: HTTPHeader...) -> [HTTPHeader] {
    [HTTPHeader("apns-topic", "com.example.shop"), HTTPHeader("authorization", unsignedToken)] + extra
}

let now = Date(timeIntervalSince1970: 1_700_000_100)

/// Decodes a refusal's body.
func reasonAndStatus(_ decision: GatewayDecision) -> (status: Int, reason: String?, timestamp: Int?) {
    guard case .respond(let response) = decision else { return (200, nil, nil) }
    let body = try? JSON.parse(response.body)
    return (response.status, body?.objectValue?["reason"]?.stringValue, body?.objectValue?["timestamp"]?.intValue)
}

@Suite struct APNsReasonTableTests {
    /// Apple's table, row by row ("Handling error responses from APNs").
    static let apple: [(String, Int)] = [
        ("BadCollapseId", 400), ("BadDeviceToken", 400), ("BadExpirationDate", 400), ("BadMessageId", 400),
        ("BadPriority", 400), ("BadTopic", 400), ("DeviceTokenNotForTopic", 400), ("DuplicateHeaders", 400),
        ("IdleTimeout", 400), ("InvalidPushType", 400), ("MissingDeviceToken", 400), ("MissingTopic", 400),
        ("PayloadEmpty", 400), ("TopicDisallowed", 400),
        ("BadCertificate", 403), ("BadCertificateEnvironment", 403), ("ExpiredProviderToken", 403), ("Forbidden", 403),
        ("InvalidProviderToken", 403), ("MissingProviderToken", 403), ("UnrelatedKeyIdInToken", 403),
        ("BadEnvironmentKeyIdInToken", 403),
        ("BadPath", 404), ("MethodNotAllowed", 405), ("ExpiredToken", 410), ("Unregistered", 410),
        ("PayloadTooLarge", 413), ("TooManyProviderTokenUpdates", 429), ("TooManyRequests", 429),
        ("InternalServerError", 500), ("ServiceUnavailable", 503), ("Shutdown", 503),
        // Its rows of the broadcast API (channel management and broadcast pushes).
        ("BadChannelId", 400), ("CannotCreateChannelConfig", 400), ("FeatureNotEnabled", 400), ("MissingChannelId", 400),
        ("MissingPushType", 400), ("ChannelNotRegistered", 400),
    ]

    @Test(arguments: apple) func everyReasonHasApplesStatus(reason: String, status: Int) throws {
        let row = try #require(APNsReason(rawValue: reason))
        #expect(row.status == status)
    }

    @Test func theTableHasNoRowAppleDoesNotList() {
        #expect(Set(APNsReason.allCases.map(\.rawValue)) == Set(Self.apple.map(\.0)))
        #expect(APNsReason.statusTable.count == APNsReason.allCases.count)
    }
}

@Suite struct APNsRoutesTests {
    static let inbox = Inbox()
    static let refusals: [(String, HTTPRequest, String, Int)] = [
        ("wrong path", apnsRequest(path: "/3/devices/\(deviceToken)"), "BadPath", 404),
        ("path with more segments", apnsRequest(path: "/3/device/\(deviceToken)/x"), "BadPath", 404),
        ("GET", apnsRequest(method: "GET"), "MethodNotAllowed", 405),
        ("no token", apnsRequest(path: "/3/device/"), "MissingDeviceToken", 400),
        ("token not hex", apnsRequest(path: "/3/device/xyz123"), "BadDeviceToken", 400),
        ("token of odd length", apnsRequest(path: "/3/device/abc"), "BadDeviceToken", 400),
        ("topic twice", apnsRequest(headers: adding(HTTPHeader("apns-topic", "com.example.other"))), "DuplicateHeaders", 400),
        ("priority twice", apnsRequest(headers: adding(HTTPHeader("apns-priority", "10"), HTTPHeader("apns-priority", "5"))),
         "DuplicateHeaders", 400),
        ("no authorization", apnsRequest(headers: replacing("authorization", with: nil)), "MissingProviderToken", 403),
        ("empty authorization", apnsRequest(headers: replacing("authorization", with: "")), "MissingProviderToken", 403),
        ("bearer alone", apnsRequest(headers: replacing("authorization", with: "bearer")), "MissingProviderToken", 403),
        ("bearer in capitals, blanks around", apnsRequest(headers: replacing("authorization", with: " \tBEARER  ")), "MissingProviderToken", 403),
        ("bearer and a word", apnsRequest(headers: replacing("authorization", with: "bearer x")), "InvalidProviderToken", 403),
        ("bearers", apnsRequest(headers: replacing("authorization", with: "bearers")), "InvalidProviderToken", 403),
        ("not bearer", apnsRequest(headers: replacing("authorization", with: "basic abc")), "InvalidProviderToken", 403),
        ("two-part JWT", apnsRequest(headers: replacing("authorization", with: "bearer abc.def")), "InvalidProviderToken", 403),
        ("JWT of HS256", apnsRequest(headers: replacing("authorization", with: "bearer "
            + ProviderToken.base64URL(Array(#"{"alg":"HS256","kid":"K"}"#.utf8)) + "."
            + ProviderToken.base64URL(Array(#"{"iss":"T","iat":1}"#.utf8)) + ".c2ln")), "InvalidProviderToken", 403),
        ("JWT without iat", apnsRequest(headers: replacing("authorization", with: "bearer "
            + ProviderToken.base64URL(Array(#"{"alg":"ES256","kid":"K"}"#.utf8)) + "."
            + ProviderToken.base64URL(Array(#"{"iss":"T"}"#.utf8)) + ".c2ln")), "InvalidProviderToken", 403),
        ("no topic", apnsRequest(headers: replacing("apns-topic", with: nil)), "MissingTopic", 400),
        ("empty topic", apnsRequest(headers: replacing("apns-topic", with: "")), "MissingTopic", 400),
        ("topic with a space", apnsRequest(headers: replacing("apns-topic", with: "com.example shop")), "BadTopic", 400),
        ("unknown push type", apnsRequest(headers: adding(HTTPHeader("apns-push-type", "banner"))), "InvalidPushType", 400),
        ("priority 7", apnsRequest(headers: adding(HTTPHeader("apns-priority", "7"))), "BadPriority", 400),
        ("priority high", apnsRequest(headers: adding(HTTPHeader("apns-priority", "high"))), "BadPriority", 400),
        ("background at 10", apnsRequest(headers: adding(HTTPHeader("apns-push-type", "background"),
                                                         HTTPHeader("apns-priority", "10"))), "BadPriority", 400),
        ("expiration a date", apnsRequest(headers: adding(HTTPHeader("apns-expiration", "2026-12-01"))), "BadExpirationDate", 400),
        ("expiration negative", apnsRequest(headers: adding(HTTPHeader("apns-expiration", "-1"))), "BadExpirationDate", 400),
        ("collapse id of 65 bytes", apnsRequest(headers: adding(HTTPHeader("apns-collapse-id", String(repeating: "c", count: 65)))),
         "BadCollapseId", 400),
        ("collapse id of 33 two-byte characters", apnsRequest(headers: adding(HTTPHeader("apns-collapse-id", String(repeating: "é", count: 33)))),
         "BadCollapseId", 400),
        ("apns-id not a UUID", apnsRequest(headers: adding(HTTPHeader("apns-id", "12345"))), "BadMessageId", 400),
        ("empty body", apnsRequest(body: ""), "PayloadEmpty", 400),
        ("4097 bytes", apnsRequest(body: bigPayload(4097)), "PayloadTooLarge", 413),
        ("5121 bytes of VoIP", apnsRequest(headers: replacing("apns-topic", with: "com.example.shop.voip")
            + [HTTPHeader("apns-push-type", "voip")], body: bigPayload(5121)), "PayloadTooLarge", 413),
        ("not JSON", apnsRequest(body: "hello"), "BadPayload", 400),
        ("a JSON array", apnsRequest(body: "[1]"), "BadPayload", 400),
    ]

    /// A header APNs takes once, sent twice with values it would take: `400 DuplicateHeaders`,
    /// whichever it is; `host`, which HTTP/2 clients send as `:authority`, is not one of them.
    @Test(arguments: APNsRoutes.singleHeaders) func aSingleHeaderTwiceIsRefused(name: String) {
        let values = [
            "authorization": unsignedToken, "apns-id": "123E4567-E89B-12D3-A456-426614174000", "apns-topic": "com.example.shop",
            "apns-push-type": "alert", "apns-priority": "10", "apns-expiration": "0", "apns-collapse-id": "order",
        ]
        let value = values[name] ?? "x"
        #expect(values[name] != nil, "no value to send for \(name)")
        let once = apnsRequest(headers: replacing(name, with: value))
        let twice = apnsRequest(headers: replacing(name, with: value) + [HTTPHeader(name, value)])
        let context = GatewayContext(inbox: Self.inbox, now: now)
        #expect(reasonAndStatus(APNsRoutes().decide(once, context: context)).status == 200, "\(name) once")
        #expect(reasonAndStatus(APNsRoutes().decide(twice, context: context)).reason == "DuplicateHeaders", "\(name) twice")
        let hosts = adding(HTTPHeader("host", "api.sandbox.push.apple.com"), HTTPHeader("host", "api.sandbox.push.apple.com"))
        #expect(reasonAndStatus(APNsRoutes().decide(apnsRequest(headers: hosts), context: context)).status == 200)
    }

    @Test(arguments: refusals) func refusesAsAppleDoes(name: String, request: HTTPRequest, reason: String, status: Int) {
        let decision = APNsRoutes().decide(request, context: GatewayContext(inbox: Self.inbox, now: now))
        let answer = reasonAndStatus(decision)
        #expect(answer.status == status, "\(name)")
        #expect(answer.reason == reason, "\(name)")
    }

    @Test func aRefusalCarriesTheRequestsApnsIdOrANewOne() throws {
        let id = "0E5DD5B4-3B2F-4E5A-9C73-0E3C7B3E5F10"
        guard case .respond(let given) = APNsRoutes().decide(
            apnsRequest(headers: adding(HTTPHeader("apns-id", id)), body: ""), context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("accepted an empty body"); return }
        #expect(given.headers.first { $0.name == "apns-id" }?.value == id)
        guard case .respond(let made) = APNsRoutes().decide(apnsRequest(body: ""), context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("accepted an empty body"); return }
        let value = try #require(made.headers.first { $0.name == "apns-id" }?.value)
        #expect(UUID(uuidString: value) != nil)
        // A bad apns-id is refused, and answered back so the client can match the refusal.
        guard case .respond(let bad) = APNsRoutes().decide(
            apnsRequest(headers: adding(HTTPHeader("apns-id", "12345"))), context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("accepted a bad apns-id"); return }
        #expect(bad.headers.first { $0.name == "apns-id" }?.value == "12345")
    }

    @Test(arguments: [
        ("alert", "com.example.shop", 4096), ("voip", "com.example.shop.voip", 5120),
        ("liveactivity", "com.example.shop.push-type.liveactivity", 4096), ("pushtotalk", "com.example.shop.voip-ptt", 4096),
        ("widgets", "com.example.shop.push-type.widgets", 4096), ("location", "com.example.shop.location-query", 4096),
        ("complication", "com.example.shop.complication", 4096), ("fileprovider", "com.example.shop.pushkit.fileprovider", 4096),
        ("mdm", "com.example.shop", 4096), ("background", "com.example.shop", 4096), ("controls", "com.example.shop.push-type.controls", 4096),
    ])
    func acceptsEveryPushTypeUpToItsLimitUnderTheBundlesApp(type: String, topic: String, limit: Int) throws {
        let request = apnsRequest(
            headers: [HTTPHeader("apns-topic", topic), HTTPHeader("authorization", unsignedToken), HTTPHeader("apns-push-type", type),
                      HTTPHeader("apns-priority", "5"), HTTPHeader("apns-expiration", "0"),
                      HTTPHeader("apns-collapse-id", String(repeating: "c", count: 64))],
            body: bigPayload(limit))
        guard case .request(.push(let push), let answer) = APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("refused \(type): \(reasonAndStatus(APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now))))"); return }
        #expect(push.app == "com.example.shop")
        #expect(push.via == .apns)
        #expect(push.token == deviceToken)
        #expect(push.channel == .apns)
        #expect(push.headers["apns-push-type"] == type)
        #expect(push.headers["apns-topic"] == topic)
        #expect(push.headers["apns-id"].flatMap { UUID(uuidString: $0) } != nil)
        #expect(push.headers["authorization"] == nil)
        if type == "liveactivity" {
            // A Live Activity's content is the device's to judge: no notification is decoded.
            #expect(push.decoded == nil)
        } else {
            // Decoded once, by the route, and handed on as the inbox's own decoder would decode it.
            #expect(try #require(push.decoded) == (try PushDecoder().decode(push)))
        }
        let ok = answer(.push(PushReply(.delivered(id: 1), badge: 1)))
        #expect(ok.status == 200)
        #expect(ok.body.isEmpty)
        #expect(ok.headers.first { $0.name == "apns-id" }?.value == push.headers["apns-id"])
    }

    @Test func aSimulatorTokenOf160HexDigitsIsATokenAndUpperCaseIsFolded() {
        let request = apnsRequest(path: "/3/device/\(simulatorToken.uppercased())")
        guard case .request(.push(let push), _) = APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("refused a simulator token"); return }
        #expect(push.token == simulatorToken)
    }

    @Test func aPushCarriesItsCollapseIdPushTypeAndPriorityAndKeepsItsApnsHeaders() {
        let request = apnsRequest(headers: adding(
            HTTPHeader("apns-collapse-id", "orders"), HTTPHeader("apns-push-type", "background"), HTTPHeader("apns-priority", "5"),
            HTTPHeader("user-agent", "backend/1")))
        guard case .request(.push(let push), _) = APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("refused"); return }
        #expect(push.collapseId == "orders" && push.pushType == "background" && push.priority == 5)
        #expect(push.headers.keys.sorted() == ["apns-collapse-id", "apns-id", "apns-priority", "apns-push-type", "apns-topic"])

        let plain = apnsRequest()
        guard case .request(.push(let bare), _) = APNsRoutes().decide(plain, context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("refused"); return }
        #expect(bare.collapseId == nil && bare.pushType == nil && bare.priority == nil)
    }

    @Test func theGivenApnsIdIsAnsweredOnSuccessAndAStoreFailureIs500() {
        let id = "0e5dd5b4-3b2f-4e5a-9c73-0e3c7b3e5f10"
        let request = apnsRequest(headers: adding(HTTPHeader("apns-id", id)))
        guard case .request(_, let answer) = APNsRoutes().decide(request, context: GatewayContext(inbox: Inbox(), now: now))
        else { Issue.record("refused"); return }
        let held = answer(.push(PushReply(.held(id: 1), badge: 0)))
        #expect(held.headers.map(\.name) == ["apns-id", "apns-unique-id"])
        #expect(held.headers.first?.value == id)
        // Both name this answer alone: HTTP/2 keeps them out of its compression table.
        #expect(held.headers.allSatisfy { $0.isUnique })
        let failed = answer(Reply.error("store: disk full; nothing was saved"))
        #expect(failed.status == 500)
        #expect(String(decoding: failed.body, as: UTF8.self) == #"{"reason":"InternalServerError"}"#)
        #expect(failed.headers.first { $0.name == "apns-id" }?.value == id)
        #expect(failed.headers.filter { $0.isUnique }.map(\.name) == ["apns-id"])
    }
}

/// An APNs payload of exactly `size` bytes.
func bigPayload(_ size: Int) -> String {
    let shell = #"{"aps":{"alert":""}}"#
    return #"{"aps":{"alert":""# + String(repeating: "x", count: size - shell.utf8.count) + #""}}"#
}
