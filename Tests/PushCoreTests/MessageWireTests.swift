import Foundation
import PushCore
import Testing
import PushJSON

@Suite("Message objects and replies on the wire")
struct MessageWireTests {
    /// 2026-11-30T09:41:00.000Z
    static let nineFortyOne = Date(timeIntervalSince1970: 1_796_031_660)

    static func message(read: Bool = false) -> Message {
        Message(
            id: 17, app: "com.example.shop", channel: .transparent, title: "官方客服", body: "订单 1270339 已发货",
            url: "3?_from=push", read: read, offline: true, receivedAt: nineFortyOne, taskId: "t-1", msgId: nil,
            payload: "{ \"payload\" : \"x\",\n \"n\": 1.50 }")
    }

    @Test func everyFieldInOrderAndAbsentTextIsNull() throws {
        let json = Self.message().wireJSON
        let object = try #require(json.objectValue)
        #expect(object.keys == ["id", "app", "channel", "title", "subtitle", "body", "url", "read", "offline", "receivedAt",
                                "taskId", "msgId", "payload", "launch", "held", "collapseId", "threadId", "silent",
                                "interruptionLevel", "expired", "via", "token", "apnsHeaders", "callback",
                                "project", "messageName", "fcm"])
        #expect(json.compactText == #"{"id":17,"app":"com.example.shop","channel":"transparent","title":"官方客服","subtitle":null,"body":"订单 1270339 已发货","url":"3?_from=push","read":false,"offline":true,"receivedAt":"2026-11-30T09:41:00.000Z","taskId":"t-1","msgId":null,"payload":{"payload":"x","n":1.50},"launch":false,"held":false,"collapseId":null,"threadId":null,"silent":false,"interruptionLevel":null,"expired":false,"via":"socket","token":null,"apnsHeaders":null,"callback":null,"project":null,"messageName":null,"fcm":null}"#)
    }

    @Test func aGatewayMessageCarriesItsViaTokenAndHeadersAndReadsBack() throws {
        var original = Self.message()
        original.payload = #"{"aps":{"alert":"Hi"}}"#
        original.via = .apns
        original.token = String(repeating: "ab", count: 32)
        original.apnsHeaders = ["apns-topic": "com.example.shop", "apns-priority": "10", "apns-id": "0e5dd5b4-3b2f-4e5a-9c73-0e3c7b3e5f10"]
        let json = original.wireJSON
        let object = try #require(json.objectValue)
        #expect(object["via"] == "apns")
        #expect(object["token"] == .string(String(repeating: "ab", count: 32)))
        #expect(JSON.object(try #require(object["apnsHeaders"]?.objectValue)).compactText
                == #"{"apns-id":"0e5dd5b4-3b2f-4e5a-9c73-0e3c7b3e5f10","apns-priority":"10","apns-topic":"com.example.shop"}"#)
        #expect(try Message(wire: object) == original)
    }

    @Test func anUnknownViaIsRefusedWhenReadBack() throws {
        var object = try #require(Self.message().wireJSON.objectValue)
        object["via"] = "pigeon"
        #expect(throws: WireError.self) { try Message(wire: object) }
    }

    @Test func aMessageReadsBackFromItsWireObject() throws {
        let original = Self.message(read: true)
        let object = try #require(original.wireJSON.objectValue)
        let back = try Message(wire: object)
        var expected = original
        expected.payload = #"{"payload":"x","n":1.50}"#
        #expect(back == expected)
        #expect(throws: WireError.self) { try Message(wire: ["id": "x"]) }
    }

    @Test("RFC 3339 with milliseconds in UTC", arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_796_031_660.0, "2026-11-30T09:41:00.000Z"),
        (1_796_031_660.1239, "2026-11-30T09:41:00.123Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (-1.0, "1969-12-31T23:59:59.000Z"),
        (4_107_542_399.999, "2100-02-28T23:59:59.999Z"),
        (253_402_300_799.5, "9999-12-31T23:59:59.500Z"),
    ])
    func rfc3339(seconds: Double, text: String) {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: seconds)) == text)
        let parsed = RFC3339.date(from: text)
        #expect(parsed.map { abs($0.timeIntervalSince1970 - seconds) < 0.001 } == true)
    }

    @Test func rfc3339ParsesOffsetsAndRefusesNonsense() {
        #expect(RFC3339.date(from: "2026-11-30T17:41:00+08:00") == Self.nineFortyOne)
        #expect(RFC3339.date(from: "2026-11-30T09:41:00Z") == Self.nineFortyOne)
        for bad in ["", "2026-11-30", "2026-13-01T00:00:00Z", "2026-11-30T09:41:00", "2026-11-30T09:41:00.Z", "x"] {
            #expect(RFC3339.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test func wireLinesEndWithANewline() {
        #expect(String(decoding: Reply.badge(0).wireLine, as: UTF8.self) == "{\"ok\":true,\"badge\":0}\n")
        #expect(String(decoding: JSON.array([1, "a\nb"]).wireLine, as: UTF8.self) == "[1,\"a\\nb\"]\n")
        var buffer = Array("x".utf8)
        Reply.ok.writeLine(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x{\"ok\":true}\n")
        let event = BusEvent(.badgeChanged, ["app": "com.example.shop", "badge": 3, "serverBadge": 3])
        #expect(String(decoding: event.json.wireLine, as: UTF8.self)
            == "{\"topic\":\"badge.changed\",\"app\":\"com.example.shop\",\"badge\":3,\"serverBadge\":3}\n")
    }

    /// A delivered push's reply line is written straight from its numbers; it must stay the
    /// object's line byte for byte, at the edges of the integers too.
    @Test func aDeliveredPushReplyLineIsItsObjectsLine() {
        for id in [0, 1, 9, 10, 12345, Int64(Int32.max) + 1, Int64.max] {
            for badge in [0, 7, 99, 100, -1, Int.min, Int.max] {
                let reply = Reply.push(PushReply(.delivered(id: id), badge: badge))
                var line = Array("x".utf8)
                reply.writeLine(into: &line)
                #expect(line == Array("x".utf8) + reply.wireObject.wireLine, "id \(id), badge \(badge)")
            }
        }
        #expect(String(decoding: Reply.push(PushReply(.delivered(id: 42), badge: 3)).wireLine, as: UTF8.self)
            == "{\"ok\":true,\"id\":42,\"badge\":3,\"delivered\":true}\n")
    }
}
