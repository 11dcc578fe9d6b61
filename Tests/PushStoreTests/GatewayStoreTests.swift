import Foundation
import PushCore
import PushJSON
@testable import PushStore
import Testing
import TestSupport

/// The gateway's part of the store (migration 2): where a message came from, devices, keys.
@Suite struct GatewayStoreTests {
    static let token = SampleCredentials.apnsDeviceToken

    @Test(arguments: StoreKind.allCases)
    func aGatewayMessageKeepsViaTokenAndHeaders(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        defer { store.close() }
        var message = Samples.message(1)
        message.via = .apns
        message.token = Self.token
        message.apnsHeaders = ["apns-topic": "com.example.shop", "apns-collapse-id": "order-17", "apns-id": "x"]
        try store.write([.insert(message), .insert(Samples.message(2))])
        #expect(try store.message(id: 1) == message)
        let plain = try #require(try store.message(id: 2))
        #expect(plain.via == .socket && plain.token == nil && plain.apnsHeaders.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func devicesAndKeysAreWrittenChangedRemovedAndLoaded(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        defer { store.close() }
        let device = Device(token: Self.token, app: "com.example.shop")
        var gone = Device(token: "0f0f", app: "com.example.other", vendor: .getui)
        gone.unregisteredAt = Date(millisecondsSince1970: 1_700_000_000_123)
        let key = ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "-----BEGIN PRIVATE KEY-----")
        let jpush = ProviderKey(id: "appkey1", vendor: .jpush, secret: "master")
        try store.write([.device(device), .device(gone), .providerKey(key), .providerKey(jpush)])
        var inbox = try store.loadInbox()
        #expect(inbox.devices == [device.token: device, gone.token: gone])
        #expect(inbox.providerKeys == [key.id: key, jpush.id: jpush])

        var moved = device
        moved.app = "com.example.new"
        try store.write([.device(moved), .removeDevice(token: gone.token), .removeProviderKey(id: jpush.id)])
        inbox = try store.loadInbox()
        #expect(inbox.devices == [device.token: moved])
        #expect(inbox.providerKeys == [key.id: key])
    }

    /// Getui request ids are kept across a reopen, rows a day older than a new one are deleted
    /// as it is written, and `reset --all` forgets them.
    @Test func getuiRequestIdsSurviveAReopenAndAgeOutAfterADay() throws {
        let folder = TempFolder()
        let start = Date(millisecondsSince1970: 1_700_000_000_000)
        do {
            let store = try Store(path: folder.file("inbox.sqlite"))
            defer { store.close() }
            try store.write([
                .getuiRequestId(app: "appA", requestId: "request-0001", at: start),
                .getuiRequestId(app: "appB", requestId: "request-0001", at: start.addingTimeInterval(10)),
            ])
        }
        let store = try Store(path: folder.file("inbox.sqlite"))
        defer { store.close() }
        var inbox = try store.loadInbox()
        #expect(inbox.getuiRequestIds.count == 2)
        #expect(inbox.getuiRequestIds.contains(app: "appA", requestId: "request-0001", now: start.addingTimeInterval(60)))
        #expect(!inbox.getuiRequestIds.contains(app: "appA", requestId: "request-0002", now: start.addingTimeInterval(60)))
        try store.write([.getuiRequestId(app: "appA", requestId: "request-0002", at: start.addingTimeInterval(86_405))])
        inbox = try store.loadInbox()
        #expect(inbox.getuiRequestIds.count == 2)
        #expect(!inbox.getuiRequestIds.contains(app: "appA", requestId: "request-0001", now: start.addingTimeInterval(86_405)))
        #expect(inbox.getuiRequestIds.contains(app: "appB", requestId: "request-0001", now: start.addingTimeInterval(86_405)))
        try store.write([.reset(app: nil, all: true, idFloor: 0)])
        #expect(try store.loadInbox().getuiRequestIds.count == 0)
    }

    /// A JPush/Getui device's tags and alias are stored, replaced and loaded; a tag
    /// may hold anything but a control character (JPush allows @!#$&*+=.|￥ and CJK).
    @Test(arguments: StoreKind.allCases)
    func tagsAndAliasSurviveARestart(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        defer { store.close() }
        let tagged = Device(token: "1104a89792a8a5f4c1d", app: "4f3b2a1908f7e6d5c4b3a291", vendor: .jpush, tags: ["深圳", "vip|gold", "a,b"], alias: "user 892")
        let plain = Device(token: "170976fa8a8620ca1e1", app: "4f3b2a1908f7e6d5c4b3a291", vendor: .jpush)
        try store.write([.device(tagged), .device(plain)])
        var inbox = try store.loadInbox()
        #expect(inbox.devices[tagged.token]?.tags == ["a,b", "vip|gold", "深圳"])
        #expect(inbox.devices[tagged.token]?.alias == "user 892")
        #expect(inbox.devices[plain.token] == plain)
        var retagged = tagged
        retagged.tags = []
        retagged.alias = nil
        try store.write([.device(retagged)])
        inbox = try store.loadInbox()
        #expect(inbox.devices[tagged.token] == retagged)
    }

    @Test(arguments: StoreKind.allCases)
    func resetAllForgetsDevicesAndKeysAndResetOfAnAppKeepsThem(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        defer { store.close() }
        let device = Device(token: Self.token, app: "com.example.shop")
        let key = ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "PEM")
        try store.write([.device(device), .providerKey(key)])
        try store.write([.reset(app: "com.example.shop", all: false, idFloor: 0)])
        #expect(try store.loadInbox().devices.count == 1)
        try store.write([.reset(app: nil, all: true, idFloor: 0)])
        let inbox = try store.loadInbox()
        #expect(inbox.devices.isEmpty && inbox.providerKeys.isEmpty)
    }

    @Test func aVersion1DatabaseIsMigratedAndItsMessagesCameByTheSocket() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        do {
            let database = try Database(path: path)
            try database.execute("PRAGMA application_id = \(Schema.applicationId)")
            try database.execute(Schema.migrations[0])
            try database.execute(
                "INSERT INTO messages (id, app, channel, received_at, payload) VALUES (1, 'com.example.shop', 'apns', 5, '{}')")
            try database.execute("PRAGMA user_version = 1")
            database.close()
        }
        let store = try Store(path: path)
        defer { store.close() }
        let message = try #require(try store.message(id: 1))
        #expect(message.via == .socket)
        #expect(message.token == nil)
        #expect(try store.loadInbox().devices.isEmpty)
    }

    /// FCM devices (their tokens as written, their topics) and service-account keys are kept, and a
    /// database from before FCM keeps its devices and keys through the migration that lets them in.
    @Test func fcmDevicesTopicsAndKeysSurviveAReopenAndTheMigration() throws {
        let folder = TempFolder()
        let path = folder.file("inbox.sqlite")
        let before = Schema.migrations.firstIndex { $0.contains("devices_fcm") } ?? Schema.migrations.count
        do {
            let database = try Database(path: path)
            try database.execute("PRAGMA application_id = \(Schema.applicationId)")
            for migration in Schema.migrations.prefix(before) { try database.execute(migration) }
            try database.execute("INSERT INTO devices (token, app, vendor, tags) VALUES ('0f0f', 'com.example.shop', 'getui', 'vip')")
            try database.execute("INSERT INTO provider_keys (id, vendor, team, secret) VALUES ('ABC123DEFG', 'apns', 'TEAM123456', 'pem')")
            try database.execute("PRAGMA user_version = \(before)")
            database.close()
        }
        let fcm = Device(token: "cK9x:APA91b-Q_z", app: "com.example.shop", vendor: .fcm, topics: ["weather", "news", "news"])
        let key = ProviderKey(id: "sa@p.iam.gserviceaccount.com", vendor: .fcm, team: "my-project", appKey: "com.example.shop", secret: "pem")
        do {
            let store = try Store(path: path)
            defer { store.close() }
            let inbox = try store.loadInbox()
            #expect(inbox.devices["0f0f"] == Device(token: "0f0f", app: "com.example.shop", vendor: .getui, tags: ["vip"]))
            #expect(inbox.providerKeys["ABC123DEFG"]?.team == "TEAM123456")
            try store.write([.device(fcm), .providerKey(key)])
        }
        let store = try Store(path: path)
        defer { store.close() }
        let inbox = try store.loadInbox()
        #expect(inbox.devices[fcm.token] == fcm)
        #expect(inbox.devices[fcm.token]?.topics == ["news", "weather"])
        #expect(inbox.providerKeys[key.id] == key)
    }
}

/// Live Activities in the store (their migration): a device's kind, each activity whole with
/// its history, the pushes that reached none — written, loaded again, and forgotten by reset.
@Suite struct ActivityStoreTests {
    @Test(arguments: StoreKind.allCases)
    func activitiesAndTokenKindsAreWrittenAndLoaded(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        defer { store.close() }
        let at = Date(millisecondsSince1970: 1_764_547_200_000)
        let startToken = Device(token: "5a5a", app: "com.example.food", kind: .pushToStart)
        var activity = Activity(
            id: "activity-3", app: "com.example.food", attributesType: "DeliveryAttributes", attributes: ["order": "A-17"],
            contentState: ["status": "on the way", "eta": 10], pushToken: "1ac7", startToken: "5a5a", channel: "dGVzdA==",
            startedAt: at)
        activity.timestamp = 1_764_547_300
        activity.staleDate = at.addingTimeInterval(1800)
        activity.relevanceScore = 0.75
        let history = [
            ActivityUpdate(at: at, token: "5a5a", app: "com.example.food", event: "start", timestamp: 1_764_547_200,
                           contentState: ["status": "preparing"], accepted: true),
            ActivityUpdate(at: at, token: "1ac7", app: "com.example.food", event: "update", timestamp: 1_764_547_100,
                           contentState: "x", alert: "Late", accepted: false, why: "timestamp 1764547100 is older than the last applied (1764547200)"),
        ]
        let unmatched = ActivityUpdate(at: at, token: "5a5a", app: "com.example.food", event: "update", timestamp: nil,
                                       contentState: nil, accepted: false, why: "no timestamp")
        // As pushes write it: each write of the activity records one more update.
        activity.history = [history[0]]
        try store.write([.device(startToken), .activity(ActivityWrite(activity)), .activityUnmatched(unmatched)])
        activity.history = ActivityHistory(history)
        try store.write([.activity(ActivityWrite(activity))])
        var inbox = try store.loadInbox()
        #expect(inbox.devices["5a5a"] == startToken)
        #expect(inbox.activities.byId == ["activity-3": activity])
        #expect(inbox.activities.idByToken == ["1ac7": "activity-3"])
        #expect(inbox.activities.unmatched == [unmatched])
        #expect(inbox.activities.nextNumber == 4)

        try store.write([.reset(app: "com.example.food", all: false, idFloor: 0)])
        inbox = try store.loadInbox()
        #expect(inbox.activities.all.isEmpty && inbox.activities.unmatched.isEmpty)
    }
}

extension ActivityStoreTests {
    static let at = Date(millisecondsSince1970: 1_764_547_200_000)

    /// An activity that took `count` updates, each written to `store` as a push writes it.
    func activity(updatedTimes count: Int, writtenTo store: Store) throws -> Activity {
        var activity = Activity(id: "activity-1", app: "a.b", pushToken: "1ac7", startedAt: Self.at)
        for number in 0..<count {
            activity.record(ActivityUpdate(at: Self.at, token: "1ac7", app: "a.b", event: "update", timestamp: Int64(number),
                                           contentState: ["n": .number(JSONNumber(number))], accepted: true))
            try store.write([.activity(ActivityWrite(activity))])
        }
        return activity
    }

    /// A change that adds no push (the user's dismissal, an offline device's pending update)
    /// rewrites the activity and leaves its stored history as it was.
    @Test func aWriteThatAddsNoPushKeepsTheStoredHistory() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        defer { store.close() }
        var activity = try activity(updatedTimes: 3, writtenTo: store)
        activity.dismissalDate = Self.at.addingTimeInterval(60)
        activity.dismissedByUser = true
        try store.write([.activity(ActivityWrite(activity, adding: false))])
        let loaded = try #require(try store.loadInbox().activities.byId["activity-1"])
        #expect(loaded == activity)
        #expect(loaded.history.map(\.timestamp) == [0, 1, 2] && loaded.dismissedByUser)
    }

    /// A long-lived activity keeps only its newest updates, on the file as in memory.
    @Test func onlyTheNewestHundredUpdatesAreKept() throws {
        let folder = TempFolder()
        let store = try Store(path: folder.file("inbox.sqlite"))
        defer { store.close() }
        let activity = try activity(updatedTimes: Activity.historyLimit + 5, writtenTo: store)
        let loaded = try #require(try store.loadInbox().activities.byId["activity-1"])
        #expect(loaded == activity)
        #expect(loaded.earlier == 5 && loaded.history.first?.timestamp == 5 && loaded.history.count == Activity.historyLimit)
    }
}
