import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport
import PushJSON

let getuiAppId = SampleCredentials.getuiAppId
let getuiAppKey = SampleCredentials.getuiAppKey
let getuiSecret = SampleCredentials.getuiMasterSecret
let getuiCid = SampleCredentials.getuiCid

func getuiRequest(_ endpoint: String, token: String? = nil, method: String = "POST", appId: String = getuiAppId, body: String) -> HTTPRequest {
    var headers = [HTTPHeader("content-type", "application/json;charset=utf-8")]
    if let token { headers.append(HTTPHeader("token", token)) }
    return HTTPRequest(method: method, path: "/v2/\(appId)/\(endpoint)", headers: headers, body: Array(body.utf8), version: .http1_1, isTLS: true)
}

/// A response's `code`, and its `data`.
func getuiAnswer(_ response: HTTPResponse) -> (code: Int?, data: JSONObject?) {
    let body = try? JSON.parse(response.body)
    return (body?.objectValue?["code"]?.intValue, body?.objectValue?["data"]?.objectValue)
}

func getuiCode(_ decision: GatewayDecision) -> Int? {
    guard case .respond(let response) = decision else { return nil }
    return getuiAnswer(response).code
}

func authBody(appKey: String = getuiAppKey, timestamp: String = "1700000100000", secret: String = getuiSecret) -> String {
    let sign = GetuiSessions.sha256Hex(appKey + timestamp + secret)
    return #"{"sign":"\#(sign)","timestamp":"\#(timestamp)","appkey":"\#(appKey)"}"#
}

@Suite struct GetuiCodeTableTests {
    /// Getui REST API v2's public return codes, row by row.
    static let getui: [(Int, String)] = [
        (0, "success"), (10001, "token错误/失效"), (10002, "appId或ip在黑名单中"), (10003, "每分钟鉴权频率超限"),
        (10005, "每分钟调用频率超限"), (20001, "请求信息填写有误"), (20002, "AppKey填写错误"), (20003, "重复的消息"),
        (20004, "权限不足"),
    ]

    @Test(arguments: getui) func everyCodeHasGetuisMessage(code: Int, message: String) throws {
        #expect(try #require(GetuiCode(rawValue: code)).message == message)
    }

    @Test func theTableHasNoOtherRows() {
        #expect(Set(GetuiCode.allCases.map(\.rawValue)) == Set(Self.getui.map(\.0)))
    }

    /// Getui's sign is sha256(appkey + timestamp + mastersecret), hex: checked against `sha256sum`'s answer.
    @Test func theSignIsSHA256InHex() {
        #expect(GetuiSessions.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

@Suite struct GetuiRoutesTests {
    static func keyed() -> Inbox {
        var inbox = Inbox()
        inbox.providerKeys[getuiAppId] = ProviderKey(id: getuiAppId, vendor: .getui, appKey: getuiAppKey, secret: getuiSecret)
        return inbox
    }

    /// Authenticates and gives the token.
    static func token(_ routes: GetuiRoutes, inbox: Inbox = keyed(), at date: Date = now) throws -> String {
        guard case .respond(let response) = routes.decide(getuiRequest("auth", body: authBody()), context: GatewayContext(inbox: inbox, now: date)) else {
            throw WireError("auth went into the inbox")
        }
        let answer = getuiAnswer(response)
        guard answer.code == 0, let token = answer.data?["token"]?.stringValue else { throw WireError("auth refused: \(answer)") }
        return token
    }

    @Test func authChecksTheSignOfARegisteredKey() throws {
        let routes = GetuiRoutes()
        let context = GatewayContext(inbox: Self.keyed(), now: now)
        guard case .respond(let ok) = routes.decide(getuiRequest("auth", body: authBody()), context: context) else { Issue.record("no answer"); return }
        let answer = getuiAnswer(ok)
        #expect(answer.code == 0)
        #expect(answer.data?["expire_time"] == .string(String(Int64((now.timeIntervalSince1970 + 86_400) * 1000))))
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: authBody(secret: "wrong")), context: context)) == 20001)
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: authBody(appKey: "other")), context: context)) == 20002)
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: #"{"sign":"x","timestamp":"1700000100000","appkey":"k"}"#), context: context)) == 20001)
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: #"{"sign":"x"}"#), context: context)) == 20001)
        // Without a key, a well-formed sign is enough.
        let open = GatewayContext(inbox: Inbox(), now: now)
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: authBody(secret: "anything")), context: open)) == 0)
    }

    @Test(arguments: ["single-cid-notification.json", "single-cid-transmission.json", "single-cid-ios-channel.json", "single-cid-no-offline.json"])
    func everyDocumentedShapeIsAccepted(name: String) throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", name)
        let decision = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: Self.keyed(), now: now))
        guard case .request(.push(let push), let answer) = decision else {
            Issue.record("\(name) refused: \(String(describing: getuiCode(decision)))")
            return
        }
        #expect(push.via == .getui)
        #expect(push.app == getuiAppId)
        #expect(push.token == getuiCid)
        #expect(push.payloadText == body)
        let taskId = try #require(push.headers["taskid"])
        #expect(taskId.hasPrefix("RASS_"))
        #expect(push.headers["request_id"] != nil)
        let online = getuiAnswer(answer(.push(PushReply(.delivered(id: 1), badge: 1))))
        #expect(online.code == 0)
        #expect(online.data == [taskId: .object([getuiCid: "successed_online"])])
        let held = getuiAnswer(answer(.push(PushReply(.held(id: 1), badge: 0))))
        #expect(held.data == [taskId: .object([getuiCid: "successed_offline"])])
        // Stored for an offline device is offline too; a push dropped with push mode off is not.
        let stored = getuiAnswer(answer(.push(PushReply(.storedOffline(id: 1), badge: 0))))
        #expect(stored.data == [taskId: .object([getuiCid: "successed_offline"])])
        let dropped = getuiAnswer(answer(.push(PushReply(.dropped(.modeOff), badge: 0))))
        #expect(dropped.data == [taskId: .object([getuiCid: "successed_online"])])
    }

    @Test func aTerminatedAppIsOffline() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        var inbox = Self.keyed()
        inbox.settings.appState = .terminated
        let body = try GatewayFixtures.text("getui", "single-cid-notification.json")
        guard case .request(.push(let push), let answer) = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)) else {
            Issue.record("refused")
            return
        }
        #expect(getuiAnswer(answer(.push(PushReply(.delivered(id: 1), badge: 1)))).data == [push.headers["taskid"] ?? "": .object([getuiCid: "successed_offline"])])
    }

    @Test func pushAllAnswersTheTaskId() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "push-all.json")
        guard case .request(.push(let push), let answer) = routes.decide(getuiRequest("push/all", token: token, body: body), context: GatewayContext(inbox: Self.keyed(), now: now)) else {
            Issue.record("refused")
            return
        }
        #expect(push.token == nil)
        #expect(getuiAnswer(answer(.push(PushReply(.delivered(id: 1), badge: 1)))).data == ["taskid": .string(push.headers["taskid"] ?? "")])
    }

    @Test func aMissingOrExpiredTokenIs10001() throws {
        let routes = GetuiRoutes(tokenSeconds: 60)
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-cid-notification.json")
        let inbox = Self.keyed()
        #expect(getuiCode(routes.decide(getuiRequest("push/single/cid", body: body), context: GatewayContext(inbox: inbox, now: now))) == 10001)
        // Another token: its first hex digit changed (a fresh token starts with "0" one time in 16).
        let forged = (token.hasPrefix("0") ? "1" : "0") + token.dropFirst()
        #expect(getuiCode(routes.decide(getuiRequest("push/single/cid", token: forged, body: body), context: GatewayContext(inbox: inbox, now: now))) == 10001)
        #expect(getuiCode(routes.decide(getuiRequest("push/single/cid", token: token, appId: "anotherApp1", body: body), context: GatewayContext(inbox: inbox, now: now))) == 10001)
        // On the server's clock: valid for 60 s, not at 60 s.
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now.addingTimeInterval(59))) else {
            Issue.record("a live token was refused")
            return
        }
        let later = body.replacingOccurrences(of: "pushdeck-notif-0001", with: "pushdeck-notif-0002")
        #expect(getuiCode(routes.decide(getuiRequest("push/single/cid", token: token, body: later), context: GatewayContext(inbox: inbox, now: now.addingTimeInterval(60)))) == 10001)
    }

    @Test func aRepeatedRequestIdIsRefused() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-cid-notification.json")
        let context = GatewayContext(inbox: Self.keyed(), now: now)
        guard case .request(_, let answer) = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: context) else {
            Issue.record("refused")
            return
        }
        _ = answer(.push(PushReply(.delivered(id: 1), badge: 1)))
        #expect(getuiCode(routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: context)) == 20003)
    }

    @Test func aFailedCommitFreesTheRequestId() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-cid-notification.json")
        let context = GatewayContext(inbox: Self.keyed(), now: now)
        guard case .request(_, let answer) = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: context) else {
            Issue.record("refused")
            return
        }
        #expect(getuiAnswer(answer(.error("disk"))).code == 30000)
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: context) else {
            Issue.record("the retry was refused")
            return
        }
    }

    static let cid = #""audience":{"cid":["\#(getuiCid)"]}"#
    static let note = #""push_message":{"notification":{"title":"t","body":"b","click_type":"none"}}"#

    static let refusals: [(String, String, String)] = [
        ("no request_id", "push/single/cid", #"{\#(cid),\#(note)}"#),
        ("short request_id", "push/single/cid", #"{"request_id":"123456789",\#(cid),\#(note)}"#),
        ("long request_id", "push/single/cid", #"{"request_id":"\#(String(repeating: "r", count: 33))",\#(cid),\#(note)}"#),
        ("ttl -2", "push/single/cid", #"{"request_id":"1234567890","settings":{"ttl":-2},\#(cid),\#(note)}"#),
        ("ttl over three days", "push/single/cid", #"{"request_id":"1234567890","settings":{"ttl":259200001},\#(cid),\#(note)}"#),
        ("two cids", "push/single/cid", #"{"request_id":"1234567890","audience":{"cid":["a","b"]},\#(note)}"#),
        ("no audience", "push/single/cid", #"{"request_id":"1234567890",\#(note)}"#),
        ("no push_message", "push/single/cid", #"{"request_id":"1234567890",\#(cid)}"#),
        ("notification without body", "push/single/cid", #"{"request_id":"1234567890",\#(cid),"push_message":{"notification":{"title":"t","click_type":"none"}}}"#),
        ("transmission not a string", "push/single/cid", #"{"request_id":"1234567890",\#(cid),"push_message":{"transmission":{"a":1}}}"#),
        ("both kinds", "push/single/cid", #"{"request_id":"1234567890",\#(cid),"push_message":{"transmission":"x","notification":{"title":"t","body":"b","click_type":"none"}}}"#),
        ("bad auto_badge", "push/single/cid", #"{"request_id":"1234567890",\#(cid),"push_message":{"transmission":"x"},"push_channel":{"ios":{"auto_badge":"+x"}}}"#),
        ("push/all to a cid", "push/all", #"{"request_id":"1234567890",\#(cid),\#(note)}"#),
        ("not JSON", "push/single/cid", "{nope"),
    ]

    @Test(arguments: refusals) func refusedWith20001(label: String, endpoint: String, body: String) throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        #expect(getuiCode(routes.decide(getuiRequest(endpoint, token: token, body: body), context: GatewayContext(inbox: Self.keyed(), now: now))) == 20001, "\(label)")
    }

    @Test func aBatchIsOneRequestPerMessageAnsweredTogether() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "batch-cid.json")
        let context = GatewayContext(inbox: Self.keyed(), now: now)
        guard case .requests(let requests, let answer) = routes.decide(getuiRequest("push/single/batch/cid", token: token, body: body), context: context) else {
            Issue.record("the batch was not taken as requests")
            return
        }
        let pushes = requests.compactMap { request -> PushRequest? in if case .push(let push) = request { push } else { nil } }
        try #require(pushes.count == 2)
        #expect(pushes.map { $0.headers["request_id"] } == ["pushdeck-batch-0001", "pushdeck-batch-0002"])
        #expect(pushes.allSatisfy { $0.via == .getui && $0.token == getuiCid && $0.app == getuiAppId })
        #expect(try JSON.parse(pushes[1].payloadText).objectValue?["push_message"] == .object(["transmission": "早报：今日天气晴，全天气温 12 到 20 度"]))
        let reply = getuiAnswer(answer([.push(PushReply(.delivered(id: 1), badge: 1)), .push(PushReply(.held(id: 2), badge: 1))]))
        #expect(reply.code == 0)
        #expect(reply.data == [
            pushes[0].headers["taskid"] ?? "": .object([getuiCid: "successed_online"]),
            pushes[1].headers["taskid"] ?? "": .object([getuiCid: "successed_offline"]),
        ])
        // The same ids again are refused, all of them.
        #expect(getuiCode(routes.decide(getuiRequest("push/single/batch/cid", token: token, body: body), context: context)) == 20003)
    }

    @Test func aBatchIsRefusedWhole() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let context = GatewayContext(inbox: Self.keyed(), now: now)
        let good = #"{"request_id":"1234567890",\#(Self.cid),\#(Self.note)}"#
        let bad = #"{"request_id":"123",\#(Self.cid),\#(Self.note)}"#
        #expect(getuiCode(routes.decide(getuiRequest("push/single/batch/cid", token: token, body: #"{"msg_list":[\#(good),\#(bad)]}"#), context: context)) == 20001)
        #expect(getuiCode(routes.decide(getuiRequest("push/single/batch/cid", token: token, body: #"{"msg_list":[]}"#), context: context)) == 20001)
        // A request id twice in one list: the second is a repeat, and the first is not kept.
        #expect(getuiCode(routes.decide(getuiRequest("push/single/batch/cid", token: token, body: #"{"msg_list":[\#(good),\#(good)]}"#), context: context)) == 20003)
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: token, body: good), context: context) else {
            Issue.record("the refused batch kept its request id")
            return
        }
    }

    @Test func cidsAreDevicesOfTheApp() throws {
        let routes = GetuiRoutes(devices: .strict)
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-cid-transmission.json")
        var inbox = Self.keyed()
        #expect(getuiCode(routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now))) == 20001)
        inbox.devices[getuiCid] = Device(token: getuiCid, app: getuiAppId, vendor: .getui)
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)) else {
            Issue.record("a registered cid was refused")
            return
        }
    }

    @Test func unknownPathsAndMethods() {
        let routes = GetuiRoutes()
        let context = GatewayContext(inbox: Inbox(), now: now)
        guard case .respond(let missing) = routes.decide(getuiRequest("push/single/alias", body: "{}"), context: context) else { Issue.record("accepted"); return }
        #expect(missing.status == 404)
        guard case .respond(let get) = routes.decide(getuiRequest("auth", method: "GET", body: "{}"), context: context) else { Issue.record("accepted"); return }
        #expect(get.status == 405)
    }
}

@Suite struct GatewayFixtureTests {
    /// Every request example is listed in Resources/README.md and sent by a test here.
    @Test(arguments: [
        ("jpush", ["bad-audience-tag.json", "push-all-alert.json", "push-message.json", "push-notification-and-message.json",
                   "push-registration-id-ios.json", "push-ttl-zero-message.json"]),
        ("getui", ["batch-cid.json", "push-all.json", "single-cid-ios-channel.json", "single-cid-no-offline.json", "single-cid-notification.json",
                   "single-cid-transmission.json"]),
    ])
    func everyExampleIsListedAndUsed(vendor: String, used: [String]) throws {
        let names = try PackagePaths.files(in: PackagePaths.resources.appendingPathComponent("gateway/\(vendor)"), endingWith: [".json"])
            .map(\.lastPathComponent)
        #expect(names == used)
        let readme = try String(contentsOf: PackagePaths.resources.appendingPathComponent("README.md"), encoding: .utf8)
        for name in names {
            #expect(readme.contains("`gateway/\(vendor)/\(name)`"), "Resources/README.md does not list \(name)")
        }
    }
}
