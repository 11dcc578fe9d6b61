import Foundation
import PushCore
import PushJSON
import Testing
import TestSupport

/// Live Activities end to end: the real binary's gateway, driven by aioapns (its
/// `PushType.LIVEACTIVITY`, unchanged but for host and port) signing real ES256 provider tokens,
/// and `pushdeck activity list --json` reading what the device made of each push.
extension APNsGatewayTests {
    static let food = "com.example.food"
    static let liveTopic = "com.example.food.push-type.liveactivity"
    static let startToken = String(repeating: "5a", count: 32)

    func activityList(_ gateway: GatewayServer) throws -> JSONObject {
        let listed = try gateway.run(["activity", "list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        return try #require(try JSON.parse(listed.stdout).objectValue)
    }

    @Test func aioapnsStartsUpdatesAndEndsALiveActivityAndTheDiscardedPushesSayWhy() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: true)
        #expect(try gateway.run(["device", "add", Self.startToken, "--app", Self.food, "--kind", "push-to-start"]).status == 0)
        let now = Int(Date().timeIntervalSince1970)
        let start: JSON = ["aps": [
            "timestamp": .int(now), "event": "start", "attributes-type": "DeliveryAttributes", "attributes": ["order": "A-17"],
            "content-state": ["status": "preparing", "eta": 25], "input-push-token": 1,
            "alert": ["title": "Order A-17", "body": "We are on it"],
        ]]
        let started = try aioapns(gateway, key: key, topic: Self.liveTopic, [
            ["token": .string(Self.startToken), "message": start, "push_type": "liveactivity", "priority": 10],
            // The bare bundle topic is no Live Activity topic; a push-to-start token takes no alert.
            ["token": .string(Self.startToken), "message": start, "push_type": "liveactivity", "topic": .string(Self.food)],
            ["token": .string(Self.startToken), "message": ["aps": ["alert": "Hi"]], "push_type": "alert", "topic": .string(Self.food)],
            // A start without attributes: APNs takes it, the device starts nothing.
            ["token": .string(Self.startToken), "message": ["aps": ["timestamp": .int(now), "event": "start", "content-state": [:]]],
             "push_type": "liveactivity"],
        ])
        #expect(started.map { $0["status"]?.stringValue } == ["200", "400", "400", "200"])
        #expect(started.map { $0["description"]?.stringValue } == [nil, "TopicDisallowed", "DeviceTokenNotForTopic", nil])

        let first = try activityList(gateway)
        let activity = try #require(first["activities"]?.arrayValue?.first?.objectValue)
        #expect(activity["state"] == "active" && activity["attributesType"] == "DeliveryAttributes")
        let pushToken = try #require(activity["pushToken"]?.stringValue)
        #expect(first["unmatched"]?.arrayValue?.first?.objectValue?["why"]
            == "a start needs attributes-type (a string) and attributes (an object)")

        let updates = try aioapns(gateway, key: key, topic: Self.liveTopic, [
            ["token": .string(pushToken), "push_type": "liveactivity", "priority": 10,
             "message": ["aps": ["timestamp": .int(now + 60), "event": "update", "content-state": ["status": "on the way", "eta": 10]]]],
            ["token": .string(pushToken), "push_type": "liveactivity", "priority": 10,
             "message": ["aps": ["timestamp": .int(now + 30), "event": "update", "content-state": ["status": "late", "eta": 20]]]],
            ["token": .string(pushToken), "push_type": "liveactivity", "priority": 10,
             "message": ["aps": ["event": "update", "content-state": ["status": "no timestamp"]]]],
            ["token": .string(pushToken), "push_type": "liveactivity", "priority": 10,
             "message": ["aps": ["timestamp": .int(now + 90), "event": "update", "content-state": "delivered"]]],
            ["token": .string(pushToken), "push_type": "liveactivity", "priority": 10,
             "message": ["aps": ["timestamp": .int(now + 120), "event": "end", "content-state": ["status": "delivered", "eta": 0],
                                 "dismissal-date": .int(now + 3600)]]],
            ["token": .string(pushToken), "push_type": "liveactivity", "priority": 10,
             "message": ["aps": ["timestamp": .int(now + 180), "event": "update", "content-state": ["status": "after the end"]]]],
            // The activity's token on the bare topic is not for it.
            ["token": .string(pushToken), "push_type": "alert", "topic": .string(Self.food), "message": ["aps": ["alert": "x"]]],
        ])
        #expect(updates.map { $0["status"]?.stringValue } == ["200", "200", "200", "200", "200", "200", "400"])

        let after = try #require(try activityList(gateway)["activities"]?.arrayValue?.first?.objectValue)
        #expect(after["state"] == "ended")
        #expect(after["contentState"] == ["status": "delivered", "eta": 0])
        #expect(after["discarded"] == 4)
        let entries = try #require(after["history"]?.arrayValue)
        let history = entries.compactMap(\.objectValue)
        #expect(history.map { $0["accepted"]?.boolValue } == [true, true, false, false, false, true, false])
        #expect(history.compactMap { $0["why"]?.stringValue } == [
            "timestamp \(now + 30) is older than the last applied (\(now + 60))", "no timestamp",
            "content-state is not an object (got a string)", "the activity has ended: it takes no more updates",
        ])
        #expect(history.first?["alert"] == "Order A-17")
        // No liveactivity push became a message of the list.
        #expect(try messages(gateway).isEmpty)

        // The table a person reads.
        let table = try gateway.run(["activity", "list"])
        #expect(table.stdout.contains("activity-1") && table.stdout.contains("status: delivered, eta: 0") && table.stdout.contains("ended"))
        #expect(table.stdout.contains("1 liveactivity push reached no activity"))
    }

    @Test func strictDevicesRefuseAnUnknownActivityTokenAndOpenOnesRegisterIt() throws {
        let gateway = try GatewayServer(extraArguments: ["--devices", "strict"])
        let unknown = String(repeating: "7c", count: 32)
        let update = #"{"aps":{"timestamp":1764547200,"event":"update","content-state":{"score":"1-0"}}}"#
        let headers = ["authorization: \(APNsKeys.wellFormedAuthorization)", "apns-topic: \(Self.liveTopic)", "apns-push-type: liveactivity"]
        #expect(try curl(gateway, path: "/3/device/\(unknown)", headers: headers, body: update).reason == "BadDeviceToken")
        #expect(try activityList(gateway)["activities"] == [])
        #expect(try gateway.run(["device", "add", unknown, "--app", Self.food, "--kind", "activity"]).status == 0)
        let answer = try curl(gateway, path: "/3/device/\(unknown)", headers: headers, body: update)
        #expect(answer.status == 200)
        let activity = try #require(try activityList(gateway)["activities"]?.arrayValue?.first?.objectValue)
        #expect(activity["pushToken"] == .string(unknown) && activity["contentState"] == ["score": "1-0"])
    }

    @Test func anActivityAndItsHistorySurviveARestartOnTheSQLiteFile() throws {
        let folder = TempFolder()
        var gateway = try GatewayServer(folder: folder, memory: false)
        let headers = ["authorization: \(APNsKeys.wellFormedAuthorization)", "apns-topic: \(Self.liveTopic)", "apns-push-type: liveactivity"]
        let start = #"{"aps":{"timestamp":1764547200,"event":"start","attributes-type":"Score","attributes":{"match":"A-B"},"content-state":{"score":"0-0"},"input-push-token":1}}"#
        #expect(try curl(gateway, path: "/3/device/\(Self.startToken)", headers: headers, body: start).status == 200)
        let before = try #require(try activityList(gateway)["activities"]?.arrayValue?.first?.objectValue)
        let token = try #require(before["pushToken"]?.stringValue)
        let stale = #"{"aps":{"timestamp":1764547100,"event":"update","content-state":{"score":"9-9"}}}"#
        #expect(try curl(gateway, path: "/3/device/\(token)", headers: headers, body: stale).status == 200)
        #expect(gateway.server.stop() == 0)

        gateway = try GatewayServer(folder: folder, memory: false)
        let after = try #require(try activityList(gateway)["activities"]?.arrayValue?.first?.objectValue)
        #expect(after["id"] == before["id"] && after["contentState"] == ["score": "0-0"] && after["discarded"] == 1)
        // Its token is still its own: the next update reaches it.
        let update = #"{"aps":{"timestamp":1764547300,"event":"update","content-state":{"score":"1-0"}}}"#
        #expect(try curl(gateway, path: "/3/device/\(token)", headers: headers, body: update).status == 200)
        let updated = try #require(try activityList(gateway)["activities"]?.arrayValue)
        #expect(updated.count == 1 && updated.first?.objectValue?["contentState"] == ["score": "1-0"])
    }
}

extension JSON {
    fileprivate static func int(_ value: Int) -> JSON { .number(JSONNumber(value)) }
}
