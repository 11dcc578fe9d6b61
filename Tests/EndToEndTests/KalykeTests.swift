import Foundation
import PushCore
import PushJSON
import Testing
import TestSupport

/// kalyke-apns (pinned in Tests/Clients/requirements.txt), unchanged but for its endpoint: its
/// LiveActivityClient signs its own provider token (`iat` a string of digits) with the registered
/// key and sends Live Activity pushes; pushdeck answers as APNs does and shows what the device
/// made of each.
extension APNsGatewayTests {
    func kalyke(_ gateway: GatewayServer, key: String, _ requests: [JSON]) throws -> [JSONObject] {
        let spec: JSON = [
            "base_url": .string("https://localhost:\(gateway.port)"), "key": .string(key), "key_id": .string(Self.keyId),
            "team_id": .string(Self.team), "topic": .string(Self.liveTopic), "requests": .array(requests),
        ]
        let specPath = gateway.server.folder.file("kalyke.json")
        try spec.compactText.write(toFile: specPath, atomically: true, encoding: .utf8)
        let script = PackagePaths.root.appendingPathComponent("Tests/Clients/kalyke_send.py").path
        let result = try runProgram(
            ["timeout", "60", try GatewayServer.venvPython(), script, specPath], environment: ["SSL_CERT_FILE": gateway.caPath])
        #expect(result.status == 0, "kalyke: \(result.stderr)")
        return try result.stdout.split(separator: "\n").map { line in try #require(try JSON.parse(String(line)).objectValue) }
    }

    @Test func kalykeUpdatesAndEndsALiveActivityAndItsStartWithoutAttributesIsShownDiscarded() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: true)
        let activityToken = String(repeating: "3d", count: 32)
        #expect(try gateway.run(["device", "add", Self.startToken, "--app", Self.food, "--kind", "push-to-start"]).status == 0)
        #expect(try gateway.run(["device", "add", activityToken, "--app", Self.food, "--kind", "activity"]).status == 0)
        let now = Int(Date().timeIntervalSince1970)
        // kalyke 1.5.0 checks a start's attributes but leaves attributes-type and attributes
        // out of the payload it sends: APNs takes it, the device starts nothing.
        let start: JSON = [
            "token": .string(Self.startToken), "event": "start", "timestamp": .number(JSONNumber(now)), "content_state": ["eta": 25],
            "attributes_type": "DeliveryAttributes", "attributes": ["order": "A-17"],
        ]
        let update: JSON = ["token": .string(activityToken), "event": "update", "timestamp": .number(JSONNumber(now + 10)), "content_state": ["eta": 10]]
        let stale: JSON = ["token": .string(activityToken), "event": "update", "timestamp": .number(JSONNumber(now + 5)), "content_state": ["eta": 99]]
        let end: JSON = [
            "token": .string(activityToken), "event": "end", "timestamp": .number(JSONNumber(now + 20)), "content_state": ["eta": 0],
            "dismissal_date": .number(JSONNumber(now + 600)),
        ]
        let sent = try kalyke(gateway, key: key, [start, update, stale, end])
        #expect(sent.map { $0["status"] } == [200, 200, 200, 200])
        #expect(sent.allSatisfy { $0["apns_id"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil })

        let listed = try activityList(gateway)
        #expect(listed["unmatched"]?.arrayValue?.first?.objectValue?["why"]
            == "a start needs attributes-type (a string) and attributes (an object)")
        let activity = try #require(listed["activities"]?.arrayValue?.first?.objectValue)
        #expect(activity["pushToken"] == .string(activityToken))
        #expect(activity["state"] == "ended" && activity["contentState"] == ["eta": 0] && activity["discarded"] == 1)
        #expect(activity["history"]?.arrayValue?.compactMap { $0.objectValue?["why"]?.stringValue }
            == ["timestamp \(now + 5) is older than the last applied (\(now + 10))"])
    }
}
