import Foundation
import PushCore
import PushJSON
import Testing
import TestSupport

/// Key environments and the token reasons, with curl against the real binary's gateway and
/// provider tokens `pushdeck gateway token` signs with the registered key.
extension APNsGatewayTests {
    @Test func aKeyForOneEnvironmentSigningARequestToTheOtherIsBadEnvironmentKeyIdInToken() throws {
        let gateway = try GatewayServer()
        let p8 = gateway.server.folder.file("AuthKey_\(Self.keyId).p8")
        try APNsKeys.makeP8().write(toFile: p8, atomically: true, encoding: .utf8)
        let bad = try gateway.run(["key", "add", "apns", "--key-id", Self.keyId, "--team", Self.team, "--p8", p8, "--environment", "staging"])
        #expect(bad.status == 2 && bad.stderr.contains("--environment must be sandbox or production"), "\(bad.stderr)")
        #expect(try gateway.run(["key", "list", "--json"]).stdout.contains("[]"))
        let added = try gateway.run(["key", "add", "apns", "--key-id", Self.keyId, "--team", Self.team, "--p8", p8, "--environment", "sandbox"])
        #expect(added.status == 0 && added.stdout.contains("sandbox only"), "\(added.stderr)")
        #expect(try gateway.run(["key", "list", "--json"]).stdout.contains(#""environment":"sandbox""#))
        let token = try gateway.run(["gateway", "token"]).output
        let headers = ["authorization: bearer \(token)", "apns-topic: com.example.shop"]

        // The host a client names tells the environment: Apple's sandbox host, or production.
        let sandbox = try curl(gateway, headers: headers + ["host: api.sandbox.push.apple.com"])
        #expect(sandbox.status == 200)
        let production = try curl(gateway, headers: headers + ["host: api.push.apple.com"])
        #expect(production.status == 403 && production.reason == "BadEnvironmentKeyIdInToken")
        // pushdeck's own address is production, the environment a client names by default.
        let local = try curl(gateway, headers: headers, mode: .tls)
        #expect(local.status == 403 && local.reason == "BadEnvironmentKeyIdInToken")
        #expect(try curl(gateway, headers: headers + ["host: api.sandbox.push.apple.com:443"], mode: .http1).status == 200)
        #expect(try messages(gateway).count == 2)

        // Registered again for both (no --environment): every host is taken.
        #expect(try gateway.run(["key", "add", "apns", "--key-id", Self.keyId, "--team", Self.team, "--p8", p8]).status == 0)
        #expect(try curl(gateway, headers: headers, mode: .tls).status == 200)
    }

    @Test func aPushToTheTokenOfAnActivityThatEndedAndLeftTheScreenIsExpiredToken() throws {
        let gateway = try GatewayServer()
        let live = ["authorization: \(APNsKeys.wellFormedAuthorization)", "apns-topic: \(Self.liveTopic)", "apns-push-type: liveactivity"]
        let now = Int(Date().timeIntervalSince1970)
        let start = #"{"aps":{"timestamp":\#(now),"event":"start","attributes-type":"Delivery","attributes":{"order":"A"},"content-state":{"eta":5},"input-push-token":1}}"#
        #expect(try curl(gateway, path: "/3/device/\(Self.startToken)", headers: live, body: start).status == 200)
        let activity = try #require(try activityList(gateway)["activities"]?.arrayValue?.first?.objectValue)
        let token = try #require(activity["pushToken"]?.stringValue)
        // Ended, with a dismissal date an hour off: still on screen, its token still takes pushes.
        let end = #"{"aps":{"timestamp":\#(now + 1),"event":"end","content-state":{"eta":0},"dismissal-date":\#(now + 3600)}}"#
        #expect(try curl(gateway, path: "/3/device/\(token)", headers: live, body: end).status == 200)
        let late = #"{"aps":{"timestamp":\#(now + 2),"event":"update","content-state":{"eta":1}}}"#
        #expect(try curl(gateway, path: "/3/device/\(token)", headers: live, body: late).status == 200)
        // Dismissed (an end whose dismissal date has passed): the token has expired.
        let other = String(repeating: "4e", count: 32)
        #expect(try gateway.run(["device", "add", other, "--app", Self.food, "--kind", "activity"]).status == 0)
        let dismiss = #"{"aps":{"timestamp":\#(now + 1),"event":"end","content-state":{"eta":0},"dismissal-date":\#(now - 10)}}"#
        #expect(try curl(gateway, path: "/3/device/\(other)", headers: live, body: dismiss).status == 200)
        let expired = try curl(gateway, path: "/3/device/\(other)", headers: live, body: late)
        #expect(expired.status == 410 && expired.reason == "ExpiredToken")
        // Refused whole: its history did not grow.
        let listed = try #require(try activityList(gateway)["activities"]?.arrayValue).compactMap(\.objectValue)
        #expect(listed.first { $0["pushToken"] == .string(other) }?["history"]?.arrayValue?.count == 1)
    }
}
