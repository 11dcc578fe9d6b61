import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// `pushdeck device …` and `pushdeck key …` against a real `pushdeck serve`: kept in SQLite
/// across a restart, refused with a clear message when wrong.
@Suite struct DeviceCommandTests {
    static let token = SampleCredentials.apnsDeviceToken
    static let simulator = String(repeating: "0F", count: 80)

    @Test func devicesAreAddedListedUnregisteredRemovedAndSurviveARestart() throws {
        let folder = TempFolder()
        var server = try ServerProcess(folder: folder)
        let added = try server.run(["device", "add", Self.token, "--app", "com.example.shop"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try server.run(["device", "add", Self.simulator, "--app", "com.example.news", "--vendor", "getui"]).status == 0)
        let unregistered = try server.run(["device", "unregister", Self.token, "--json"])
        #expect(unregistered.status == 0, "\(unregistered.stderr)")
        #expect(unregistered.output.contains(#""unregisteredAt":"20"#))

        #expect(server.stop() == 0)
        server = try ServerProcess(folder: folder)
        let listed = try server.run(["device", "list", "--json"])
        let devices = try #require(try JSON.parse(listed.output).arrayValue)
        #expect(devices.count == 2)
        let news = try #require(devices.first?.objectValue)
        #expect(news["token"] == .string(Self.simulator.lowercased()))
        #expect(news["vendor"] == "getui")
        #expect(news["unregisteredAt"] == .null)
        let shop = try #require(devices.last?.objectValue)
        #expect(shop["app"] == "com.example.shop")
        #expect(shop["unregisteredAt"]?.stringValue != nil)
        let table = try server.run(["device", "list"])
        #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix(Self.token) && $0.contains("  online  20") })

        // A JPush device's tags and alias survive the restart too, and the table shows them.
        #expect(try server.run(["device", "add", "1104a89792a8a5f4c1d", "--app", "appkey1", "--vendor", "jpush",
                                "--tag", "深圳", "--tag", "vip", "--alias", "user-892"]).status == 0)
        #expect(server.stop() == 0)
        server = try ServerProcess(folder: folder)
        let tagged = try #require(try JSON.parse(try server.run(["device", "list", "--json"]).output).arrayValue?
            .compactMap(\.objectValue).first { $0["token"] == "1104a89792a8a5f4c1d" })
        #expect(tagged["tags"] == .array(["vip", "深圳"]))
        #expect(tagged["alias"] == "user-892")
        #expect(try server.run(["device", "list"]).stdout.split(separator: "\n").contains { $0.hasPrefix("1104a89792a8a5f4c1d") && $0.hasSuffix("vip,深圳  user-892") })

        #expect(try server.run(["device", "remove", Self.token]).status == 0)
        let again = try server.run(["device", "remove", Self.token])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no device with token \(Self.token)"))
        #expect(try JSON.parse(try server.run(["device", "list", "--json"]).output).arrayValue?.count == 2)
    }

    @Test(arguments: [
        (["device"], "give an action"),
        (["device", "add", "ab:cd", "--app", "a"], "is not a device token"),
        (["device", "add", "abcd"], "needs --app BUNDLE"),
        (["device", "add", "abcd", "--app", "a", "--vendor", "hms"], "--vendor takes apns, jpush, getui or fcm"),
        (["device", "add", "ab cd", "--app", "a", "--vendor", "fcm"], "is not an FCM registration token"),
        (["device", "add", "abcd", "--app", "a", "--platform", "ios"], "--platform goes with --vendor fcm"),
        (["device", "forget", "abcd"], "unknown action 'forget'"),
        (["device", "add", "abcd", "--app", "a", "--tag", ""], "is not a tag or alias"),
        (["device", "add", "abcd", "--app", "a", "--alias", String(repeating: "x", count: 41)], "is not a tag or alias"),
        (["device", "remove", "abcd", "--tag", "vip"], "--tag and --alias go with device add"),
        (["key", "add", "apns", "--key-id", "K"], "needs --key-id K --team T --p8 FILE"),
        (["key", "add", "hms"], "takes a vendor"),
        (["key", "add", "fcm"], "key add fcm needs --service-account FILE"),
        (["key", "remove"], "takes one ID"),
    ])
    func badUsageIsExit2WithWhatIsAccepted(arguments: [String], message: String) throws {
        let result = try runPushdeck(arguments + ["--socket", "/nonexistent/s.sock"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func anAPNsKeyIsAddedFromItsP8AndListedWithoutItsSecret() throws {
        let server = try ServerProcess()
        let p8 = server.folder.file("AuthKey_ABC123DEFG.p8")
        try APNsKeys.makeP8().write(toFile: p8, atomically: true, encoding: .utf8)
        let added = try server.run(["key", "add", "apns", "--key-id", "ABC123DEFG", "--team", "TEAM123456", "--p8", p8])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try server.run(["key", "list", "--json"])
        #expect(listed.output == #"[{"id":"ABC123DEFG","vendor":"apns","team":"TEAM123456","appKey":null}]"#)
        #expect(!listed.stdout.contains("PRIVATE"))

        let notAKey = server.folder.file("notes.p8")
        try "hello".write(toFile: notAKey, atomically: true, encoding: .utf8)
        let refused = try server.run(["key", "add", "apns", "--key-id", "K2", "--team", "T", "--p8", notAKey])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is not an APNs signing key"))
        #expect(try server.run(["key", "remove", "ABC123DEFG"]).status == 0)
        #expect(try server.run(["key", "list", "--json"]).output == "[]")
    }

    @Test func devicesTakesOpenOrStrict() throws {
        let result = try runPushdeck(["serve", "--memory", "--socket", TempFolder().file("s.sock"), "--devices", "loose"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--devices takes open or strict, not 'loose'"))
    }
}
