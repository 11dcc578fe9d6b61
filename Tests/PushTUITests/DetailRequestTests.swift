import Foundation
import PushCore
import PushTUI
import Testing
import TestSupport

/// The detail view of a push that came through the APNs gateway shows what the backend sent.
@Suite struct DetailRequestTests {
    static let token = SampleCredentials.apnsDeviceToken

    func lines(_ message: Message) -> [String] {
        DetailView.lines(for: message, callback: "", width: 100, date: message.receivedAt, timeZone: TimeZone(identifier: "UTC") ?? .current)
            .map { String(repeating: " ", count: $0.indent) + $0.text }
    }

    @Test func aGatewayMessageShowsItsRequestLineAndHeaders() {
        let message = Message(
            id: 3, app: "com.example.shop", channel: .apns, body: "Hi", receivedAt: Date(timeIntervalSince1970: 0),
            payload: #"{"aps":{"alert":"Hi"}}"#, via: .apns, token: Self.token,
            apnsHeaders: ["apns-topic": "com.example.shop", "apns-priority": "10", "apns-collapse-id": "evil\u{1B}[2Jx"])
        let shown = lines(message)
        #expect(shown.contains("via        apns"))
        #expect(shown.contains("token      \(Self.token)"))
        let request = shown.firstIndex(of: "request")
        #expect(request != nil)
        if let request {
            #expect(Array(shown[(request + 1)...(request + 4)]) == [
                "  POST /3/device/\(Self.token)", "  apns-collapse-id: evilx", "  apns-priority: 10", "  apns-topic: com.example.shop",
            ])
        }
        #expect(!shown.joined().contains("\u{1B}"))
    }

    @Test func aJPushOrGetuiMessageShowsItsPathAndVendorIds() {
        let jpush = Message(
            id: 4, app: "4f3b2a1908f7e6d5c4b3a291", channel: .transparent, body: "Hi", receivedAt: Date(timeIntervalSince1970: 0),
            payload: #"{"platform":"all"}"#, via: .jpush, token: "1a0018970a5c3d8e4d5",
            apnsHeaders: ["path": "/v3/push", "msg_id": "18100000000123456", "sendno": "7"])
        let shown = lines(jpush)
        #expect(shown.contains("via        jpush"))
        let request = shown.firstIndex(of: "request")
        #expect(request != nil)
        if let request {
            #expect(Array(shown[(request + 1)...(request + 3)]) == ["  POST /v3/push", "  msg_id: 18100000000123456", "  sendno: 7"])
        }
        let getui = Message(
            id: 5, app: "G5lfFkQZ008VoZUXydA2r2", channel: .transparent, body: "Hi", receivedAt: Date(timeIntervalSince1970: 0),
            payload: "{}", via: .getui, token: "cid1",
            apnsHeaders: ["path": "/v2/G5lfFkQZ008VoZUXydA2r2/push/single/cid", "request_id": "pushdeck-0001", "taskid": "RASS_1201_ab"])
        let getuiShown = lines(getui)
        if let request = getuiShown.firstIndex(of: "request") {
            #expect(Array(getuiShown[(request + 1)...(request + 3)]) == [
                "  POST /v2/G5lfFkQZ008VoZUXydA2r2/push/single/cid", "  request_id: pushdeck-0001", "  taskid: RASS_1201_ab",
            ])
        } else {
            Issue.record("no request block for a Getui message")
        }
    }

    @Test func aSocketMessageShowsNoRequest() {
        let message = Message(id: 3, app: "com.example.shop", channel: .apns, receivedAt: Date(timeIntervalSince1970: 0), payload: "{}")
        let shown = lines(message)
        #expect(!shown.contains("request"))
        #expect(!shown.contains { $0.hasPrefix("via") })
    }
}
