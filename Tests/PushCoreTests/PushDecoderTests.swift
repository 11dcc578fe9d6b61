import PushCore
import TestSupport
import Testing
import PushJSON

@Suite("Push decoding")
struct PushDecoderTests {
    private func decode(_ text: String, app: String? = nil, channel: Channel? = nil, offline: Bool = false, max: Int = 4096) throws -> Push {
        try PushDecoder(maxPayloadBytes: max).decode(PushRequest(payloadText: text, app: app, channel: channel, offline: offline))
    }

    // MARK: - Channel and app

    @Test func channelFollowsApsUnlessTheRequestSays() throws {
        #expect(try decode(PayloadBuilder.apns(alert: "Hi")).channel == .apns)
        #expect(try decode(#"{"content":"Hi"}"#).channel == .transparent)
        #expect(try decode(PayloadBuilder.apns(alert: "Hi"), channel: .transparent).channel == .transparent)
        #expect(try decode(#"{"content":"Hi"}"#, channel: .apns).channel == .apns)
    }

    @Test func appInference() throws {
        #expect(try decode(PayloadBuilder.apns(alert: "x", app: "com.example.shop")).app == "com.example.shop")
        #expect(try decode(PayloadBuilder.apns(alert: "x", app: "com.example.shop"), app: "com.example.chat").app == "com.example.chat")
        #expect(try decode(#"{"Simulate Target Bundle":"com.example.news","aps":{}}"#).app == "com.example.news")
        #expect(try decode(#"{"appId":"com.example.chat","payload":"hi"}"#).app == "com.example.chat")
        #expect(try decode(#"{"appKey":"com.example.news","content":"hi"}"#).app == "com.example.news")
        #expect(try decode(#"{"aps":{"alert":"x"}}"#).app == "default")
        #expect(try decode(#"{"Simulator Target Bundle":"","appId":"com.example.shop"}"#).app == "com.example.shop")
        #expect(try decode(#"{"Simulator Target Bundle":"{app_bundle_id}","aps":{}}"#).app == "{app_bundle_id}")
    }

    /// A member is found by its name however the name is written (escapes, non-ASCII), and a
    /// name given twice is read at its last place, as a parser keeping the last value would.
    @Test func membersAreFoundByTheirNamesTheLastOneWins() throws {
        let push = try decode(#"""
            {"\u0061ps":{"alert":"first"},"aps":{"alert":{"t\u0069tle":"T","body":"B","body":"B2"},"badg\u0065":3},
             "Simulator Target Bundle":"com.example.first","Simulator Target Bundle":"com.example.shop",
             "taskId":"t-1","msgId":"m-1","payloadX":"not a member it reads","apsé":{"alert":"no"}}
            """#)
        #expect(push.title == "T" && push.body == "B2" && push.badge == .set(3))
        #expect(push.app == "com.example.shop" && push.taskId == "t-1" && push.msgId == "m-1")
        let nonASCII = try decode(#"{"aps":{"alert":"x"},"appId":"\u00e9t\u00e9","Simulate Target Bundle":"été"}"#)
        #expect(nonASCII.app == "été")
        let presented = try decode(#"""
            {"aps":{"alert":"x","thread-id":"first","thread-\u0069d":"orders","interruption-level":"passive",
             "interruption-level":"time-sensitive","content-available":1,"relevance-score":0.5}}
            """#)
        #expect(presented.threadId == "orders" && presented.interruption == .timeSensitive)
        #expect(presented.relevance == 0.5 && !presented.silent)
    }

    @Test func theRequestCanMarkItOffline() throws {
        #expect(try decode(#"{"payload":"x"}"#, offline: true).offline)
        #expect(try decode(#"{"payload":"x","offLine":true}"#).offline)
        #expect(try decode(#"{"payload":"x","offLine":1}"#).offline)
        #expect(try !decode(#"{"payload":"x","offLine":false}"#).offline)
    }

    // MARK: - APNs

    @Test func alertShapes() throws {
        let plain = try decode(PayloadBuilder.apns(alert: "订单 1270339 已发货"))
        #expect(plain.title == nil && plain.body == "订单 1270339 已发货")
        let dict = try decode(PayloadBuilder.apns(alert: ["title": "官方客服", "subtitle": "121店", "body": "您好"]))
        #expect(dict.title == "官方客服" && dict.subtitle == "121店" && dict.body == "您好")
        let silent = try decode(PayloadBuilder.apns(aps: ["content-available": 1]))
        #expect(silent.title == nil && silent.body == nil && silent.badge == nil)
        let nullAlert = try decode(#"{"aps":{"alert":null,"badge":null}}"#)
        #expect(nullAlert.body == nil && nullAlert.badge == nil)
    }

    @Test func localizedKeysShowTheirArguments() throws {
        let push = try decode(PayloadBuilder.apns(alert: [
            "title-loc-key": "GAME_TITLE", "title-loc-args": ["Bob"], "subtitle-loc-key": "SUB",
            "loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Jenna", 2, "Frank"],
        ]))
        #expect(push.title == "GAME_TITLE(Bob)")
        #expect(push.subtitle == "SUB")
        #expect(push.body == "GAME_PLAY_REQUEST_FORMAT(Jenna, 2, Frank)")
        let withText = try decode(PayloadBuilder.apns(alert: ["body": "Text wins", "loc-key": "KEY"]))
        #expect(withText.body == "Text wins")
    }

    @Test func apnsBadgeSetsTheBadge() throws {
        #expect(try decode(PayloadBuilder.apns(alert: "x", badge: 7)).badge == .set(7))
        #expect(try decode(PayloadBuilder.apns(badge: 0)).badge == .set(0))
        #expect(try decode(PayloadBuilder.apns(alert: "x")).badge == nil)
    }

    @Test func anyTypeOfTheOtherAPSKeysIsAccepted() throws {
        let push = try decode(PayloadBuilder.apns(alert: "x", aps: [
            "sound": ["critical": 1, "name": "a.caf", "volume": .number(JSONNumber(text: "0.5"))], "category": "C", "thread-id": 5280,
            "content-available": true, "mutable-content": false, "interruption-level": "critical",
            "relevance-score": 1, "custom": ["zulip": ["ids": [1]]],
        ]))
        #expect(push.body == "x")
    }

    @Test func getuiOverAPNs() throws {
        let model = PayloadBuilder.stPushModel(title: "订单通知", content: "订单 1270339 已发货", url: "https://m.example.com/trace/1270339")
        let withAlert = try decode(PayloadBuilder.apns(alert: "APNs text", extra: ["payload": model]))
        #expect(withAlert.body == "APNs text")
        #expect(withAlert.title == "订单通知")  // the aps has no title of its own
        #expect(withAlert.url == "https://m.example.com/trace/1270339")
        let silent = try decode(PayloadBuilder.apns(aps: ["content-available": 1], extra: ["payload": model]))
        #expect(silent.title == "订单通知" && silent.body == "订单 1270339 已发货")
        let urlOnly = try decode(PayloadBuilder.apns(alert: "x", extra: ["payload": #"{"url":"app://order/1"}"#]))
        #expect(urlOnly.url == "app://order/1" && urlOnly.body == "x")
        let topLevelURL = try decode(PayloadBuilder.apns(alert: "x", extra: ["url": "https://example.com/a"]))
        #expect(topLevelURL.url == "https://example.com/a")
        let customNumber = try decode(PayloadBuilder.apns(alert: "x", extra: ["payload": 5]))
        #expect(customNumber.body == "x")
    }

    // MARK: - Getui pass-through

    @Test func stPushModel() throws {
        let push = try decode(PayloadBuilder.getui(
            payload: PayloadBuilder.stPushModel(title: "官方客服", content: "您有一条新消息"), appId: "com.example.shop",
            taskId: "t-9", msgId: nil))
        #expect(push.channel == .transparent)
        #expect(push.app == "com.example.shop")
        #expect(push.title == "官方客服" && push.body == "您有一条新消息" && push.url == "3?_from=push")
        #expect(push.taskId == "t-9")
        #expect(push.msgId == "1270339")  // the model's mid stands in for a missing msgId
    }

    @Test func stPushModelWithNumbersAsTheSampleAppLogsThem() throws {
        let model = #"{\"content\":\"dsfdsnfds\",\"id\":5077,\"mid\":1270339,\"title\":\"dsfdsnfds\",\"url\":\"3?_from=push\",\"urlType\":3}"#
        let push = try decode(#"{"taskId":"t","msgId":"m","payload":""# + model + #""}"#)
        #expect(push.title == "dsfdsnfds" && push.body == "dsfdsnfds" && push.url == "3?_from=push" && push.msgId == "m")
    }

    @Test func plainAndOddPayloadStrings() throws {
        #expect(try decode(PayloadBuilder.getui(payload: "早报：晴")).body == "早报：晴")
        #expect(try decode(PayloadBuilder.getui(payload: "{not json")).body == "{not json")
        #expect(try decode(PayloadBuilder.getui(payload: #"{"roomId":15152}"#)).body == #"{"roomId":15152}"#)
        #expect(try decode(PayloadBuilder.getui(payload: "")).body == nil)
        #expect(try decode(PayloadBuilder.getui(payload: ["title": "T", "content": "C"])).title == "T")
    }

    @Test("autoBadge moves the server badge", arguments: [
        (JSON.string("+1"), BadgeDirective.autoAdd(1)), (JSON.string("-1"), .autoAdd(-1)), (JSON.string("5"), .autoSet(5)),
        (JSON.string("+0"), .autoAdd(0)), (JSON.string(" +12 "), .autoAdd(12)), (JSON.number(JSONNumber(3)), .autoSet(3)),
    ])
    func autoBadge(value: JSON, expected: BadgeDirective) throws {
        #expect(try decode(PayloadBuilder.getui(payload: "x", autoBadge: value)).badge == expected)
    }

    @Test func apsBadgeWinsOverAutoBadge() throws {
        #expect(try decode(PayloadBuilder.apns(alert: "x", badge: 2, extra: ["autoBadge": "+1"])).badge == .set(2))
        #expect(try decode(PayloadBuilder.apns(alert: "x", extra: ["autoBadge": "+1"])).badge == .autoAdd(1))
    }

    // MARK: - JPush

    @Test func jpushCustomMessage() throws {
        let push = try decode(#"{"title":"早报","content":"三条新闻","extras":{"url":"https://news.example.com/1","newsid":321}}"#)
        #expect(push.title == "早报" && push.body == "三条新闻" && push.url == "https://news.example.com/1")
        #expect(try decode(#"{"message":"Your order shipped","extras":{}}"#).body == "Your order shipped")
        #expect(try decode(#"{"content":"","message":"m"}"#).body == "m")
    }

    // MARK: - Refusals

    /// Malformed payloads and the field path the refusal must name.
    static let malformed: [(String, String)] = [
        (#"[1,2]"#, "payload must be a JSON object"),
        (#""text""#, "payload must be a JSON object"),
        (#"{"aps":"hello"}"#, "aps must be an object"),
        (#"{"aps":[]}"#, "aps must be an object"),
        (#"{"aps":{"alert":5}}"#, "aps.alert must be a string or an object"),
        (#"{"aps":{"alert":["a"]}}"#, "aps.alert must be a string or an object"),
        (#"{"aps":{"alert":true}}"#, "aps.alert must be a string or an object"),
        (#"{"aps":{"alert":{"title":5}}}"#, "aps.alert.title must be a string"),
        (#"{"aps":{"alert":{"subtitle":["x"]}}}"#, "aps.alert.subtitle must be a string"),
        (#"{"aps":{"alert":{"body":{"text":"x"}}}}"#, "aps.alert.body must be a string"),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":"a"}}}"#, "aps.alert.loc-args must be an array"),
        (#"{"aps":{"alert":{"title-loc-key":7}}}"#, "aps.alert.title-loc-key must be a string"),
        (#"{"aps":{"badge":"1"}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"aps":{"badge":-1}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"aps":{"badge":1.5}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"aps":{"badge":1e3}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"aps":{"badge":99999999999999999999}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"aps":{"badge":true}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"aps":{"badge":"+1"}}"#, "aps.badge must be an integer ≥ 0"),
        (#"{"payload":"x","autoBadge":"abc"}"#, "autoBadge must be \"+N\", \"-N\" or \"N\""),
        (#"{"payload":"x","autoBadge":"+"}"#, "autoBadge must be"),
        (#"{"payload":"x","autoBadge":"++1"}"#, "autoBadge must be"),
        (#"{"payload":"x","autoBadge":1.5}"#, "autoBadge must be"),
        (#"{"payload":"x","autoBadge":true}"#, "autoBadge must be"),
        (#"{"payload":"x","autoBadge":"99999999999"}"#, "autoBadge must be"),
        (#"{"payload":"x","offLine":"yes"}"#, "offLine must be true or false"),
        (#"{"payload":7}"#, "\"payload\" key (Getui's pass-through message) must be a string or an object"),
        (#"{"payload":"x","taskId":{"id":1}}"#, "taskId must be a string"),
        (#"{"payload":"x","msgId":[1]}"#, "msgId must be a string"),
        (#"{"Simulator Target Bundle":7,"aps":{}}"#, "\"Simulator Target Bundle\" must be a string"),
        (#"{"appId":{"id":"x"},"payload":"x"}"#, "\"appId\" must be a string"),
        (#"{"aps":{"alert":"x"}"#, "payload is not valid JSON"),
        (#"{"aps":{"alert":"x",,}}"#, "at byte 20"),
    ]

    @Test("malformed payloads are refused naming the field", arguments: malformed)
    func refused(text: String, mention: String) throws {
        let error = try #require(throws: WireError.self) { try decode(text) }
        #expect(error.message.contains(mention), "\(error.message)")
        #expect(error.message.contains(" got ") || error.message.contains("byte"), "\(error.message) should say what it got")
    }

    @Test func invalidUTF8IsRefusedWithItsOffset() throws {
        let bytes = Array(#"{"aps":{"alert":""#.utf8) + [0xE4, 0xB8, 0x41] + Array(#""}}"#.utf8)
        let error = try #require(throws: WireError.self) { try PushDecoder().decode(payload: bytes) }
        #expect(error.message == "payload is not valid UTF-8 at byte 17 (byte 0xE4); pushdeck takes UTF-8 JSON text")
    }

    @Test func thePayloadLimit() throws {
        let big = PayloadBuilder.apns(alert: .string(String(repeating: "x", count: 5000)))
        let size = big.utf8.count
        let error = try #require(throws: WireError.self) { try decode(big) }
        #expect(error.message == "payload is \(size) bytes; the APNs limit is 4096 (--max-payload to change)")
        #expect(try decode(big, max: 8192).body?.count == 5000)
        let exact = PayloadBuilder.apns(alert: .string(String(repeating: "y", count: 4096 - PayloadBuilder.apns(alert: "").utf8.count)))
        #expect(exact.utf8.count == 4096)
        #expect(try decode(exact).body != nil)
        #expect(throws: WireError.self) { try PushDecoder(maxPayloadBytes: 10).decode(payload: Array(big.utf8)) }
    }

    @Test func thePayloadIsKeptByteForByte() throws {
        let text = "{ \"aps\" : {\"alert\":\"a\\u0062c\",} ,\t\"k\":[1.50,], }"
        let push = try decode(text)
        #expect(push.payload == text)
        #expect(push.body == "abc")
    }
}
