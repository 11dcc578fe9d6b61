import Foundation
import PushCore
import Testing
import TestSupport

/// Scenario pushes `via` the APNs/JPush gateway, through the real binary.
@Suite(.serialized) struct PlayGatewayTests {
    @Test func aRecordedGatewaySessionPlaysBackThroughTheSameRoutes() throws {
        let gateway = try GatewayServer()
        let server = gateway.server
        let file = server.folder.file("recorded.json")
        let record = try BackgroundCommand(["record", file], socket: server.socket, folder: server.folder, name: "record")
        let deadline = Date().addingTimeInterval(10)
        while !record.stderrSoFar.contains("recording to") && Date() < deadline { usleep(5_000) }
        #expect(try server.run(["app", "background"]).status == 0)
        for alert in ["packed", "shipped"] {
            let sent = try gateway.curl(["--http1.1", "-H", "apns-collapse-id: order-7"], tls: false,
                                        body: #"{"aps":{"alert":""# + alert + #"","badge":1}}"#)
            #expect(sent.output.hasSuffix("200 1.1"), "\(sent.output)")
        }
        let body = #"{"platform":["ios"],"audience":{"registration_id":["1a0018970a"]},"notification":{"ios":{"alert":"jpush"}}}"#
        let jpush = try Spawn.run(["curl", "-sS", "--max-time", "10", "-u", "shopkey:secret", "--data-binary", body,
                                   "-w", "\n%{http_code}", "http://\(gateway.address)/v3/push"], captureOutput: true)
        #expect(jpush.output.hasSuffix("200"), "\(jpush.output)")
        #expect(try server.run(["expect", "--app", "com.example.gateway", "--unread", "1", "--timeout", "5"]).status == 0)
        #expect(try server.run(["expect", "--app", "shopkey", "--unread", "1", "--timeout", "5"]).status == 0)
        record.interrupt()
        let done = try #require(record.wait(seconds: 10))
        #expect(done.status == 0, "\(done.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""via":"apns","token":"0123abcd","headers":{"#), "\(text)")
        #expect(text.contains(#""apns-collapse-id":"order-7""#), "\(text)")
        #expect(text.contains(#""via":"jpush""#), "\(text)")
        let played = try runPushdeck(["play", file])
        #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
        #expect(played.stdout.contains("all passed"), "\(played.stdout)")
    }

    @Test func aGatewayRefusalIsTheSameVerdictInstantAndLive() throws {
        let gateway = try GatewayServer()
        let server = gateway.server
        let file = server.folder.file("refused.json")
        try Data(Self.refused.utf8).write(to: URL(fileURLWithPath: file))
        let played = try runPushdeck(["play", file])
        #expect(played.status == 1)
        #expect(played.stdout == "\(file): step 4 (at 0 s): delivered: expected true, got false\nrefused: 2 expects, 1 failed\n", "\(played.stdout)")
        let live = try server.run(["play", "--live", file])
        #expect(live.status == 1)
        #expect(live.stdout == played.stdout, "live: \(live.stdout)\(live.stderr)")
        #expect(try server.run(["list", "--json"]).stdout == "[]\n", "a refused push delivers nothing")
    }

    static let refused = """
        {"name":"refused","steps":[
          {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"x"}},"via":"apns","token":"not-hex"}},
          {"app":"com.example.shop","expect":{"delivered":false,"reason":"BadDeviceToken","unread":0}},
          {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"x"}},"via":"apns","token":"ab12","headers":{"apns-push-type":"pager"}}},
          {"app":"com.example.shop","expect":{"delivered":true}}
        ]}
        """

    @Test func livePlayWithoutAGatewaySaysToStartOne() throws {
        let server = try ServerProcess()
        let file = server.folder.file("refused.json")
        try Data(Self.refused.utf8).write(to: URL(fileURLWithPath: file))
        let live = try server.run(["play", "--live", file])
        #expect(live.status != 0)
        #expect(live.stderr.contains("needs the running pushdeck's gateway (`pushdeck serve --gateway`)"), "\(live.stderr)")
        #expect(try server.run(["list", "--json"]).stdout == "[]\n")
    }

    /// A registered APNs key: live play signs with it (the credentials the server hands out), so
    /// the gateway takes the push a made-up token would not pass.
    @Test func livePlaySendsARegisteredKeysCredentials() throws {
        let gateway = try GatewayServer()
        let server = gateway.server
        let p8 = server.folder.file("AuthKey_ABC123DEFG.p8")
        try APNsKeys.makeP8().write(toFile: p8, atomically: true, encoding: .utf8)
        let added = try server.run(["key", "add", "apns", "--key-id", "ABC123DEFG", "--team", "TEAM123456", "--p8", p8])
        #expect(added.status == 0, "\(added.stderr)")
        let file = server.folder.file("signed.json")
        try Data("""
            {"name":"signed","steps":[
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"signed"}},"via":"apns","token":"ab12"}},
              {"app":"com.example.shop","expect":{"delivered":true,"unread":1}}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let live = try server.run(["play", "--live", file])
        #expect(live.status == 0, "\(live.stdout)\(live.stderr)")
        // Instant play registers no key: its made-up token passes there, as it did here before the key.
        #expect(try runPushdeck(["play", file]).status == 0)
    }
}

/// A `fault` step arms a fault as `pushdeck fault add` does: instant play answers the gateway
/// steps after it with the fault, live play arms the running gateway.
@Suite struct PlayFaultTests {
    @Test func aFaultStepRefusesTheNextGatewayPushOnceInstantly() throws {
        let folder = TempFolder()
        let file = folder.file("fault.json")
        try Data("""
            {"name":"fault","steps":[
              {"fault":{"vendor":"apns","status":429,"reason":"TooManyRequests","retryAfter":3,"count":1}},
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"x"}},"via":"apns","token":"ab12"}},
              {"app":"com.example.shop","expect":{"delivered":false,"reason":"TooManyRequests","unread":0}},
              {"at":"+3","app":"com.example.shop","push":{"payload":{"aps":{"alert":"x"}},"via":"apns","token":"ab12"}},
              {"app":"com.example.shop","expect":{"delivered":true,"unread":1}}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let played = try runPushdeck(["play", file])
        #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
    }

    @Test func aFaultStepPlaysTheSameInstantlyAndLiveAndArmsTheRunningGateway() throws {
        let gateway = try GatewayServer()
        let file = gateway.server.folder.file("fault-live.json")
        try Data("""
            {"name":"fault live","steps":[
              {"fault":{"vendor":"fcm","status":503,"for":"5m"}},
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"x"}}}},
              {"app":"com.example.shop","expect":{"delivered":true,"unread":1}}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let instant = try runPushdeck(["play", file])
        let live = try gateway.server.run(["play", "--live", file])
        #expect(instant.status == 0 && live.status == 0, "\(instant.stdout)\(live.stdout)\(live.stderr)")
        #expect(instant.stdout == live.stdout, "instant: \(instant.stdout) live: \(live.stdout)")
        #expect(try gateway.server.run(["fault", "list"]).stdout.contains("vendor fcm status 503"))
        let bad = folder(gateway).file("bad.json")
        try Data(#"{"name":"bad","steps":[{"fault":{"vendor":"jpush","path":"/3/*","status":500}}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try runPushdeck(["play", bad])
        #expect(refused.status == 2 && refused.stderr.contains("steps[0].fault: --vendor jpush --path '/3/*' can never match"), "\(refused.stderr)")
    }

    private func folder(_ gateway: GatewayServer) -> TempFolder { gateway.server.folder }
}
