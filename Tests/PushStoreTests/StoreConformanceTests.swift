import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// The SQLite store and the in-memory store are two sides of one contract: the engine, handed
/// the same requests over each, must get the same replies, and every lookup it makes must give
/// the same messages. Each request's effects are written to the store they came from (the
/// SQLite one inside a transaction per request, as a loop turn writes them), so a difference in
/// how either carries out a change shows up in the next lookup.
@Suite struct StoreConformanceTests {
    static let apps = ["com.example.shop", "com.example.news", "com.example.chat"]
    static let collapseIds = ["order-1", "order-2"]

    @Test("the engine over SQLite and over memory: same replies, same lookups", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func bothStoresAnswerAlike(seed: UInt64) throws {
        let folder = TempFolder()
        let sqlite = try Store(path: folder.file("inbox.sqlite"))
        let memory = MemoryStore()
        var onSQLite = Inbox()
        var inMemory = Inbox()
        var random = SeededRandom(seed: seed)
        var now = Instant.zero
        let start = Date(timeIntervalSince1970: 1_764_547_200)
        for step in 0..<300 {
            now = now + Double(random.next() % 4)
            // Whole milliseconds: the SQLite store keeps times to the millisecond.
            let wallNow = start.addingTimeInterval(Double(now.nanoseconds / 1_000_000) / 1000)
            let request = Self.request(&random, step: step)
            try sqlite.begin()
            let handledSQLite = Engine.handle(request, inbox: &onSQLite, store: sqlite, now: now, wallNow: wallNow)
            for case .store(let change) in handledSQLite.effects { try sqlite.apply(change) }
            try sqlite.commit()
            let handledMemory = Engine.handle(request, inbox: &inMemory, store: memory, now: now, wallNow: wallNow)
            for case .store(let change) in handledMemory.effects { memory.apply(change) }

            #expect(handledSQLite.reply == handledMemory.reply, "step \(step): \(request)")
            #expect(handledSQLite.effects == handledMemory.effects, "step \(step): \(request)")
            try Self.expectSameLookups(sqlite, memory, step: step, highestId: onSQLite.nextId)
        }
        // The Live Activities the inbox keeps read back from SQLite as they are.
        // (The next activity number is not kept: after a reset it starts from the highest kept.)
        let loaded = try sqlite.loadInbox().activities
        #expect(loaded.byId == onSQLite.activities.byId)
        #expect(loaded.idByToken == onSQLite.activities.idByToken)
        #expect(loaded.unmatched == onSQLite.activities.unmatched)
        #expect(onSQLite.activities == inMemory.activities)
        // And the broadcast channels.
        #expect(try sqlite.loadInbox().channels.byId == onSQLite.channels.byId)
        #expect(onSQLite.channels == inMemory.channels)
    }

    /// Every lookup the engine and the players make, over both stores.
    static func expectSameLookups(_ sqlite: Store, _ memory: MemoryStore, step: Int, highestId: Int64) throws {
        for app in [nil] + apps.map(Optional.some) {
            for unread in [false, true] {
                let query = ListQuery(limit: 1000, unread: unread, app: app)
                #expect(try sqlite.page(query) == memory.page(query), "step \(step): page \(query)")
            }
            let first = ListQuery(limit: 1, app: app)
            #expect(try sqlite.page(first) == memory.page(first), "step \(step): newest of \(app ?? "all")")
        }
        let before = ListQuery(limit: 3, before: highestId / 2)
        #expect(try sqlite.page(before) == memory.page(before), "step \(step): page before \(highestId / 2)")
        let ids = Array((0...highestId).reversed()) + [highestId / 3]
        for includeHeld in [false, true] {
            #expect(try sqlite.messages(ids: ids, includeHeld: includeHeld) == memory.messages(ids: ids, includeHeld: includeHeld),
                    "step \(step): messages(ids:) includeHeld \(includeHeld)")
        }
        for app in apps {
            for collapseId in collapseIds {
                #expect(try sqlite.replaceable(app: app, collapseId: collapseId) == memory.replaceable(app: app, collapseId: collapseId),
                        "step \(step): collapse \(app) \(collapseId)")
            }
        }
    }

    /// A request of the kinds a session makes: pushes of every channel (collapse ids, thread
    /// ids, times to live, silent ones; FCM notification and data messages with tags, collapse
    /// keys and ttls, and an iOS token's `apns` block), reads and deletes of known and unknown ids, push mode,
    /// app states, badges, resets, the default device going offline and online, Live Activity
    /// pushes (starts, updates and ends, some the device discards) and their list.
    static func request(_ random: inout SeededRandom, step: Int) -> Request {
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        let app = pick(apps)
        switch random.next() % 20 {
        case 0...5:
            let collapseId: String? = random.next() % 3 == 0 ? pick(collapseIds) : nil
            let thread = random.next() % 2 == 0 ? #","thread-id":"t1""# : ""
            let badge = random.next() % 5 == 0 ? #","badge":3"# : ""
            return .push(PushRequest(
                payloadText: #"{"aps":{"alert":{"title":"Order \#(step)","body":"订单 \#(step)"}\#(thread)\#(badge)}}"#,
                app: app, collapseId: collapseId))
        case 6...7:
            let ttl = pick([500, 2000, 60_000])
            return .push(PushRequest(
                payloadText: #"{"taskId":"t\#(step)","msgId":"m\#(step)","payload":"hello \#(step)","offLineExpireTime":\#(ttl)}"#,
                app: app))
        case 8:
            return .push(PushRequest(payloadText: #"{"aps":{"content-available":1}}"#, app: app))
        case 9:
            return .read(.ids([Int64(random.next() % UInt64(step + 2))]))
        case 10:
            return .read(.all(app: random.next() % 2 == 0 ? app : nil))
        case 11:
            return .delete([Int64(random.next() % UInt64(step + 2))])
        case 12:
            return .mode(pick([PushMode.on, .on, .off]))
        case 13:
            return .app(pick([AppState.foreground, .background, .terminated]))
        case 14:
            return pick([
                .badge(app: app, change: .set(Int(random.next() % 5)), sync: nil),
                .badge(app: nil, change: .clear, sync: nil),
                .reset(app: app, all: false),
            ])
        case 15:
            return .device(.setOffline(token: nil, random.next() % 2 == 0))
        case 16:
            let tag = random.next() % 2 == 0 ? #","tag":"\#(pick(collapseIds))""# : ""
            let key = random.next() % 2 == 0 ? #""collapse_key":"\#(pick(["k1", "k2", "k3", "k4", "k5"]))","# : ""
            let count = random.next() % 4 == 0 ? #","notification_count":\#(random.next() % 9)"# : ""
            let message = random.next() % 3 == 0
                ? #"{"token":"tok:1","data":{"body":"data \#(step)"},"android":{\#(key)"ttl":"\#(pick(["0s", "1.5s", "3600s"]))"}}"#
                : #"{"token":"tok:1","android":{\#(key)"priority":"HIGH","notification":{"title":"FCM \#(step)"\#(tag)\#(count)}}}"#
            return .push(.fcm(
                messageText: message, app: app, token: "tok:1",
                route: FCMRoute(platform: .android, project: "demo", messageName: "projects/demo/messages/\(step)")))
        case 17:
            let message = #"{"token":"tok:2","notification":{"title":"iOS \#(step)"},"apns":{"headers":{"apns-collapse-id":"\#(pick(collapseIds))"},"payload":{"aps":{"badge":1}}}}"#
            return .push(.fcm(
                messageText: message, app: app, token: "tok:2",
                route: FCMRoute(platform: .ios, project: "demo", messageName: "projects/demo/messages/\(step)")))
        case 18:
            // Broadcast channels: made, deleted, listed, and broadcast to (the first two ids made),
            // the start token's device going offline and online (policy 1 keeps the latest).
            let channel = pick([1, 2, 3]).description
            let id = Data("pushdeck-channel-\(channel)".utf8).base64EncodedString()
            let food = "com.example.shop"
            switch random.next() % 7 {
            case 0: return .channel(.create(app: food, storagePolicy: pick([0, 1])))
            case 1: return .channel(pick([.delete(app: food, id: id), .list(app: pick([food, nil])), .read(app: food, id: id)]))
            case 2: return .device(.setOffline(token: String(repeating: "5a", count: 32), random.next() % 2 == 0))
            case 3: return .activity(.list(app: random.next() % 2 == 0 ? app : nil))
            default:
                var push = PushRequest(
                    payloadText: #"{"aps":{"timestamp":\#(1_764_547_200 + Int(random.next() % 600)),"event":"\#(pick(["update", "end", "start"]))","content-state":{"step":\#(step)}}}"#,
                    app: food, channel: .apns, pushType: "liveactivity", via: .apns, headers: ["apns-expiration": pick(["0", "0", "1764550000"])])
                push.broadcastChannel = id
                return .push(push)
            }
        default:
            // The push-to-start token, the first started activity's own token, one the app started.
            let token = pick([String(repeating: "5a", count: 32), "1ac7" + String(repeating: "0", count: 59) + "1",
                              String(repeating: "7c", count: 32)])
            let event = pick(["start", "update", "update", "end", "pause"])
            let timestamp = random.next() % 4 == 0 ? "" : #""timestamp":\#(1_764_547_200 + Int(random.next() % 600)),"#
            let content = pick([#""content-state":{"step":\#(step)}"#, #""content-state":"text""#, #""stale-date":1764547500"#])
            let subscribed = random.next() % 2 == 0 ? #","input-push-channel":"\#(Data("pushdeck-channel-1".utf8).base64EncodedString())""# : ""
            let attributes = random.next() % 3 == 0 ? "" : #","attributes-type":"Delivery","attributes":{"order":"A"},"input-push-token":1\#(subscribed)"#
            return .push(PushRequest(
                payloadText: #"{"aps":{\#(timestamp)"event":"\#(event)",\#(content)\#(attributes)}}"#, app: "com.example.shop",
                channel: .apns, pushType: "liveactivity", via: .apns, token: token))
        }
    }
}
