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

/// A refusal's message.
func jpushMessage(_ decision: GatewayDecision) -> String {
    guard case .respond(let response) = decision else { return "" }
    return (try? JSON.parse(response.body))?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? ""
}

extension String {
    /// The `audience` of a JPush body, as text.
    var audience: String {
        ((try? JSON.parse(self))?.objectValue?["audience"]).map(\.compactText) ?? ""
    }
}

@Suite struct JPushErrorTableTests {
    /// JPush's Push API v3 response codes with their HTTP status, row by row, as jpush/jpush-docs
    /// `zh/jpush/server/push/rest_api_v3_push.md` ("调用返回") lists them, and the message: the
    /// server's own words where JPush's repositories record them (1004 in that page's failed
    /// response, 1011 as users of its PHP and Java client libraries quote the server), else
    /// the English table's description (`en/docs/jpush/server/push/rest_api_v3_push.md`; 1012,
    /// 2006 and 2007 only the Chinese table has).
    static let jpush: [(Int, Int, String)] = [
        (1000, 500, "Internal System Error"), (1001, 405, "Only HTTP Post methods are supported"),
        (1002, 400, "Necessary parameters are missed."), (1003, 400, "The parameter value is illegal"),
        (1004, 401, "Authen failed"), (1005, 400, "Message body is too large"), (1008, 400, "Illegal app_key parameter"),
        (1009, 400, "Unsupported key in push object"), (1011, 400, "cannot find user by this audience"),
        (1012, 400, "符合当前条件的推送已超过限制"), (1020, 404, "Only supports HTTPS requests"), (1030, 503, "Internal service timeout"),
        (2002, 429, "Call frequency of API exceeds the limit of the application"),
        (2003, 403, "The appkey has been restricted from calling the API"),
        (2004, 403, "No permission to perform the current operation"),
        (2005, 403, "The amount of information sent exceeds a reasonable range."), (2006, 403, "非VIP用户。"), (2007, 403, "无权调用此接口。"),
    ]

    @Test(arguments: jpush) func everyCodeHasJPushsStatusAndMessage(code: Int, status: Int, message: String) throws {
        let row = try #require(JPushError(rawValue: code))
        #expect(row.status == status)
        #expect(row.message == message)
    }

    /// 1003 as JPush's servers word it (`'time_to_live' value is invalid.`, as its Java client's users quote it).
    @Test func anInvalidFieldIsNamedAsJPushNamesIt() throws {
        let body = #"{"platform":"all","audience":"all","notification":{"alert":"x"},"options":{"time_to_live":-1}}"#
        guard case .respond(let response) = JPushRoutes().decide(jpushRequest(body: body), context: JPushRoutesTests.context) else {
            Issue.record("accepted")
            return
        }
        #expect(response.status == 400)
        let error = try #require(try JSON.parse(response.body).objectValue?["error"]?.objectValue)
        #expect(error["code"] == 1003)
        #expect(error["message"]?.stringValue?.hasPrefix("'time_to_live' value is invalid.") == true)
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
        // Decoded once, by the route, and handed on as the inbox's own decoder would decode it.
        #expect(try #require(push.decoded) == (try PushDecoder().decode(push)))
        let msgId = try #require(push.headers["msg_id"])
        let reply = answer(.push(PushReply(.delivered(id: 1), badge: 1)))
        #expect(reply.status == 200)
        let object = try #require(try JSON.parse(reply.body).objectValue)
        #expect(object["msg_id"] == .string(msgId))
        #expect(object["sendno"] == .string(push.headers["sendno"] ?? "?"))
        // A store failure is JPush's 1000, not a success.
        #expect(jpushCode(.respond(answer(.error("disk")))) == (500, 1000))
    }

    @Test func theRequestLogNamesEveryRegistrationIdAndTheSendno() throws {
        let ids = ["1a0018970a8b2b2c1", "140fe1da9e8a7a1f2", "190e35f7e07b3c7a3"]
        let body = #"{"platform":["ios"],"audience":{"registration_id":["\#(ids.joined(separator: #"",""#))"]},"notification":{"alert":"hi"},"options":{"sendno":42}}"#
        let request = jpushRequest(body: body)
        let decision = JPushRoutes().decide(request, context: Self.context)
        guard case .request = decision else {
            Issue.record("refused: \(jpushMessage(decision))")
            return
        }
        let summary = JPushRoutes().summarize(request, decision: decision)
        #expect(summary.tokens == ids)
        #expect(summary.ids["sendno"] == "42")
        #expect(summary.notificationKey == "sendno:42")
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
        ("message over 4000 bytes", jpushRequest(body: #"{"platform":"all","audience":"all","message":{"msg_content":""# + String(repeating: "m", count: 3990) + #""}}"#), 400, 1005),
        ("negative ttl", jpushRequest(body: #"{"platform":"all","audience":"all","notification":{"alert":"Hi"},"options":{"time_to_live":-1}}"#), 400, 1003),
        ("long collapse id", jpushRequest(body: #"{"platform":"all","audience":"all","notification":{"alert":"Hi"},"options":{"apns_collapse_id":""# + String(repeating: "c", count: 65) + #""}}"#), 400, 1003),
    ]

    @Test(arguments: refusals) func refusedWithJPushsCode(label: String, request: HTTPRequest, status: Int, code: Int) {
        let result = jpushCode(JPushRoutes().decide(request, context: Self.context))
        #expect(result.status == status, "\(label)")
        #expect(result.code == code, "\(label)")
    }

    /// JPush's 1005 for iOS: `"ios":{ }` and what the braces hold at most 2000 bytes (its
    /// `notification.ios` section), the alert taken from `notification.alert` when `ios` has none.
    @Test func theIOSNotificationHoldsAtMost2000Bytes() throws {
        func body(_ alertBytes: Int) -> String {
            #"{"platform":"all","audience":"all","notification":{"alert":""# + String(repeating: "a", count: alertBytes) + #""}}"#
        }
        // "ios":{"alert":"…"} is 18 bytes around the text.
        func iosBytes(_ notification: String) throws -> Int {
            let tape = try JSONTape.parse(Array(notification.utf8))
            return JPushRoutes.iosNotificationBytes(tape.root)
        }
        #expect(try iosBytes(#"{"alert":"abc"}"#) == #""ios":{"alert":"abc"}"#.utf8.count)
        #expect(try iosBytes(#"{"alert":"abc","ios":{"badge":1}}"#) == #""ios":{"badge":1,"alert":"abc"}"#.utf8.count)
        // Counted as compact UTF-8 whatever the backend's JSON library wrote: spaces, \u escapes.
        #expect(try iosBytes(#"{ "ios" : { "alert" : "\u6df1\u5733 \ud83d\ude00 \" \n" } }"#) == #""ios":{"alert":"深圳 😀 \" \n"}"#.utf8.count)
        guard case .request = JPushRoutes().decide(jpushRequest(body: body(2000 - 18)), context: Self.context) else {
            Issue.record("2000 bytes were refused: \(jpushMessage(JPushRoutes().decide(jpushRequest(body: body(2000 - 18)), context: Self.context)))")
            return
        }
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(body: body(2001 - 18)), context: Self.context)) == (400, 1005))
    }

    /// The compact size is counted eight bytes at a time through plain text: texts of every
    /// length, with quotes, escapes and multi-byte characters anywhere (across the eight-byte
    /// blocks), each piece's compact size known.
    @Test func theCompactSizeIsCountedWhereverEscapesFall() throws {
        let pieces: [(text: String, size: Int)] = [
            (#"\""#, 2), (#"\\"#, 2), (#"\n"#, 2), (#"\u00e9"#, 2), (#"\u6df1"#, 3), (#"\ud83d\ude00"#, 4),
            (#"\u0022"#, 2), (#"\u000a"#, 6), (#"\u0041"#, 1), ("深", 3), ("😀", 4),
        ]
        var random = SeededRandom(seed: 25)
        for _ in 0..<500 {
            var text = ""
            var size = 2
            for _ in 0..<Int(random.next() % 12) {
                let run = Int(random.next() % 20)
                text += String(repeating: "x", count: run)
                size += run
                let piece = pieces[Int(random.next() % UInt64(pieces.count))]
                text += piece.text
                size += piece.size
            }
            let document = #"{ "alert" :  ""# + text + #"" }"#
            let tape = try JSONTape.parse(Array(document.utf8))
            #expect(JPushRoutes.compactBytes(tape.root) == #"{"alert":}"#.utf8.count + size, "\(document)")
        }
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

    /// JPush's audience table: tag is OR, tag_and AND, tag_not the NOT of an OR, alias OR, the
    /// kinds ANDed; only this appKey's registered JPush devices count; none is 1011.
    @Test func tagsAndAliasesFindTheAppKeysDevices() throws {
        var inbox = Inbox()
        inbox.devices["rid-shenzhen"] = Device(token: "rid-shenzhen", app: jpushKey, vendor: .jpush, tags: ["深圳", "女", "会员"], alias: "892")
        inbox.devices["rid-beijing"] = Device(token: "rid-beijing", app: jpushKey, vendor: .jpush, tags: ["北京"], alias: "4314")
        inbox.devices["rid-other-app"] = Device(token: "rid-other-app", app: "another", vendor: .jpush, tags: ["深圳", "女", "会员"])
        inbox.devices["rid-gone"] = Device(token: "rid-gone", app: jpushKey, vendor: .jpush, unregisteredAt: now, tags: ["广州", "女", "会员"])
        let context = GatewayContext(inbox: inbox, now: now)
        func reached(_ audience: String) -> [String]? {
            let body = #"{"platform":"all","audience":\#(audience),"notification":{"alert":"Hi"}}"#
            guard case .request(.push(let push), _) = JPushRoutes(devices: .strict).decide(jpushRequest(body: body), context: context) else { return nil }
            return push.headers["registration_id"]?.split(separator: ",").map(String.init)
        }
        #expect(reached(try GatewayFixtures.text("jpush", "push-tag-and.json").audience) == ["rid-shenzhen"])
        #expect(reached(try GatewayFixtures.text("jpush", "push-alias.json").audience) == ["rid-beijing", "rid-shenzhen"])
        #expect(reached(#"{"tag":["深圳","北京"]}"#) == ["rid-beijing", "rid-shenzhen"])
        #expect(reached(#"{"tag":["深圳","北京"],"tag_not":["女"]}"#) == ["rid-beijing"])
        #expect(reached(#"{"tag_and":["深圳","北京"]}"#) == nil)
        #expect(reached(#"{"alias":["892"],"registration_id":["rid-beijing"]}"#) == nil)
        #expect(reached(#"{"alias":["892"],"registration_id":["rid-beijing","rid-shenzhen"]}"#) == ["rid-shenzhen"])
        // Nobody: 1011, JPush's words first.
        let body = #"{"platform":"all","audience":{"tag":["广州"]},"notification":{"alert":"Hi"}}"#
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(body: body), context: context)) == (400, 1011))
        #expect(jpushMessage(JPushRoutes().decide(jpushRequest(body: body), context: context)).hasPrefix("cannot find user by this audience"))
        // The push is recorded under the first device it reaches.
        guard case .request(.push(let push), _) = JPushRoutes().decide(
            jpushRequest(body: try GatewayFixtures.text("jpush", "push-tag-not-message.json")), context: context)
        else {
            Issue.record("refused")
            return
        }
        #expect(push.token == "rid-beijing")
    }

    static let twentyOneTags = (1...21).map { "\"t\($0)\"" }.joined(separator: ",")
    static let badAudiences: [(String, Int)] = [
        (#"{"tag":[""]}"#, 1003), (#"{"alias":["\#(String(repeating: "a", count: 41))"]}"#, 1003), (#"{"tag":"深圳"}"#, 1003),
        (#"{"tag":["# + twentyOneTags + "]}", 1003), (#"{"city":["深圳"]}"#, 1003), ("{}", 1003),
        (#"{"tag":[]}"#, 1003), (#"{"segment":["s1"]}"#, 1011), (#"{"abtest":["a1"]}"#, 1011), (#"{"tag":["nobody"]}"#, 1011),
    ]

    @Test(arguments: badAudiences) func badOrEmptyAudiences(audience: String, code: Int) {
        let body = #"{"platform":"all","audience":\#(audience),"notification":{"alert":"Hi"}}"#
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(body: body), context: Self.context)) == (400, code), "\(audience)")
    }

    /// JPush's Device API: POST sets tags (add/remove, "" clears) and the alias ("" removes) of a
    /// registration id of the appKey, as `device add` would; GET reads them; 7xxx refusals.
    @Test func theDeviceAPISetsAndReadsTagsAndAlias() throws {
        var inbox = Inbox()
        inbox.devices[jpushRegistrationId] = Device(token: jpushRegistrationId, app: jpushKey, vendor: .jpush, offline: true, tags: ["old", "keep"])
        let context = GatewayContext(inbox: inbox, now: now)
        let path = "/v3/devices/\(jpushRegistrationId)"
        let body = #"{"tags":{"add":["深圳","vip"],"remove":["old"]},"alias":"user_892","mobile":"13012345678"}"#
        guard case .request(.device(.add(let device)), let answer) = JPushRoutes().decide(jpushRequest(path: path, body: body), context: context) else {
            Issue.record("the Device API did not change the device")
            return
        }
        #expect(device.tags == ["keep", "vip", "深圳"])
        #expect(device.alias == "user_892")
        #expect(device.app == jpushKey && device.vendor == .jpush)
        let ok = answer(.device(device))
        #expect(ok.status == 200 && ok.body.isEmpty)
        #expect(answer(.error("disk")).status == 500)
        // Cleared with "".
        guard case .request(.device(.add(let cleared)), _) = JPushRoutes().decide(jpushRequest(path: path, body: #"{"tags":"","alias":""}"#), context: context) else {
            Issue.record("refused")
            return
        }
        #expect(cleared.tags.isEmpty && cleared.alias == nil)
        // GET reads them.
        guard case .respond(let got) = JPushRoutes().decide(jpushRequest(method: "GET", path: path, body: ""), context: context) else {
            Issue.record("GET went into the inbox")
            return
        }
        #expect(try JSON.parse(got.body) == .object(["tags": ["keep", "old"], "alias": .null, "mobile": .null]))
        // Refusals: the Device API's codes and statuses.
        let refusals: [(HTTPRequest, Int, Int)] = [
            (jpushRequest(path: path, authorization: basic(jpushKey, jpushSecret), body: #"{"tags":{"add":[""]}}"#), 400, 7002),
            (jpushRequest(path: path, body: #"{"tags":["a"]}"#), 400, 7002),
            (jpushRequest(path: path, body: #"{"alias":"\#(String(repeating: "a", count: 41))"}"#), 400, 7002),
            (jpushRequest(path: path, body: "{nope"), 400, 7002),
            (jpushRequest(path: path, authorization: nil, body: "{}"), 401, 7001),
            (jpushRequest(path: path, authorization: basic("a b", "s"), body: "{}"), 400, 7008),
            (jpushRequest(path: "/v3/devices/someone-else", body: "{}"), 400, 7002),
        ]
        var foreign = inbox
        foreign.devices["someone-else"] = Device(token: "someone-else", app: "another", vendor: .jpush)
        for (request, status, code) in refusals {
            #expect(jpushCode(JPushRoutes().decide(request, context: GatewayContext(inbox: foreign, now: now))) == (status, code), "\(request.path) \(String(decoding: request.body, as: UTF8.self))")
        }
        var keyed = inbox
        keyed.providerKeys[jpushKey] = ProviderKey(id: jpushKey, vendor: .jpush, secret: jpushSecret)
        #expect(jpushCode(JPushRoutes().decide(jpushRequest(path: path, authorization: basic(jpushKey, "wrong"), body: "{}"), context: GatewayContext(inbox: keyed, now: now))) == (401, 7004))
        // An unknown registration id: registered under open, refused under strict.
        guard case .request(.device(.add(let fresh)), _) = JPushRoutes().decide(jpushRequest(path: "/v3/devices/newdevice01", body: #"{"alias":"a1"}"#), context: context) else {
            Issue.record("open did not register the id")
            return
        }
        #expect(fresh == Device(token: "newdevice01", app: jpushKey, vendor: .jpush, alias: "a1"))
        // JPush's own example body.
        let example = try GatewayFixtures.text("jpush", "device-set-tags-alias.json")
        guard case .request(.device(.add(let documented)), _) = JPushRoutes().decide(jpushRequest(path: path, body: example), context: context) else {
            Issue.record("the documented example was refused")
            return
        }
        #expect(documented.tags == ["keep", "old", "tag1", "tag2"])
        #expect(documented.alias == "alias1")
        #expect(jpushCode(JPushRoutes(devices: .strict).decide(jpushRequest(path: "/v3/devices/newdevice01", body: "{}"), context: context)) == (400, 7002))
    }

    /// JPush's Device API limits: 1 000 tags a device; an add or remove at most 100 tags and
    /// 1 000 bytes; a tag or alias 1 to 40 bytes of letters (CJK too), digits, `_` and
    /// `@!#$&*+=.|`. Refused whole with 7002: nothing of the request is applied.
    @Test func theDeviceAPIHoldsJPushsLimits() throws {
        let full = Device(token: jpushRegistrationId, app: jpushKey, vendor: .jpush, tags: (0..<1000).map { "t\($0)" }, alias: "a1")
        func change(_ body: String, of device: Device = full) -> Result<Device, JPushDeviceRefusal> {
            JPushDeviceAPI.change(Array(body.utf8), of: device)
        }
        func list(_ tags: [String]) -> String { "[" + tags.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        let refused: [String] = [
            #"{"tags":{"add":["t1000"]}}"#,
            #"{"tags":{"add":["t1000"]},"alias":"a2"}"#,
            #"{"alias":"a2","tags":{"add":["t1000"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["t1000","t1001"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["a b"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["a-b"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["a\u0007"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["😀"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["\#(String(repeating: "x", count: 41))"]}}"#,
            #"{"tags":{"remove":["t0"],"add":["\#(String(repeating: "深", count: 14))"]}}"#,
            #"{"tags":{"remove":\#(list((0..<30).map { "t\($0)" })),"add":\#(list((0..<30).map { String(repeating: "y", count: 35) + "\($0)" }))}}"#,
            #"{"tags":{"remove":\#(list((0..<30).map { String(repeating: "y", count: 35) + "\($0)" }))}}"#,
            #"{"alias":"a b"}"#,
            #"{"alias":"\#(String(repeating: "a", count: 41))"}"#,
        ]
        for body in refused {
            guard case .failure(let refusal) = change(body) else {
                Issue.record("taken: \(body.prefix(120))")
                continue
            }
            #expect(refusal.error == .invalidParameter, "\(body.prefix(120))")
            #expect(refusal.response.status == 400)
        }
        // Within the limits: a swap at 1 000, every allowed character, CJK of 39 bytes, 40 bytes.
        let taken: [String] = [
            #"{"tags":{"remove":["t0"],"add":["t1000"]}}"#,
            #"{"tags":{"remove":["t0","t1"],"add":["Az09_@!#$&*+=.|","\#(String(repeating: "深", count: 13))"]},"alias":"会员_1@x.cn"}"#,
            #"{"tags":{"remove":["t0"],"add":["\#(String(repeating: "x", count: 40))"]},"alias":"\#(String(repeating: "a", count: 40))"}"#,
            #"{"tags":{"add":["t1","t2"]}}"#,
        ]
        for body in taken {
            guard case .success(let device) = change(body) else {
                Issue.record("refused: \(body.prefix(120))")
                continue
            }
            #expect(device.tags.count == 1000, "\(body.prefix(120))")
        }
        // A device past the limit (`device add` takes any number) may only shrink.
        let over = Device(token: jpushRegistrationId, app: jpushKey, vendor: .jpush, tags: (0..<1200).map { "t\($0)" })
        #expect((try? change(#"{"tags":{"remove":["t0"]}}"#, of: over).get())?.tags.count == 1199)
        #expect((try? change(#"{"tags":{"remove":["t0"],"add":["u0"]}}"#, of: over).get()) == nil)
    }

    @Test func theDeviceAPICodesAreJPushs() {
        let rows: [(Int, Int, String)] = [
            (7000, 500, "内部错误"), (7001, 401, "校验信息为空"), (7002, 400, "请求参数非法"), (7004, 401, "校验失败"),
            (7008, 400, "appkey 不存在"), (7013, 400, "部分请求参数非法"), (7030, 503, "系统繁忙，稍后重试"),
        ]
        #expect(Set(JPushDeviceError.allCases.map(\.rawValue)) == Set(rows.map(\.0)))
        for (code, status, message) in rows {
            #expect(JPushDeviceError(rawValue: code)?.status == status)
            #expect(JPushDeviceError(rawValue: code)?.message == message)
        }
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
