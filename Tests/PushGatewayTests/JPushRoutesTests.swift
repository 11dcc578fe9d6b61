import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport
import PushJSON

/// The request examples written from JPush's and Getui's documents (`Resources/gateway/`).
enum GatewayFixtures {
    static func text(_ vendor: String, _ name: String) throws -> String {
        let url = PackagePaths.resources.appendingPathComponent("gateway/\(vendor)/\(name)")
        return String(decoding: try PackagePaths.bytes(of: url), as: UTF8.self)
    }
}

let jpushKey = SampleCredentials.jpushAppKey
let jpushSecret = SampleCredentials.jpushMasterSecret
let jpushRegistrationId = SampleCredentials.jpushRegistrationId

func basic(_ user: String, _ password: String) -> String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
}

func jpushRequest(
    method: String = "POST", path: String = "/v3/push", authorization: String? = basic(jpushKey, jpushSecret), body: String
) -> HTTPRequest {
    var headers = [HTTPHeader("content-type", "application/json")]
    if let authorization { headers.append(HTTPHeader("authorization", authorization)) }
    return HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8), version: .http1_1, isTLS: true)
}

/// A refusal's status and JPush code.
func jpushCode(_ decision: GatewayDecision) -> (status: Int, code: Int?) {
    guard case .respond(let response) = decision else { return (0, nil) }
    let body = try? JSON.parse(response.body)
    return (response.status, body?.objectValue?["error"]?.objectValue?["code"]?.intValue)
}

@Suite struct JPushErrorTableTests {
    /// JPush's Push API v3 response codes with their HTTP status, row by row.
    static let jpush: [(Int, Int)] = [
        (1000, 500), (1001, 405), (1002, 400), (1003, 400), (1004, 401), (1005, 400), (1008, 400), (1009, 400),
        (1011, 400), (1020, 404), (1030, 503), (2002, 429), (2003, 400), (2004, 403), (2005, 403),
    ]

    @Test(arguments: jpush) func everyCodeHasJPushsStatus(code: Int, status: Int) throws {
        let row = try #require(JPushError(rawValue: code))
        #expect(row.status == status)
        #expect(!row.message.isEmpty)
    }

    @Test func theTableHasNoOtherRows() {
        #expect(Set(JPushError.allCases.map(\.rawValue)) == Set(Self.jpush.map(\.0)))
        #expect(JPushError.table.count == JPushError.allCases.count)
    }

    @Test func aRefusalIsJPushsErrorObject() throws {
        let response = JPushRefusal(.noTarget, "why").response
        #expect(response.status == 400)
        let body = try JSON.parse(response.body)
        #expect(body == .object(["error": .object(["code": 1011, "message": "cannot find user by this audience: why"])]))
    }
}

@Suite struct JPushRoutesTests {
    static let context = GatewayContext(inbox: Inbox(), now: now)

    @Test(arguments: ["push-all-alert.json", "push-registration-id-ios.json", "push-message.json",
                      "push-notification-and-message.json", "push-ttl-zero-message.json"])
    func everyDocumentedShapeIsAccepted(name: String) throws {
        let body = try GatewayFixtures.text("jpush", name)
        guard case .request(.push(let push), let answer) = JPushRoutes().decide(jpushRequest(body: body), context: Self.context) else {
            Issue.record("\(name) was refused: \(jpushCode(JPushRoutes().decide(jpushRequest(body: body), context: Self.context)))")
            return
        }
        #expect(push.via == .jpush)
        #expect(push.app == jpushKey)
        #expect(push.payloadText == body)
        #expect(push.token == (body.contains("registration_id") ? jpushRegistrationId : nil))
        #expect(push.headers["path"] == "/v3/push")
        let msgId = try #require(push.headers["msg_id"])
        let reply = answer(.push(PushReply(.delivered(id: 1), badge: 1)))
        #expect(reply.status == 200)
        let object = try #require(try JSON.parse(reply.body).objectValue)
        #expect(object["msg_id"] == .string(msgId))
        #expect(object["sendno"] == .string(push.headers["sendno"] ?? "?"))
        // A store failure is JPush's 1000, not a success.
        #expect(jpushCode(.respond(answer(.error("disk")))) == (500, 1000))
    }

    @Test func optionsAreKeptOnTheMessage() throws {
        let body = try GatewayFixtures.text("jpush", "push-notification-and-message.json")
        guard case .request(.push(let push), _) = JPushRoutes().decide(jpushRequest(body: body), context: Self.context) else {
            Issue.record("refused")
            return
        }
        #expect(push.headers["sendno"] == "7")
        #expect(push.headers["msg_id"] == "18100000000123456")
        #expect(push.headers["override_msg_id"] == "18100000000123456")
        #expect(push.headers["time_to_live"] == "86400")
        #expect(push.headers["apns_production"] == "false")
        #expect(push.headers["registration_id"] == jpushRegistrationId)
    }

    @Test func validateAnswersWithoutDelivering() throws {
        let body = try GatewayFixtures.text("jpush", "push-registration-id-ios.json")
        guard case .respond(let response) = JPushRoutes().decide(jpushRequest(path: "/v3/push/validate", body: body), context: Self.context) else {
            Issue.record("validate went into the inbox")
            return
        }
        #expect(response.status == 200)
        #expect(try JSON.parse(response.body).objectValue?["sendno"] == .string("18"))
        // And it still refuses what push refuses.
        let bad = try GatewayFixtures.text("jpush", "bad-audience-tag.json")
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(path: "/v3/push/validate", body: bad), context: Self.context)) == (400, 1011))
    }

    static let alert = #"{"platform":"all","audience":"all","notification":{"alert":"Hi"}}"#

    /// Each request spoils one thing; JPush's code and status come back and nothing is pushed.
    static let refusals: [(String, HTTPRequest, Int, Int)] = [
        ("no authorization", jpushRequest(authorization: nil, body: alert), 401, 1004),
        ("not basic", jpushRequest(authorization: "Bearer abc", body: alert), 401, 1004),
        ("no colon", jpushRequest(authorization: "Basic " + Data("abc".utf8).base64EncodedString(), body: alert), 401, 1004),
        ("bad appKey", jpushRequest(authorization: basic("a b", "s"), body: alert), 400, 1008),
        ("GET", jpushRequest(method: "GET", body: alert), 405, 1001),
        ("unknown path", jpushRequest(path: "/v3/pushes", body: alert), 400, 1003),
        ("not JSON", jpushRequest(body: "{nope"), 400, 1003),
        ("not an object", jpushRequest(body: "[1]"), 400, 1003),
        ("no platform", jpushRequest(body: #"{"audience":"all","notification":{"alert":"Hi"}}"#), 400, 1002),
        ("bad platform", jpushRequest(body: #"{"platform":["symbian"],"audience":"all","notification":{"alert":"Hi"}}"#), 400, 1003),
        ("no ios", jpushRequest(body: #"{"platform":["android"],"audience":"all","notification":{"alert":"Hi"}}"#), 400, 1011),
        ("no audience", jpushRequest(body: #"{"platform":"all","notification":{"alert":"Hi"}}"#), 400, 1002),
        ("tag audience", jpushRequest(body: #"{"platform":"all","audience":{"tag":["a"]},"notification":{"alert":"Hi"}}"#), 400, 1011),
        ("empty ids", jpushRequest(body: #"{"platform":"all","audience":{"registration_id":[]},"notification":{"alert":"Hi"}}"#), 400, 1003),
        ("nothing to push", jpushRequest(body: #"{"platform":"all","audience":"all"}"#), 400, 1002),
        ("no msg_content", jpushRequest(body: #"{"platform":"all","audience":"all","message":{"title":"t"}}"#), 400, 1002),
        ("bad badge", jpushRequest(body: #"{"platform":"all","audience":"all","notification":{"ios":{"alert":"a","badge":"x1"}}}"#), 400, 1003),
        ("too long", jpushRequest(body: #"{"platform":"all","audience":"all","notification":{"alert":""# + String(repeating: "长", count: 1400) + #""}}"#), 400, 1005),
        ("negative ttl", jpushRequest(body: #"{"platform":"all","audience":"all","notification":{"alert":"Hi"},"options":{"time_to_live":-1}}"#), 400, 1003),
        ("long collapse id", jpushRequest(body: #"{"platform":"all","audience":"all","notification":{"alert":"Hi"},"options":{"apns_collapse_id":""# + String(repeating: "c", count: 65) + #""}}"#), 400, 1003),
    ]

    @Test(arguments: refusals) func refusedWithJPushsCode(label: String, request: HTTPRequest, status: Int, code: Int) {
        let result = jpushCode(JPushRoutes().decide(request, context: Self.context))
        #expect(result.status == status, "\(label)")
        #expect(result.code == code, "\(label)")
    }

    @Test func aRegisteredKeyChecksTheMasterSecret() {
        var inbox = Inbox()
        inbox.providerKeys[jpushKey] = ProviderKey(id: jpushKey, vendor: .jpush, secret: jpushSecret)
        let context = GatewayContext(inbox: inbox, now: now)
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(authorization: basic(jpushKey, "wrong"), body: Self.alert), context: context)) == (401, 1004))
        guard case .request = JPushRoutes().decide(jpushRequest(body: Self.alert), context: context) else {
            Issue.record("the right secret was refused")
            return
        }
        // Without a key, any secret names the app.
        guard case .request = JPushRoutes().decide(jpushRequest(authorization: basic(jpushKey, "wrong"), body: Self.alert), context: Self.context) else {
            Issue.record("an app without a key was refused")
            return
        }
    }

    @Test func registrationIdsAreDevicesOfTheAppKey() throws {
        let body = try GatewayFixtures.text("jpush", "push-registration-id-ios.json")
        #expect(jpushCode(JPushRoutes(devices: .strict).decide(jpushRequest(body: body), context: Self.context)) == (400, 1011))
        var inbox = Inbox()
        inbox.devices[jpushRegistrationId] = Device(token: jpushRegistrationId, app: jpushKey, vendor: .jpush)
        guard case .request = JPushRoutes(devices: .strict).decide(jpushRequest(body: body), context: GatewayContext(inbox: inbox, now: now)) else {
            Issue.record("a registered id was refused")
            return
        }
        inbox.devices[jpushRegistrationId] = Device(token: jpushRegistrationId, app: "another", vendor: .jpush)
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(body: body), context: GatewayContext(inbox: inbox, now: now))) == (400, 1011))
        inbox.devices[jpushRegistrationId] = Device(token: jpushRegistrationId, app: jpushKey, vendor: .apns)
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(body: body), context: GatewayContext(inbox: inbox, now: now))) == (400, 1011))
    }

    @Test func theGatewayRoutesByPath() throws {
        let routes = ProviderRoutes(devices: .open)
        #expect(jpushCode(routes.decide(jpushRequest(authorization: nil, body: Self.alert), context: Self.context)) == (401, 1004))
        guard case .respond(let getui) = routes.decide(jpushRequest(path: "/v2/app/push/single/cid", body: "{}"), context: Self.context) else {
            Issue.record("getui path went elsewhere")
            return
        }
        #expect(try JSON.parse(getui.body).objectValue?["code"] == .number(JSONNumber(10001)))
        #expect(reasonAndStatus(routes.decide(jpushRequest(path: "/4/device/ab", body: "{}"), context: Self.context)).reason == "BadPath")
    }
}
