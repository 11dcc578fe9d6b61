import PushCore
import TestSupport
import Testing
import PushJSON

@Suite("Request decoding")
struct RequestTests {
    private func decode(_ text: String) throws -> Request { try Request.decode(frame: Array(text.utf8)) }

    @Test func anObjectWithoutOpIsAPushOfTheWholeText() throws {
        let text = "{\n  \"aps\" : { \"alert\" : \"Hi\", },\n}"
        #expect(try decode(text) == .push(PushRequest(payloadText: text)))
    }

    @Test func pushKeepsThePayloadBytesAsReceived() throws {
        let payload = "{ \"aps\": {\"alert\" : \"订单\\u0020已发货\"} ,\n \"x\": [1,2,] }"
        let text = #"{"op":"push","app":"com.example.shop","channel":"transparent","offline":true,"payload":"# + payload + "}"
        #expect(try decode(text) == .push(PushRequest(payloadText: payload, app: "com.example.shop", channel: .transparent, offline: true)))
        #expect(try decode(#"{"op":"push","payload":{}}"#) == .push(PushRequest(payloadText: "{}")))
        #expect(try decode(#"{"op":"push","payload":{},"channel":"apns","app":null}"#) == .push(PushRequest(payloadText: "{}", channel: .apns)))
    }

    @Test func aPushNamesItsDeviceTokenAsDeviceAddTakesOne() throws {
        // APNs hex is lower-cased as `device add` keeps it; a JPush registration id as written.
        #expect(try decode(#"{"op":"push","token":"AB12","payload":{}}"#) == .push(PushRequest(payloadText: "{}", token: "ab12")))
        #expect(try decode(#"{"op":"push","token":"1a0018970a_x-y","payload":{}}"#)
            == .push(PushRequest(payloadText: "{}", token: "1a0018970a_x-y")))
        // A token is a topic level on the team bus: `/`, `+`, `#` would name other topics.
        for bad in [#""a/b""#, #""+""#, ##""#""##, #""""#, "17"] {
            #expect(throws: WireError.self) { try decode(#"{"op":"push","token":"# + bad + #","payload":{}}"#) }
        }
        let error = try #require(throws: WireError.self) { try decode(#"{"op":"push","token":"pushdeck/v1/x","payload":{}}"#) }
        #expect(error.message.hasPrefix(#""token" must be a device token: hex digits (APNs)"#), "\(error.message)")
    }

    @Test func read() throws {
        #expect(try decode(#"{"op":"read","id":17}"#) == .read(.ids([17])))
        #expect(try decode(#"{"op":"read","ids":[1,2,9223372036854775807]}"#) == .read(.ids([1, 2, Int64.max])))
        #expect(try decode(#"{"op":"read","all":true}"#) == .read(.all(app: nil)))
        #expect(try decode(#"{"op":"read","all":true,"app":"com.example.chat"}"#) == .read(.all(app: "com.example.chat")))
        let many = (1...Request.maxIds).map(String.init).joined(separator: ",")
        #expect(try decode(#"{"op":"read","ids":["# + many + "]}") == .read(.ids((1...Int64(Request.maxIds)).map { $0 })))
    }

    @Test func delete() throws {
        #expect(try decode(#"{"op":"delete","id":3}"#) == .delete([3]))
        #expect(try decode(#"{"op":"delete","ids":[3,4]}"#) == .delete([3, 4]))
    }

    @Test func badge() throws {
        #expect(try decode(#"{"op":"badge"}"#) == .badge(app: nil, change: nil, sync: nil))
        #expect(try decode(#"{"op":"badge","set":0}"#) == .badge(app: nil, change: .set(0), sync: nil))
        #expect(try decode(#"{"op":"badge","app":"com.example.shop","set":5,"sync":false}"#)
            == .badge(app: "com.example.shop", change: .set(5), sync: false))
        #expect(try decode(#"{"op":"badge","clear":true,"sync":true}"#) == .badge(app: nil, change: .clear, sync: true))
        #expect(try decode(#"{"op":"badge","clear":false}"#) == .badge(app: nil, change: nil, sync: nil))
    }

    @Test func modeAppListSubscribePing() throws {
        #expect(try decode(#"{"op":"mode"}"#) == .mode(nil))
        #expect(try decode(#"{"op":"mode","set":"off"}"#) == .mode(.off))
        #expect(try decode(#"{"op":"app"}"#) == .app(nil))
        #expect(try decode(#"{"op":"app","state":"terminated"}"#) == .app(.terminated))
        #expect(try decode(#"{"op":"list"}"#) == .list(ListQuery()))
        #expect(try decode(#"{"op":"list","limit":1000,"unread":true,"before":99,"app":"com.example.news"}"#)
            == .list(ListQuery(limit: 1000, unread: true, before: 99, app: "com.example.news")))
        #expect(try decode(#"{"op":"subscribe"}"#) == .subscribe([]))
        #expect(try decode(#"{"op":"subscribe","topics":[]}"#) == .subscribe([]))
        #expect(try decode(#"{"op":"subscribe","topics":["badge.changed","feedback","badge.changed"]}"#)
            == .subscribe([.badgeChanged, .feedback]))
        #expect(try decode(#"{"op":"ping"}"#) == .ping)
        #expect(try Request.decode(frame: PayloadBuilder.request("list", ["limit": 1])) == .list(ListQuery(limit: 1)))
    }

    /// Bad requests: the text, and what the refusal must mention (the field, what is accepted).
    static let bad: [(String, [String])] = [
        (#"[1,2]"#, ["must be a JSON object", "an array"]),
        (#"{"op":"pull"}"#, ["\"op\" must be one of push, read, delete, badge, mode, app, list, subscribe, ping", "\"pull\""]),
        (#"{"op":7}"#, ["\"op\" must be one of", "got 7"]),
        (#"{"op":"push"}"#, ["\"payload\" is required", "object"]),
        (#"{"op":"push","payload":"{}"}"#, ["\"payload\" must be a JSON object", "a string"]),
        (#"{"op":"push","payload":{},"channel":"sms"}"#, ["\"channel\" must be one of apns, transparent", "\"sms\""]),
        (#"{"op":"push","payload":{},"offline":"yes"}"#, ["\"offline\" must be true or false"]),
        (#"{"op":"push","payload":{},"app":""}"#, ["\"app\" must be an app id"]),
        (#"{"op":"push","payload":{},"badge":1}"#, ["unknown field \"badge\" for op push", "accepted: payload, app, channel, offline"]),
        (#"{"op":"gateway","credentials":"hms"}"#, ["\"credentials\" must be one of apns, jpush, getui, fcm", "\"hms\""]),
        (#"{"op":"gateway","keyId":"K"}"#, ["\"keyId\" and \"team\" go with \"credentials\":\"apns\""]),
        (#"{"op":"gateway","credentials":"jpush","team":"T"}"#, ["go with \"credentials\":\"apns\", not jpush"]),
        (#"{"op":"gateway","credentials":"apns","keyId":""}"#, ["\"keyId\" must be an APNs key id"]),
        (#"{"op":"read"}"#, ["read needs \"id\", \"ids\" or \"all\": true"]),
        (#"{"op":"read","id":1,"ids":[2]}"#, ["only one of them"]),
        (#"{"op":"read","id":-3}"#, ["\"id\" must be a positive integer", "-3"]),
        (#"{"op":"read","id":0}"#, ["\"id\" must be a positive integer", "got 0"]),
        (#"{"op":"read","id":1.5}"#, ["\"id\" must be a positive integer", "1.5"]),
        (#"{"op":"read","id":1e3}"#, ["\"id\"", "1e3"]),
        (#"{"op":"read","id":"17"}"#, ["\"id\" must be a positive integer", "got \"17\""]),
        (#"{"op":"read","id":99999999999999999999}"#, ["\"id\" is out of range", "99999999999999999999"]),
        (#"{"op":"read","ids":[1,2,-7]}"#, ["\"ids[2]\" must be a positive integer", "-7"]),
        (#"{"op":"read","ids":[1,null]}"#, ["\"ids[1]\"", "null"]),
        (#"{"op":"read","ids":7}"#, ["\"ids\" must be an array"]),
        (#"{"op":"read","ids":[]}"#, ["\"ids\" is empty"]),
        (#"{"op":"read","all":false}"#, ["\"all\" must be true"]),
        (#"{"op":"read","id":4,"app":"x"}"#, ["\"app\" goes only with \"all\": true"]),
        (#"{"op":"delete","all":true}"#, ["unknown field \"all\" for op delete", "accepted: id, ids"]),
        (#"{"op":"delete"}"#, ["delete needs \"id\" or \"ids\""]),
        (#"{"op":"badge","set":-1}"#, ["\"set\" must be an integer ≥ 0", "-1"]),
        (#"{"op":"badge","set":"3"}"#, ["\"set\" must be an integer ≥ 0", "\"3\""]),
        (#"{"op":"badge","set":2.5}"#, ["\"set\"", "2.5"]),
        (#"{"op":"badge","set":3,"clear":true}"#, ["either \"set\" or \"clear\": true", "not both"]),
        (#"{"op":"badge","sync":"off"}"#, ["\"sync\" must be true or false", "\"off\""]),
        (#"{"op":"badge","app":5}"#, ["\"app\" must be an app id", "5"]),
        (#"{"op":"mode","set":"maybe"}"#, ["\"set\" must be one of on, off", "\"maybe\""]),
        (#"{"op":"mode","set":true}"#, ["\"set\" must be one of on, off", "true"]),
        (#"{"op":"app","state":"asleep"}"#, ["\"state\" must be one of foreground, background, terminated", "\"asleep\""]),
        (#"{"op":"list","limit":0}"#, ["\"limit\" must be an integer from 1 to 1000", "got 0"]),
        (#"{"op":"list","limit":1001}"#, ["\"limit\" must be an integer from 1 to 1000", "1001"]),
        (#"{"op":"list","before":-1}"#, ["\"before\" must be a positive integer"]),
        (#"{"op":"list","unread":1}"#, ["\"unread\" must be true or false"]),
        (#"{"op":"subscribe","topics":["badge.changed","badge"]}"#, ["\"topics[1]\" must be one of message.received, remote.received", "feedback", "\"badge\""]),
        (#"{"op":"subscribe","topics":"all"}"#, ["\"topics\" must be an array of topics"]),
        (#"{"op":"ping","x":1}"#, ["unknown field \"x\" for op ping", "takes no other fields"]),
        (#"{"op":"ping""#, ["not valid JSON", "at byte 12"]),
        (#"{"op":"ping"} x"#, ["not valid JSON", "at byte 14"]),
    ]

    @Test("bad requests are refused saying what, where and what is accepted", arguments: bad)
    func badRequest(text: String, mentions: [String]) throws {
        let error = try #require(throws: WireError.self) { try decode(text) }
        for part in mentions {
            #expect(error.message.contains(part), "\(error.message) should mention \(part)")
        }
    }

    @Test func tooManyIds() throws {
        let many = (1...(Request.maxIds + 1)).map(String.init).joined(separator: ",")
        let error = try #require(throws: WireError.self) { try decode(#"{"op":"delete","ids":["# + many + "]}") }
        #expect(error.message.contains("\"ids\" has 10001 ids; at most 10000"))
    }

    @Test func invalidUTF8InARequest() throws {
        let bytes = Array(#"{"op":"push","payload":{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        let error = try #require(throws: WireError.self) { try Request.decode(frame: bytes) }
        #expect(error.message == "request is not valid UTF-8 at byte 29 (byte 0xC3); pushdeck takes UTF-8 JSON text")
    }

    @Test func clockAsksOrMovesOnByAnAmountOfSeconds() throws {
        #expect(try decode(#"{"op":"clock"}"#) == .clock(advance: nil))
        #expect(try decode(#"{"op":"clock","advance":null}"#) == .clock(advance: nil))
        #expect(try decode(#"{"op":"clock","advance":5.25}"#) == .clock(advance: 5.25))
        #expect(try decode(#"{"op":"clock","advance":3600}"#) == .clock(advance: 3600))
        for bad in ["-1", #""5""#, "1e300", "true"] {
            let error = try #require(throws: WireError.self) { try decode(#"{"op":"clock","advance":"# + bad + "}") }
            #expect(error.message.contains("\"advance\" must be a number of seconds from 0 to 31622400"), "\(bad): \(error.message)")
        }
        let error = try #require(throws: WireError.self) { try decode(#"{"op":"clock","to":5}"#) }
        #expect(error.message.contains("unknown field \"to\" for op clock; accepted: advance"))
    }
}

