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

/// A refusal's HTTP status, `code` and `msg`.
func getuiRefusal(_ decision: GatewayDecision) -> (status: Int, code: Int?, msg: String) {
    guard case .respond(let response) = decision else { return (0, nil, "") }
    let body = (try? JSON.parse(response.body))?.objectValue
    return (response.status, body?["code"]?.intValue, body?["msg"]?.stringValue ?? "")
}

@Suite struct GetuiCodeTableTests {
    /// Getui REST API v2's return codes with their HTTP status and description, row by row, as
    /// https://docs.getui.com/getui/server/rest_v2/code and dcloudio/unidocs-zh
    /// `docs/uniCloud/uni-cloud-push/api.md` list them.
    static let getui: [(Int, Int, String)] = [
        (0, 200, "success"), (1, 200, "失败"), (2, 200, "服务正在启动"), (301, 200, "域名错误"), (404, 404, "url错误"),
        (405, 405, "方法不支持"),
        (10001, 401, "token错误/失效"), (10002, 401, "appId或ip在黑名单中"), (10003, 401, "每分钟鉴权频率超限"),
        (10004, 401, "没有查询消息明细的权限"), (10005, 401, "每分钟调用频率超限"),
        (20001, 400, "参数不合法"), (22001, 400, "定时任务已经执行，无法删除"), (22002, 400, "任务无效或定时任务时间不合法"),
        (23001, 400, "操作tag失败"),
        (30000, 403, "没有推送fast_custom_tag的权限"), (30001, 403, "没有修改和删除custom_tag的权限"), (30002, 403, "没有推送定时任务的权限"),
        (30003, 403, "app/tag 接口无权限，或tag无效"), (30004, 403, "tag每日推送总数超限(VIP用户可根据应用特殊配置)"),
        (30005, 403, "tag长度超限(tag长度<32)"), (30006, 403, "fast_custom_tag次数超过每日推送总数限制(VIP用户可根据应用特殊配置)"),
        (30007, 403, "app/all推送，推送次数超过每日推送总数限制，每日最多推送100次"),
        (30008, 403, "list推送次数超过每日推送总数限制，每日最多推送2000000次"), (30009, 403, "推送次数超过每日推送总数限制"),
        (30010, 403, "app/tag 推送次数超过每日推送总数限制，每日最多推送100次，和接口app/all共享限制"),
        (30011, 403, "设置tag次数超过每日次数限制"), (30012, 403, "修改和删除tag 超过每分钟频率限制，每分钟最多操作5次"),
        (30013, 403, "推送fast_custom_tag频率超过每分钟频率限制(VIP用户可根据应用特殊配置)"),
        (30014, 403, "app 推送 频率超过每分钟频率限制，每分钟最多操作5次"), (30015, 403, "list推送 频率超过每分钟频率限制"),
        (30016, 403, "push/tag tag个数超过限制"), (30017, 403, "没有查询单推实时报表的权限"),
        (30018, 403, "查询单推实时报表 频率超过每分钟频率限制"), (30019, 403, "系统繁忙，请稍后重试"),
    ]

    @Test(arguments: getui) func everyCodeHasGetuisStatusAndDescription(code: Int, status: Int, message: String) throws {
        let row = try #require(GetuiCode(rawValue: code))
        #expect(row.status == status)
        #expect(row.message == message)
    }

    @Test func theTableHasNoOtherRows() {
        #expect(Set(GetuiCode.allCases.map(\.rawValue)) == Set(Self.getui.map(\.0)))
        #expect(GetuiCode.table.count == GetuiCode.allCases.count)
    }

    /// 20001's `msg` takes the forms of Getui's 20000 table.
    @Test func parameterProblemsAreWordedAsGetuiWordsThem() throws {
        let forms: [(GetuiRefusal.ParameterProblem, String)] = [
            (.invalid("ttl"), "ttl is invalid"), (.empty("request_id"), "request_id can not be empty"),
            (.typeError("settings"), "settings type error"), (.sizeOverLimit("msg_list"), "msg_list size over limit"),
            (.targetUserInvalid, "target user is invalid"), (.repeated("request_id"), "request_id cannot be repeat."),
            (.chooseOneOfNotificationTransmissionRevoke, "please choose one of notification and transmission and revoke"),
        ]
        for (problem, text) in forms {
            let refusal = GetuiRefusal.parameter(problem)
            #expect(refusal.message == text)
            #expect(refusal.status == 400)
            let body = try JSON.parse(refusal.response.body)
            #expect(body == .object(["code": 20001, "msg": .string(text)]))
            #expect(refusal.response.status == 400)
        }
        #expect(GetuiRefusal.parameter(.invalid("ttl"), "-1 or 0 to 259200000 ms").message == "ttl is invalid: -1 or 0 to 259200000 ms")
        #expect(GetuiRefusal(.tokenInvalid).response.status == 401)
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
    static func token(_ routes: GetuiRoutes, inbox: Inbox = keyed(), at date: Date = now, timestamp: Date = now) throws -> String {
        let milliseconds = String(Int64((timestamp.timeIntervalSince1970 * 1000).rounded()))
        guard case .respond(let response) = routes.decide(getuiRequest("auth", body: authBody(timestamp: milliseconds)), context: GatewayContext(inbox: inbox, now: date)) else {
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
        let wrongSecret = getuiRefusal(routes.decide(getuiRequest("auth", body: authBody(secret: "wrong")), context: context))
        #expect(wrongSecret.code == 20001)
        #expect(wrongSecret.status == 400)
        #expect(wrongSecret.msg.hasPrefix("sign is invalid"))
        #expect(getuiRefusal(routes.decide(getuiRequest("auth", body: authBody(appKey: "other")), context: context)).msg.hasPrefix("appkey is invalid"))
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: #"{"sign":"x","timestamp":"1700000100000","appkey":"k"}"#), context: context)) == 20001)
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: #"{"sign":"x"}"#), context: context)) == 20001)
        // Without a key, a well-formed sign is enough.
        let open = GatewayContext(inbox: Inbox(), now: now)
        #expect(getuiCode(routes.decide(getuiRequest("auth", body: authBody(secret: "anything")), context: open)) == 0)
    }

    /// Getui's `timestamp` is the current time in milliseconds; one more than ten minutes from
    /// the server's clock is refused (20001, as a bad sign is), with a registered key or without.
    @Test func authRefusesATimestampFarFromTheClock() throws {
        let routes = GetuiRoutes()
        let clock = Int64(now.timeIntervalSince1970 * 1000)
        for inbox in [Self.keyed(), Inbox()] {
            let context = GatewayContext(inbox: inbox, now: now)
            for timestamp in [1_500_000_000_000, 9_999_999_999_999, clock - 600_001, clock + 600_001] {
                let refusal = getuiRefusal(routes.decide(getuiRequest("auth", body: authBody(timestamp: String(timestamp))), context: context))
                #expect(refusal.code == 20001, "\(timestamp)")
                #expect(refusal.status == 400)
                #expect(refusal.msg.hasPrefix("timestamp is invalid"), "\(refusal.msg)")
            }
            for timestamp in [clock, clock - 600_000, clock + 600_000] {
                #expect(getuiCode(routes.decide(getuiRequest("auth", body: authBody(timestamp: String(timestamp))), context: context)) == 0, "\(timestamp)")
            }
        }
    }

    /// One body sent again and again mints at most the per-app cap of live tokens: the oldest
    /// goes first (a backend holding it gets 10001 and authenticates again, as Getui's SDKs do).
    @Test func tokensPerAppAreCappedOldestFirst() throws {
        let routes = GetuiRoutes()
        let tokens = try (0..<1001).map { _ in try Self.token(routes) }
        #expect(!routes.sessions.isValid(tokens[0], appId: getuiAppId, now: now))
        #expect(routes.sessions.isValid(tokens[1000], appId: getuiAppId, now: now))
        #expect(tokens.filter { routes.sessions.isValid($0, appId: getuiAppId, now: now) }.count < 1000)
    }

    /// Expired tokens are dropped as new ones are handed out, and all appIds together keep at
    /// most `maxTokens`: the table holds live tokens only, however many calls came.
    @Test func expiredTokensArePrunedAndEveryAppTogetherIsCapped() {
        let sessions = GetuiSessions()
        let first = (0..<500).map { sessions.issue(appId: "app\($0 % 50)", expires: now.addingTimeInterval(60), now: now) }
        #expect(sessions.tokenCount == 500)
        let later = sessions.issue(appId: "app0", expires: now.addingTimeInterval(121), now: now.addingTimeInterval(61))
        #expect(sessions.tokenCount == 1)
        #expect(!sessions.isValid(first[0], appId: "app0", now: now))
        #expect(sessions.isValid(later, appId: "app0", now: now.addingTimeInterval(61)))
        let many = (0..<(GetuiSessions.maxTokens + 10)).map {
            sessions.issue(appId: "many\($0 / GetuiSessions.maxTokensPerApp)", expires: now.addingTimeInterval(200), now: now.addingTimeInterval(62))
        }
        #expect(sessions.tokenCount == GetuiSessions.maxTokens)
        #expect(!sessions.isValid(later, appId: "app0", now: now.addingTimeInterval(62)))
        #expect(!sessions.isValid(many[9], appId: "many0", now: now.addingTimeInterval(62)))
        #expect(sessions.isValid(many[10], appId: "many0", now: now.addingTimeInterval(62)))
        #expect(sessions.isValid(many[many.count - 1], appId: "many\((many.count - 1) / GetuiSessions.maxTokensPerApp)", now: now.addingTimeInterval(62)))
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
        // Decoded once, by the route, and handed on as the inbox's own decoder would decode it.
        #expect(try #require(push.decoded) == (try PushDecoder().decode(push)))
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

    /// push/single/alias reaches the cids bound to the alias (`device add --alias`), recorded
    /// under the first; an alias nobody is bound to is 20001 `target user is invalid`.
    @Test func anAliasReachesItsBoundCid() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-alias.json")
        var inbox = Self.keyed()
        let nobody = getuiRefusal(routes.decide(getuiRequest("push/single/alias", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)))
        #expect(nobody.status == 400)
        #expect(nobody.code == 20001)
        #expect(nobody.msg.hasPrefix("target user is invalid"))
        inbox.devices["other-app-cid"] = Device(token: "other-app-cid", app: "anotherApp1", vendor: .getui, alias: "user-892")
        inbox.devices[getuiCid] = Device(token: getuiCid, app: getuiAppId, vendor: .getui, alias: "user-892")
        guard case .request(.push(let push), let answer) = routes.decide(getuiRequest("push/single/alias", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)) else {
            Issue.record("refused")
            return
        }
        #expect(push.token == getuiCid)
        #expect(push.headers["alias"] == "user-892")
        #expect(getuiAnswer(answer(.push(PushReply(.delivered(id: 1), badge: 1)))).data == [push.headers["taskid"] ?? "": .object([getuiCid: "successed_online"])])
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
        let missing = getuiRefusal(routes.decide(getuiRequest("push/single/cid", body: body), context: GatewayContext(inbox: inbox, now: now)))
        #expect(missing.code == 10001)
        #expect(missing.status == 401)
        #expect(missing.msg == "token错误/失效")
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

    /// What the server does with the decision's pushes: each decoded and reduced into `inbox`
    /// (which records its request id), then answered with the replies.
    @discardableResult
    static func apply(_ decision: GatewayDecision, to inbox: inout Inbox, at date: Date = now) throws -> HTTPResponse? {
        func reduced(_ request: Request) throws -> Reply {
            guard case .push(let push) = request else { throw WireError("not a push") }
            let effects = reduce(into: &inbox, .push(try PushDecoder().decode(push), at: date), now: Instant(nanoseconds: 0))
            return effects.compactMap { effect -> Reply? in if case .reply(let reply) = effect { reply } else { nil } }.first ?? .ok
        }
        switch decision {
        case .respond(let response): return response
        case .request(let request, let answer): return answer(try reduced(request))
        case .requests(let requests, let answer): return answer(try requests.map(reduced))
        case .expect: return nil
        }
    }

    @Test func aRepeatedRequestIdIsRefusedForADay() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-cid-notification.json")
        var inbox = Self.keyed()
        let first = try Self.apply(routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)), to: &inbox)
        #expect(first.map(getuiAnswer)?.code == 0)
        #expect(inbox.getuiRequestIds.contains(app: getuiAppId, requestId: "pushdeck-notif-0001", now: now))
        for later in [now, now.addingTimeInterval(86_399)] {
            let repeated = getuiRefusal(routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: later)))
            #expect(repeated.status == 400)
            #expect(repeated.code == 20001)
            #expect(repeated.msg.hasPrefix("request_id cannot be repeat."))
        }
        // A day later it is new again (the token, a day old too, is renewed first).
        let nextDay = now.addingTimeInterval(86_400)
        let renewed = try Self.token(routes, at: nextDay, timestamp: nextDay)
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: renewed, body: body), context: GatewayContext(inbox: inbox, now: nextDay)) else {
            Issue.record("a day-old request id was refused")
            return
        }
        // Another app's same request id is its own.
        #expect(!inbox.getuiRequestIds.contains(app: "anotherApp1", requestId: "pushdeck-notif-0001", now: now))
    }

    /// The request id is recorded by the push itself: a push that was not stored (a failed
    /// commit reloads the inbox from the store, without it) leaves it free for the retry.
    @Test func aPushNotStoredLeavesItsRequestIdFree() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "single-cid-notification.json")
        let context = GatewayContext(inbox: Self.keyed(), now: now)
        guard case .request(_, let answer) = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: context) else {
            Issue.record("refused")
            return
        }
        let failed = answer(.error("disk"))
        #expect(getuiAnswer(failed).code == 30019)
        #expect(failed.status == 403)
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: context) else {
            Issue.record("the retry was refused")
            return
        }
    }

    /// Ids are forgotten a day after their use as newer ones are recorded, and at most
    /// `capacity` are kept.
    @Test func requestIdsAreForgottenADayLater() {
        var ids = GetuiRequestIds()
        for index in 0..<1000 { ids.record(app: "a", requestId: "r\(index)", at: now.addingTimeInterval(Double(index))) }
        #expect(ids.count == 1000)
        ids.record(app: "a", requestId: "late", at: now.addingTimeInterval(86_400 + 499.5))
        #expect(ids.count == 501)
        #expect(!ids.contains(app: "a", requestId: "r499", now: now.addingTimeInterval(86_400 + 499.5)))
        #expect(ids.contains(app: "a", requestId: "r500", now: now.addingTimeInterval(86_400 + 499.5)))
        // Used again: remembered from the newer use.
        ids.record(app: "a", requestId: "r500", at: now.addingTimeInterval(86_400 + 600))
        ids.record(app: "a", requestId: "later", at: now.addingTimeInterval(86_400 + 700))
        #expect(ids.contains(app: "a", requestId: "r500", now: now.addingTimeInterval(86_400 + 700)))
        #expect(!ids.contains(app: "a", requestId: "r501", now: now.addingTimeInterval(86_400 + 700)))
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
    ]

    @Test(arguments: refusals) func refusedWith20001(label: String, endpoint: String, body: String) throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let refusal = getuiRefusal(routes.decide(getuiRequest(endpoint, token: token, body: body), context: GatewayContext(inbox: Self.keyed(), now: now)))
        #expect(refusal.code == 20001, "\(label)")
        #expect(refusal.status == 400, "\(label)")
    }

    /// A body that is not JSON is Getui's code 1 (its table: "接口入参要求是 json 格式"), HTTP 200.
    @Test func aBodyThatIsNotJSONIsCode1() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let refusal = getuiRefusal(routes.decide(getuiRequest("push/single/cid", token: token, body: "{nope"), context: GatewayContext(inbox: Self.keyed(), now: now)))
        #expect(refusal.code == 1)
        #expect(refusal.status == 200)
    }

    @Test func aBatchIsOneRequestPerMessageAnsweredTogether() throws {
        let routes = GetuiRoutes()
        let token = try Self.token(routes)
        let body = try GatewayFixtures.text("getui", "batch-cid.json")
        var inbox = Self.keyed()
        let decision = routes.decide(getuiRequest("push/single/batch/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now))
        guard case .requests(let requests, let answer) = decision else {
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
        // Stored, the same ids again are refused, all of them.
        try Self.apply(decision, to: &inbox)
        #expect(inbox.getuiRequestIds.count == 2)
        #expect(getuiRefusal(routes.decide(getuiRequest("push/single/batch/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now))).msg.hasPrefix("request_id cannot be repeat."))
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
        #expect(getuiRefusal(routes.decide(getuiRequest("push/single/batch/cid", token: token, body: #"{"msg_list":[\#(good),\#(good)]}"#), context: context)).msg.hasPrefix("request_id cannot be repeat."))
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
        let unknown = getuiRefusal(routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)))
        #expect(unknown.code == 20001)
        #expect(unknown.msg.hasPrefix("target user is invalid"))
        inbox.devices[getuiCid] = Device(token: getuiCid, app: getuiAppId, vendor: .getui)
        guard case .request = routes.decide(getuiRequest("push/single/cid", token: token, body: body), context: GatewayContext(inbox: inbox, now: now)) else {
            Issue.record("a registered cid was refused")
            return
        }
    }

    @Test func unknownPathsAndMethods() {
        let routes = GetuiRoutes()
        let context = GatewayContext(inbox: Inbox(), now: now)
        guard case .respond(let missing) = routes.decide(getuiRequest("push/single/nope", body: "{}"), context: context) else { Issue.record("accepted"); return }
        #expect(missing.status == 404)
        guard case .respond(let get) = routes.decide(getuiRequest("auth", method: "GET", body: "{}"), context: context) else { Issue.record("accepted"); return }
        #expect(get.status == 405)
    }
}

@Suite struct GatewayFixtureTests {
    /// Every request example is listed in Resources/README.md and sent by a test here.
    @Test(arguments: [
        ("jpush", ["bad-audience-tag.json", "device-set-tags-alias.json", "push-alias.json", "push-all-alert.json", "push-message.json", "push-notification-and-message.json",
                   "push-registration-id-ios.json", "push-tag-and.json", "push-tag-not-message.json", "push-ttl-zero-message.json"]),
        ("getui", ["batch-cid.json", "push-all.json", "single-alias.json", "single-cid-ios-channel.json", "single-cid-no-offline.json", "single-cid-notification.json",
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
