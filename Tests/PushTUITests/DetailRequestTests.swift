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

    /// The detail view of an APNs push the backend retried: the faulted attempts, the wait
    /// before each, and the request that carried the message, one line each.
    @Test func aRetriedMessageShowsItsProviderRequestsWithTheirFaults() throws {
        let apnsId = "123e4567-e89b-12d3-a456-426614174000"
        let start = SampleMessages.now.addingTimeInterval(-30)
        let message = Message(
            id: 9, app: "com.example.shop", channel: .apns, title: "Order shipped", body: "Tap to track it", receivedAt: start.addingTimeInterval(3.5),
            payload: #"{"aps":{"alert":{"title":"Order shipped","body":"Tap to track it"}}}"#, via: .apns, token: Self.token,
            apnsHeaders: ["apns-id": apnsId, "apns-topic": "com.example.shop"])
        func record(_ seq: Int, at seconds: Double, _ status: Int, _ reason: String?, fault: Int?, retryAfter: Int? = nil, ms: Double) -> ProviderRequestRecord {
            ProviderRequestRecord(
                seq: seq, receivedAt: start.addingTimeInterval(seconds), answeredAt: start.addingTimeInterval(seconds + ms / 1000), vendor: .apns,
                method: "POST", path: "/3/device/\(Self.token)", tokens: [Self.token], app: "com.example.shop", status: status, reason: reason,
                retryAfter: retryAfter, ids: ["apns-id": apnsId], notificationKey: "apns-id:\(apnsId)", fault: fault)
        }
        let requests = [
            record(1, at: 0, 429, "TooManyRequests", fault: 1, retryAfter: 2, ms: 0.4),
            record(2, at: 2.25, 0, nil, fault: 2, ms: 0),
            record(3, at: 3.5, 200, nil, fault: nil, ms: 2),
        ]
        var screen = Screen(size: Size(width: 100, height: 30))
        let source = ArrayMessageSource([message])
        screen.load(from: source)
        screen.apply(.openDetail(id: 9))
        screen.load(from: source)
        screen.detailRequests = requests
        screen.apply(.scrollDetail(by: 14))
        let grid = screen.render(inbox: SampleMessages.sampleInbox(), now: .zero, date: SampleMessages.now)
        let problem = GridSnapshot.mismatch(grid, named: "detail-requests-100x30", in: GridSnapshot.directory(besides: #filePath))
        #expect(problem == nil, "\(problem ?? "")")
        let shown = DetailView.lines(for: message, callback: "", width: 100, date: SampleMessages.now,
                                     timeZone: TimeZone(identifier: "UTC") ?? .current, requests: requests).map(\.text)
        let heading = try #require(shown.firstIndex(of: "provider requests (3)"))
        try #require(shown.count > heading + 3)
        #expect(Array(shown[(heading + 1)...(heading + 3)]) == [
            "09:59:30.000            429  TooManyRequests         fault 1  retry-after 2s  0.4 ms",
            "09:59:32.250  +2.25s    —    no answer               fault 2  0.0 ms",
            "09:59:33.500  +1.25s    200  OK, this message        2.0 ms",
        ])
        // Scrolled to the end, the requests are on screen (the scroll counts their lines).
        #expect(grid.text.contains("provider requests (3)"), "\(grid.text)")
    }
}
