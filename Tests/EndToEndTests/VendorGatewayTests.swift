import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// JPush's and Getui's server APIs end to end: the real binary on a real port over TLS, driven by
/// JPush's official Python SDK (pinned in the test virtualenv, pointed at the gateway through a
/// zone of its own) and, for Getui (which has no maintained Python SDK for REST v2), by curl and
/// Python requests making the calls exactly as Getui's documentation shows them.
@Suite(.serialized) struct VendorGatewayTests {
    static let appKey = SampleCredentials.jpushAppKey
    static let masterSecret = SampleCredentials.jpushMasterSecret
    static let registrationId = SampleCredentials.jpushRegistrationId
    static let foreignId = "170976fa8a8620ca1e1"
    static let taggedId = "1104a89792a8a5f4c1d"
    static let appId = SampleCredentials.getuiAppId
    static let getuiKey = SampleCredentials.getuiAppKey
    static let getuiSecret = SampleCredentials.getuiMasterSecret
    static let cid = SampleCredentials.getuiCid

    func lines(_ text: String) throws -> [JSONObject] {
        try text.split(separator: "\n").map { line in try #require(try JSON.parse(String(line)).objectValue) }
    }

    func python(_ script: String, _ arguments: [String], gateway: GatewayServer, environment: [String: String] = [:]) throws -> [JSONObject] {
        let path = PackagePaths.root.appendingPathComponent("Tests/Clients/\(script)").path
        let result = try runProgram(
            ["timeout", "60", try TestVenv.python(), path] + arguments, environment: environment.merging(["REQUESTS_CA_BUNDLE": gateway.ca]) { $1 })
        #expect(result.status == 0, "\(script): \(result.stderr)")
        return try lines(result.stdout)
    }

    /// curl over TLS: the status and the JSON body.
    func curl(_ gateway: GatewayServer, _ path: String, headers: [String], body: String) throws -> (status: Int, body: JSONObject?) {
        var arguments = ["curl", "-sS", "--max-time", "10", "--cacert", gateway.ca, "-o", "-", "-w", "\n%{http_code}", "-X", "POST"]
        for header in headers { arguments += ["-H", header] }
        arguments += ["-d", body, "https://localhost:\(gateway.port)\(path)"]
        let result = try runProgram(arguments)
        let parts = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(parts.last ?? "") ?? 0
        return (status, (try? JSON.parse(parts.dropLast().joined(separator: "\n")))?.objectValue)
    }

    // MARK: - JPush

    @Test func jpushsPythonSDKPushesEveryShapeOfItsREADME() throws {
        let gateway = try GatewayServer()
        #expect(try gateway.server.run(["key", "add", "jpush", "--app-key", Self.appKey, "--master-secret", Self.masterSecret]).status == 0)
        #expect(try gateway.server.run(["device", "add", Self.foreignId, "--app", "another-app", "--vendor", "jpush"]).status == 0)
        #expect(try gateway.server.run(["device", "add", Self.taggedId, "--app", Self.appKey, "--vendor", "jpush",
                                        "--tag", "深圳", "--tag", "女", "--tag", "会员", "--alias", "alias1"]).status == 0)
        let results = try python(
            "jpush_send.py", [String(gateway.port), Self.appKey, Self.masterSecret, Self.registrationId, Self.foreignId, Self.taggedId], gateway: gateway)
        let byCase = Dictionary(results.map { ($0["case"]?.stringValue ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
        for name in ["all", "ios", "message", "both", "validate", "alias", "tag", "tag-not"] {
            #expect(byCase[name]?["status"] == 200, "\(name): \(byCase[name].map { JSON.object($0).compactText } ?? "none")")
            #expect(byCase[name]?["msg_id"]?.stringValue?.isEmpty == false, "\(name)")
        }
        #expect(byCase["both"]?["sendno"] == "12345")
        #expect(byCase["all"]?["sendno"] == "0")
        // The Device API set tags and an alias on the registration id (200, read back), and a
        // push to that alias and tag reached it.
        #expect(byCase["device-api"]?["status"] == 200)
        #expect(byCase["device-api"]?["tags"] == .array(["vip", "北京"]))
        #expect(byCase["device-api"]?["alias"] == "alias9")
        #expect(byCase["device-api-alias"]?["status"] == 200)
        // A tag nobody carries, and a registration id of another app, are no target: 1011, 400.
        #expect(byCase["nobody"]?["error_code"] == 1011)
        #expect(byCase["nobody"]?["status"] == 400)
        #expect(byCase["foreign"]?["error_code"] == 1011)
        // The SDK turns a 401 into its Unauthorized exception.
        #expect(byCase["bad-secret"]?["unauthorized"] == true)

        // Every accepted push is in the inbox under the appKey, recorded with its JPush ids;
        // validate delivered nothing.
        let stored = try messages(gateway)
        let jpush = stored.filter { $0["via"] == "jpush" }
        #expect(jpush.count == stored.count)
        let storedIds = Set(jpush.compactMap { $0["apnsHeaders"]?.objectValue?["msg_id"]?.stringValue })
        for name in ["all", "ios", "message", "both", "alias", "tag", "tag-not"] {
            #expect(storedIds.contains(byCase[name]?["msg_id"]?.stringValue ?? "-"), "\(name) not stored")
        }
        #expect(!storedIds.contains(byCase["validate"]?["msg_id"]?.stringValue ?? "-"))
        #expect(jpush.allSatisfy { $0["app"] == .string(Self.appKey) })
        // A notification and a message in one call are two messages: the APNs notification and
        // the pass-through (JPush's in-app message), both under the same JPush ids.
        let pair = jpush.filter { $0["apnsHeaders"]?.objectValue?["msg_id"] == byCase["both"]?["msg_id"] }
        #expect(Set(pair.compactMap { $0["channel"]?.stringValue }) == ["apns", "transparent"])
        #expect(jpush.first { $0["apnsHeaders"]?.objectValue?["msg_id"] == byCase["ios"]?["msg_id"] }?["channel"] == "apns")
        #expect(jpush.first { $0["apnsHeaders"]?.objectValue?["msg_id"] == byCase["message"]?["msg_id"] }?["channel"] == "transparent")
        // The tag and alias audiences reached the tagged device: recorded under its registration id.
        #expect(jpush.first { $0["apnsHeaders"]?.objectValue?["msg_id"] == byCase["device-api-alias"]?["msg_id"] }?["token"]
                == .string(Self.registrationId))
        for name in ["alias", "tag", "tag-not"] {
            let reached = jpush.first { $0["apnsHeaders"]?.objectValue?["msg_id"] == byCase[name]?["msg_id"] }
            #expect(reached?["token"] == .string(Self.taggedId), "\(name)")
        }
        let both = try #require(pair.first)
        #expect(both["token"] == .string(Self.registrationId))
        #expect(both["apnsHeaders"]?.objectValue?["sendno"] == "12345")
        #expect(both["apnsHeaders"]?.objectValue?["apns_collapse_id"] == "chat-121")
        #expect(both["apnsHeaders"]?.objectValue?["time_to_live"] == "86400")
        // The registration id was registered to the appKey on its first push.
        let devices = try JSON.parse(try gateway.server.run(["device", "list", "--json"]).output).arrayValue ?? []
        #expect(devices.contains { $0.objectValue?["token"] == .string(Self.registrationId) && $0.objectValue?["vendor"] == "jpush" })
    }

    @Test func jpushErrorsComeWithJPushsCodeAndStatus() throws {
        let gateway = try GatewayServer(extraArguments: ["--devices", "strict"])
        #expect(try gateway.server.run(["key", "add", "jpush", "--app-key", Self.appKey, "--master-secret", Self.masterSecret]).status == 0)
        let body = #"{"platform":"all","audience":{"registration_id":["\#(Self.registrationId)"]},"notification":{"alert":"Hi,JPush !"}}"#
        let json = "Content-Type: application/json"
        let wrong = try curl(gateway, "/v3/push", headers: [json, "Authorization: Basic " + Data("\(Self.appKey):nope".utf8).base64EncodedString()], body: body)
        #expect(wrong.status == 401)
        #expect(wrong.body?["error"]?.objectValue?["code"] == 1004)
        let auth = "Authorization: Basic " + Data("\(Self.appKey):\(Self.masterSecret)".utf8).base64EncodedString()
        // Strict: an unknown registration id is no target until it is added.
        let unknown = try curl(gateway, "/v3/push", headers: [json, auth], body: body)
        #expect(unknown.status == 400)
        #expect(unknown.body?["error"]?.objectValue?["code"] == 1011)
        #expect(try gateway.server.run(["device", "add", Self.registrationId, "--app", Self.appKey, "--vendor", "jpush"]).status == 0)
        let known = try curl(gateway, "/v3/push", headers: [json, auth], body: body)
        #expect(known.status == 200)
        let tooLong = try curl(gateway, "/v3/push", headers: [json, auth],
                               body: #"{"platform":"all","audience":"all","notification":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#)
        #expect(tooLong.body?["error"]?.objectValue?["code"] == 1005)
        let missing = try curl(gateway, "/v3/push", headers: [json, auth], body: #"{"platform":"all","audience":"all"}"#)
        #expect(missing.body?["error"]?.objectValue?["code"] == 1002)
        // Refusals changed nothing: one message, from the accepted push.
        #expect(try messages(gateway).count == 1)
    }

    // MARK: - Getui

    @Test func getuiAsItsDocumentationCallsItWithRequests() throws {
        let gateway = try GatewayServer(extraArguments: ["--getui-token-seconds", "1"])
        #expect(try gateway.server.run(["key", "add", "getui", "--app-id", Self.appId, "--app-key", Self.getuiKey, "--master-secret", Self.getuiSecret]).status == 0)
        let folder = gateway.server.folder
        func copy(_ fixture: String, as name: String) throws -> String {
            let text = try String(contentsOf: PackagePaths.resources.appendingPathComponent("gateway/getui/\(fixture)"), encoding: .utf8)
            try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8)
            return folder.file(name)
        }
        let bodies = [
            try copy("single-cid-notification.json", as: "1-notification.json"),
            try copy("single-cid-transmission.json", as: "2-transmission-repeat.json"),
            try copy("push-all.json", as: "push-all.json"),
            try copy("batch-cid.json", as: "batch-cid.json"),
            try copy("single-cid-ios-channel.json", as: "3-ios-channel-after-expiry.json"),
        ]
        let results = try python("getui_send.py", [String(gateway.port), Self.appId, Self.getuiKey, Self.getuiSecret] + bodies, gateway: gateway)
        let calls = results.filter { $0["call"] != "auth" }
        try #require(calls.count == 6, "\(results.map { JSON.object($0).compactText })")
        #expect(results.first?["code"] == 0)
        #expect(results.first?["data"]?.objectValue?["token"]?.stringValue?.count == 64)
        for (index, call) in calls.enumerated() where index != 2 {
            #expect(call["code"] == 0, "call \(index): \(JSON.object(call).compactText)")
        }
        // Each single push answers {taskid: {cid: successed_online}}.
        let first = try #require(calls[0]["data"]?.objectValue)
        #expect(first.members.count == 1)
        #expect(first.members.first?.value.objectValue?[Self.cid] == "successed_online")
        // The same request_id again is refused with Getui's 20001 and its "{param} cannot be repeat." msg.
        #expect(calls[2]["code"] == 20001)
        #expect(calls[2]["msg"]?.stringValue?.hasPrefix("request_id cannot be repeat.") == true)
        #expect(calls[3]["data"]?.objectValue?["taskid"]?.stringValue?.hasPrefix("RASS_") == true)
        // A batch: one task per message.
        #expect(calls[4]["data"]?.objectValue?.members.count == 2)
        // The token ran out on the server's clock: 10001, a new token, and the push goes through.
        #expect(calls[5]["reauthenticated"] == true)
        #expect(results.filter { $0["call"] == "auth" }.count >= 2)

        let getui = try messages(gateway).filter { $0["via"] == "getui" }
        #expect(Set(getui.compactMap { $0["apnsHeaders"]?.objectValue?["request_id"]?.stringValue })
                == ["pushdeck-notif-0001", "pushdeck-trans-0001", "pushdeck-all-000001", "pushdeck-batch-0001", "pushdeck-batch-0002",
                    "pushdeck-ios-000001"])
        #expect(getui.allSatisfy { $0["app"] == .string(Self.appId) })
        let transmission = try #require(getui.first { $0["apnsHeaders"]?.objectValue?["request_id"] == "pushdeck-trans-0001" })
        #expect(transmission["token"] == .string(Self.cid))
        #expect(transmission["channel"] == "transparent")
        // A notification is APNs on iOS.
        #expect(getui.first { $0["apnsHeaders"]?.objectValue?["request_id"] == "pushdeck-notif-0001" }?["channel"] == "apns")
        #expect(transmission["apnsHeaders"]?.objectValue?["taskid"]?.stringValue?.hasPrefix("RASS_") == true)
    }

    /// Getui's tokens live in the gateway's memory: after a restart a backend's kept token is
    /// 10001 (HTTP 401), and the client re-authenticates and pushes, as Getui's SDKs do.
    @Test func aTokenFromBeforeARestartIsReauthenticated() throws {
        let folder = TempFolder()
        let token: String
        do {
            let before = try GatewayServer(folder: folder)
            #expect(try before.server.run(["key", "add", "getui", "--app-id", Self.appId, "--app-key", Self.getuiKey, "--master-secret", Self.getuiSecret]).status == 0)
            let timestamp = String(Int64(Date().timeIntervalSince1970 * 1000))
            let sign = try runProgram(["sh", "-c", "printf %s \"$1\" | sha256sum | cut -d' ' -f1", "sh", Self.getuiKey + timestamp + Self.getuiSecret]).output
            let auth = try curl(before, "/v2/\(Self.appId)/auth", headers: ["Content-Type: application/json;charset=utf-8"],
                                body: #"{"sign":"\#(sign)","timestamp":"\#(timestamp)","appkey":"\#(Self.getuiKey)"}"#)
            token = try #require(auth.body?["data"]?.objectValue?["token"]?.stringValue)
            #expect(before.server.stop() == 0)
        }
        let after = try GatewayServer(folder: folder)
        #expect(try after.server.run(["key", "add", "getui", "--app-id", Self.appId, "--app-key", Self.getuiKey, "--master-secret", Self.getuiSecret]).status == 0)
        let body = folder.file("1-notification.json")
        try String(contentsOf: PackagePaths.resources.appendingPathComponent("gateway/getui/single-cid-notification.json"), encoding: .utf8)
            .write(toFile: body, atomically: true, encoding: .utf8)
        let results = try python("getui_send.py", [String(after.port), Self.appId, Self.getuiKey, Self.getuiSecret, body], gateway: after,
                                 environment: ["GETUI_TOKEN": token])
        let push = try #require(results.last)
        #expect(push["call"] == "/push/single/cid")
        #expect(push["code"] == 0, "\(JSON.object(push).compactText)")
        #expect(push["reauthenticated"] == true)
        #expect(results.filter { $0["call"] == "auth" }.count == 1)
        #expect(try messages(after).filter { $0["via"] == "getui" }.count == 1)
    }

    @Test func getuiWithCurlAsItsDocumentationShows() throws {
        let gateway = try GatewayServer()
        #expect(try gateway.server.run(["key", "add", "getui", "--app-id", Self.appId, "--app-key", Self.getuiKey, "--master-secret", Self.getuiSecret]).status == 0)
        let base = "/v2/\(Self.appId)"
        let type = "Content-Type: application/json;charset=utf-8"
        let timestamp = String(Int64(Date().timeIntervalSince1970 * 1000))
        let sign = try runProgram(["sh", "-c", "printf %s \"$1\" | sha256sum | cut -d' ' -f1", "sh", Self.getuiKey + timestamp + Self.getuiSecret]).output
        let bad = try curl(gateway, base + "/auth", headers: [type], body: #"{"sign": "\#(String(repeating: "0", count: 64))","timestamp": "\#(timestamp)","appkey": "\#(Self.getuiKey)"}"#)
        #expect(bad.status == 400)
        #expect(bad.body?["code"] == 20001)
        let auth = try curl(gateway, base + "/auth", headers: [type], body: #"{"sign": "\#(sign)","timestamp": "\#(timestamp)","appkey": "\#(Self.getuiKey)"}"#)
        #expect(auth.status == 200)
        let token = try #require(auth.body?["data"]?.objectValue?["token"]?.stringValue)
        let body = try String(contentsOf: PackagePaths.resources.appendingPathComponent("gateway/getui/single-cid-transmission.json"), encoding: .utf8)
        // No token: Getui's 10001 with its HTTP 401, which its SDKs answer by fetching a new token.
        let noToken = try curl(gateway, base + "/push/single/cid", headers: [type], body: body)
        #expect(noToken.status == 401)
        #expect(noToken.body?["code"] == 10001)
        // The app is terminated: the pass-through is held, and Getui says offline.
        #expect(try gateway.server.run(["app", "terminated"]).status == 0)
        let held = try curl(gateway, base + "/push/single/cid", headers: [type, "token: \(token)"], body: body)
        #expect(held.status == 200)
        #expect(held.body?["code"] == 0)
        #expect(held.body?["data"]?.objectValue?.members.first?.value.objectValue?[Self.cid] == "successed_offline")
        #expect(try gateway.server.run(["app", "foreground"]).status == 0)
        let stored = try #require(try messages(gateway).first)
        #expect(stored["offline"] == true)
        #expect(stored["via"] == "getui")
        #expect(stored["token"] == .string(Self.cid))
    }
}
