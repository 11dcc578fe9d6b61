import Foundation
import PushCore
import Testing

/// Threads: what the reducer hands the store for the list to group and order.
@Suite struct ThreadInboxTests {
    private func decode(_ text: String) throws -> Push {
        try PushDecoder().decode(PushRequest(payloadText: text, app: "com.example.shop"))
    }

    @Test func threadIdAndRelevanceScoreReachTheStoredMessage() throws {
        var s = Scenario(Inbox(settings: InboxSettings(appState: .background)))
        let payloads = [
            #"{"aps":{"alert":"a","thread-id":"orders","relevance-score":0.75}}"#,
            #"{"aps":{"alert":"b","thread-id":"orders"}}"#,
            // JPush's iOS notification carries them as well; a score that is not a number is custom data.
            #"{"platform":"ios","audience":"all","notification":{"ios":{"alert":"c","thread-id":"orders","relevance-score":1}}}"#,
            #"{"aps":{"alert":"d","relevance-score":"high"}}"#,
        ]
        var inserted: [Message] = []
        for payload in payloads {
            inserted += s.push(try decode(payload)).writes.compactMap { if case .insert(let message) = $0 { message } else { nil } }
        }
        #expect(inserted.map(\.threadId) == ["orders", "orders", "orders", nil])
        #expect(inserted.map(\.relevance) == [0.75, nil, 1, nil])
        #expect(inserted.map(\.threadKey) == [
            ThreadKey(app: "com.example.shop", thread: "orders"), ThreadKey(app: "com.example.shop", thread: "orders"),
            ThreadKey(app: "com.example.shop", thread: "orders"), nil,
        ])
    }
}
