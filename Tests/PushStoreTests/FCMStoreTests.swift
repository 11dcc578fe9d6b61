import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// An FCM message's own columns (callback, project, message name, the Android options) are
/// written, replaced and read back as they were, across a restart too, by both stores.
@Suite struct FCMStoreTests {
    static func fcmMessage(_ id: Int64, held: Bool = false) -> Message {
        var message = Message(
            id: id, app: "com.example.shop", channel: .android, title: "Score", body: "1-0", held: held,
            receivedAt: Date(timeIntervalSince1970: 1_764_547_200), payload: #"{"token":"tok:1","notification":{"title":"Score"}}"#,
            collapseId: "match", via: .fcm, token: "tok:1")
        message.callback = "system tray"
        message.fcm = FCMFacts(
            project: "demo", messageName: "projects/demo/messages/\(id)", platform: .android, collapseKey: "scores",
            ttlSeconds: 3.5, priority: .high, tag: "match", notificationCount: 4)
        return message
    }

    @Test func theNewColumnsSurviveAReopen() throws {
        let folder = TempFolder()
        let held = Self.fcmMessage(2, held: true)
        do {
            let store = try Store(path: folder.file("inbox.sqlite"))
            try store.write([.insert(Self.fcmMessage(1)), .insert(held)])
            store.close()
        }
        let store = try Store(path: folder.file("inbox.sqlite"))
        #expect(try store.page(ListQuery()) == [Self.fcmMessage(1)])
        #expect(try store.loadInbox().held == [held])
    }

    @Test(arguments: StoreKind.allCases)
    func aReplacementWritesThemToo(_ kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.insert(Self.fcmMessage(1))])
        var replaced = Self.fcmMessage(1)
        replaced.callback = "onMessageReceived"
        replaced.fcm?.priority = .normal
        replaced.fcm?.ttlSeconds = nil
        try store.write([.replace(replaced)])
        #expect(try store.message(id: 1) == replaced)
        let memory = MemoryStore()
        memory.apply(.insert(Self.fcmMessage(1)))
        memory.apply(.replace(replaced))
        #expect(memory.messages(ids: [1], includeHeld: false) == [replaced])
    }

    @Test func aMessageOfBeforeTheMigrationHasNone() throws {
        let store = try Store.inMemory()
        try store.write([.insert(Samples.message(1))])
        let message = try #require(try store.message(id: 1))
        #expect(message.callback == nil && message.fcm == nil)
    }
}
