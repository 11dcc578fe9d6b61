import Foundation
import PushCore
import PushTUI
import Testing

/// The detail view of a push that came through the APNs gateway shows what the backend sent.
@Suite struct DetailRequestTests {
    static let token = String(repeating: "ab", count: 32)

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

    @Test func aSocketMessageShowsNoRequest() {
        let message = Message(id: 3, app: "com.example.shop", channel: .apns, receivedAt: Date(timeIntervalSince1970: 0), payload: "{}")
        let shown = lines(message)
        #expect(!shown.contains("request"))
        #expect(!shown.contains { $0.hasPrefix("via") })
    }
}
