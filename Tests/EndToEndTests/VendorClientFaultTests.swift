import Foundation
import PushJSON
import Testing
import TestSupport

/// firebase-admin 7.7.0 against an injected 503, asserting what its source (firebase_admin/
/// _http_client.py in the test virtualenv) says it does: messaging.send goes through a requests
/// session mounted with urllib3's `Retry(connect=1, read=1, status=4, status_forcelist=[500, 503],
/// raise_on_status=False, backoff_factor=0.5)`, so a 503 is sent again by the library itself;
/// urllib3 2.x waits no backoff before the first retry (`get_backoff_time` is 0 for one error)
/// and honours a `retry-after` it gets on a 503.
extension FCMGatewayTests {
    @Test func firebaseAdminRetriesAnInjected503ByItselfAndTheMessageArrivesOnce() throws {
        let gateway = try GatewayServer()
        let console = try consoleKeyFile(gateway)
        #expect(try gateway.run(["key", "add", "fcm", "--service-account", console, "--app", "com.example.shop"]).status == 0)
        var file = try #require(try JSON.parse(Array(try String(contentsOfFile: console, encoding: .utf8).utf8)).objectValue)
        file["token_uri"] = .string("https://localhost:\(gateway.port)/token")
        let pointed = gateway.server.folder.file("pointed.json")
        try JSON.object(file).prettyText.write(toFile: pointed, atomically: true, encoding: .utf8)
        // `--vendor fcm` alone means the sends: the OAuth exchange on /token (which google-auth
        // would retry by itself) is faulted only by a fault whose --path names it.
        #expect(try gateway.run(["fault", "add", "--vendor", "fcm", "--status", "503", "--count", "1"]).status == 0)

        let seen = try client(["send"], gateway, account: pointed, tokens: [Self.android])
        let name = try #require(seen["send"]?["result"]?.stringValue, "\(seen)")
        #expect(name.hasPrefix("projects/\(Self.project)/messages/0:"), "\(name)")

        // The faulted 503 (FCM's UNAVAILABLE, the fault's id), then the same message again, 200.
        let all = try RequestLogEndToEndTests.records(gateway, ["--vendor", "fcm"])
        let exchanges = all.filter { $0["path"] == "/token" }
        #expect(!exchanges.isEmpty && exchanges.allSatisfy { $0["status"] == 200 && $0["fault"] == nil }, "\(all)")
        let records = all.filter { $0["path"] != "/token" }
        #expect(records.map { $0["status"]?.intValue } == [503, 200], "\(records)")
        #expect(records.first?["reason"] == "UNAVAILABLE" && records.first?["fault"] == 1, "\(records)")
        #expect(records.last?["fault"] == nil)
        #expect(records.first?["notificationKey"] == records.last?["notificationKey"], "\(records)")
        let verdict = try gateway.run(["expect", "--retried", "--after-status", "503", "--timeout", "5"])
        #expect(verdict.status == 0, "\(verdict.stderr)")

        let fcm = try messages(gateway).filter { $0["via"] == "fcm" }
        #expect(fcm.count == 1, "\(fcm)")
        #expect(fcm.first?["token"]?.stringValue == Self.android)
    }
}

/// JPush's Python SDK (jpush 3.4.1) against an injected 503: its `JPush._request` (jpush/core.py
/// in the test virtualenv) sends once on a plain requests session, no retry, and raises
/// `common.JPushFailure.from_response` for any status outside 2xx but 401, reading JPush's
/// `{"error":{"code","message"}}`. The 503's code is JPush's 1030 "Internal service timeout"
/// (JPush's Push API v3 error table; the fault's default for 503).
extension VendorGatewayTests {
    @Test func jpushsSDKRaisesJPushFailureWithJPushsCodeForAnInjected503AndNothingIsStored() throws {
        let gateway = try GatewayServer()
        #expect(try gateway.server.run(["key", "add", "jpush", "--app-key", Self.appKey, "--master-secret", Self.masterSecret]).status == 0)
        #expect(try gateway.run(["fault", "add", "--vendor", "jpush", "--status", "503"]).status == 0)
        let results = try python(
            "jpush_send.py", [String(gateway.port), Self.appKey, Self.masterSecret, Self.registrationId, Self.foreignId, Self.taggedId, "ios"],
            gateway: gateway)
        #expect(results.count == 1, "\(results)")
        let failure = try #require(results.first)
        #expect(failure["case"] == "ios" && failure["status"] == 503, "\(JSON.object(failure).compactText)")
        #expect(failure["error_code"] == 1030 && failure["message"] == "Internal service timeout", "\(JSON.object(failure).compactText)")
        #expect(failure["unauthorized"] == nil && failure["msg_id"] == nil)

        let records = try RequestLogEndToEndTests.records(gateway)
        #expect(records.map { $0["status"]?.intValue } == [503], "\(records)")
        #expect(records.first?["vendor"] == "jpush" && records.first?["reason"] == "1030" && records.first?["fault"] == 1, "\(records)")
        #expect(try messages(gateway).isEmpty)
        let devices = try JSON.parse(try gateway.server.run(["device", "list", "--json"]).output).arrayValue ?? []
        #expect(!devices.contains { $0.objectValue?["token"] == .string(Self.registrationId) }, "\(devices)")
    }
}
