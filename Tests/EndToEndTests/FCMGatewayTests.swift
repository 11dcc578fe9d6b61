import Foundation
import PushJSON
import Testing
import TestSupport

/// FCM HTTP v1 through the real gateway, with clients nobody here wrote (Tests/Clients/fcm_send.py:
/// google-auth, firebase-admin, pyfcm) and curl, configured only with the key file
/// `pushdeck gateway credentials fcm --json` writes or one Firebase's console would hand out.
@Suite(.serialized) struct FCMGatewayTests {
    static let project = "pushdeck-shop"

    /// The client script's JSON lines, by case.
    func client(_ cases: [String], _ gateway: GatewayServer, account: String, tokens: [String] = []) throws -> [String: JSONObject] {
        let script = PackagePaths.root.appendingPathComponent("Tests/Clients/fcm_send.py").path
        let result = try runProgram(
            ["timeout", "120", try TestVenv.python(), script, cases.joined(separator: ","), String(gateway.port), account] + tokens,
            environment: ["REQUESTS_CA_BUNDLE": gateway.ca])
        #expect(result.status == 0, "fcm_send.py: \(result.stderr)")
        var byCase: [String: JSONObject] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let object = try? JSON.parse(Array(line.utf8)).objectValue, let name = object["case"]?.stringValue else { continue }
            byCase[name] = object
        }
        return byCase
    }

    /// A key file as Firebase's console writes one, in the server's folder.
    func consoleKeyFile(_ gateway: GatewayServer, project: String = Self.project, name: String = "service-account.json") throws -> String {
        let path = gateway.server.folder.file(name)
        try FCMKeys.serviceAccountJSON(project: project, pem: try FCMKeys.makePEM()).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `gateway credentials fcm --json`, written to a file.
    func credentialsFile(_ gateway: GatewayServer) throws -> (path: String, file: JSONObject) {
        let result = try gateway.run(["gateway", "credentials", "fcm", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let path = gateway.server.folder.file("pushdeck-credentials.json")
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try #require(try JSON.parse(Array(result.stdout.utf8)).objectValue))
    }

    // MARK: - OAuth

    @Test func theOpenGatewaysCredentialsGiveGoogleAuthAToken() throws {
        let gateway = try GatewayServer()
        let (path, file) = try credentialsFile(gateway)
        #expect(file["type"] == "service_account")
        #expect(file["token_uri"]?.stringValue == "https://localhost:\(gateway.port)/token")
        #expect(file["private_key"]?.stringValue?.hasPrefix("-----BEGIN PRIVATE KEY-----") == true)
        let seen = try client(["google-auth"], gateway, account: path)
        #expect(seen["google-auth"]?["valid"] == true, "\(seen)")
        #expect(seen["google-auth"]?["token"]?.stringValue?.hasPrefix("ya29.") == true)

        let text = try gateway.run(["gateway", "credentials", "fcm"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("https://localhost:\(gateway.port)/token\n"), "\(text.stdout)")
        #expect(text.stdout.contains("no fcm key is registered"))
    }

    @Test func aRegisteredServiceAccountIsCheckedAndAForgedKeyIsRefusedAsGoogleRefusesIt() throws {
        let gateway = try GatewayServer()
        let console = try consoleKeyFile(gateway)
        let added = try gateway.run(["key", "add", "fcm", "--service-account", console, "--app", "com.example.shop"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("fcm key firebase-adminsdk-test@\(Self.project).iam.gserviceaccount.com added (project \(Self.project), default app com.example.shop)"), "\(added.stdout)")
        let listed = try gateway.run(["key", "list", "--json"])
        let keys = try #require(try JSON.parse(Array(listed.stdout.utf8)).arrayValue)
        #expect(keys.first?.objectValue?["vendor"] == "fcm")
        #expect(keys.first?.objectValue?["team"]?.stringValue == Self.project)
        #expect(!listed.stdout.contains("PRIVATE KEY"))

        // The console's own file, its token_uri changed to pushdeck's (the one edit a backend makes).
        var file = try #require(try JSON.parse(Array(try String(contentsOfFile: console, encoding: .utf8).utf8)).objectValue)
        file["token_uri"] = .string("https://localhost:\(gateway.port)/token")
        let pointed = gateway.server.folder.file("pointed.json")
        try JSON.object(file).prettyText.write(toFile: pointed, atomically: true, encoding: .utf8)
        let seen = try client(["google-auth", "google-auth-forged"], gateway, account: pointed)
        #expect(seen["google-auth"]?["valid"] == true, "\(seen)")
        #expect(seen["google-auth-forged"]?["exception"] == "RefreshError", "\(seen)")
        #expect(seen["google-auth-forged"]?["message"]?.stringValue?.contains("invalid_grant: Invalid JWT Signature.") == true, "\(seen)")

        // The open gateway's throwaway credentials no longer work; the registered key's do.
        let (path, credentials) = try credentialsFile(gateway)
        #expect(credentials["client_email"] == file["client_email"])
        #expect(try client(["google-auth"], gateway, account: path)["google-auth"]?["valid"] == true)
        #expect(try gateway.run(["key", "remove", "firebase-adminsdk-test@\(Self.project).iam.gserviceaccount.com"]).status == 0)
        #expect(try gateway.run(["key", "list", "--json"]).stdout == "[]\n")
    }

    @Test func aBadKeyFileIsRefusedClearlyAndNothingIsAdded() throws {
        let gateway = try GatewayServer()
        let bad = gateway.server.folder.file("bad.json")
        try #"{"type":"authorized_user","client_id":"x"}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["key", "add", "fcm", "--service-account", bad], "is not a service account's key file: \"type\" is \"authorized_user\", not \"service_account\""),
            (["key", "add", "fcm", "--service-account", gateway.server.folder.file("missing.json")], "cannot read"),
            (["key", "add", "fcm"], "key add fcm needs --service-account FILE"),
            (["key", "add", "fcm", "--service-account", bad, "--team", "T"], "--team does not go with key add fcm"),
            (["key", "add", "jpush", "--app", "x", "--app-key", "k", "--master-secret", "s"], "--app goes with key add fcm"),
        ]
        for (arguments, says) in cases {
            let result = try gateway.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
        #expect(try gateway.run(["key", "list", "--json"]).stdout == "[]\n")
    }

    /// curl over HTTP/2 and TLS, as the curl line of Google's service-account guide: a wrong grant
    /// and a garbage assertion get Google's answers.
    @Test func curlOverHTTP2AndTLSGetsGooglesAnswers() throws {
        let gateway = try GatewayServer()
        func post(_ form: String) throws -> (status: String, body: JSONObject?) {
            let result = try runProgram([
                "curl", "-sS", "--http2", "--cacert", gateway.ca, "-o", "-", "-w", "\n%{http_code} %{http_version}",
                "-d", form, "https://localhost:\(gateway.port)/token",
            ])
            let lines = result.stdout.split(separator: "\n")
            return (String(lines.last ?? ""), try? JSON.parse(Array((lines.dropLast().joined(separator: "\n")).utf8)).objectValue)
        }
        let grant = try post("grant_type=password&assertion=x")
        #expect(grant.status == "400 2")
        #expect(grant.body == ["error": "unsupported_grant_type", "error_description": "Invalid grant_type: password"])
        let garbage = try post("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=x.y.z")
        #expect(garbage.status == "400 2")
        #expect(garbage.body?["error"] == "invalid_grant")
    }

    // MARK: - messages:send

    static let android = "cK9xZ2:APA91bH-android_1"
    static let unknown = "cK9xZ2:APA91bH-never_seen"
    static let foreign = "cK9xZ2:APA91bH-other_project"
    static let iphone = "dQ7wX1:APA91bH-iphone_1"

    /// firebase-admin unchanged but for its URLs: send (a notification message, a data message),
    /// dry_run, send_each (success, UnregisteredError, SenderIdMismatchError,
    /// InvalidArgumentError), and the messages the inbox holds after them.
    @Test func firebaseAdminSendsAndGetsEachAnswerItsExceptionClassExpects() throws {
        let gateway = try GatewayServer(extraArguments: ["--devices", "strict"])
        let console = try consoleKeyFile(gateway)
        #expect(try gateway.run(["key", "add", "fcm", "--service-account", console, "--app", "com.example.shop"]).status == 0)
        let other = try consoleKeyFile(gateway, project: "other-project", name: "other.json")
        #expect(try gateway.run(["key", "add", "fcm", "--service-account", other, "--app", "com.example.other"]).status == 0)
        #expect(try gateway.run(["device", "add", Self.android, "--app", "com.example.shop", "--vendor", "fcm"]).status == 0)
        #expect(try gateway.run(["device", "add", Self.foreign, "--app", "com.example.other", "--vendor", "fcm"]).status == 0)
        #expect(try gateway.run(["device", "add", Self.iphone, "--app", "com.example.shop", "--vendor", "fcm", "--platform", "ios"]).status == 0)
        var file = try #require(try JSON.parse(Array(try String(contentsOfFile: console, encoding: .utf8).utf8)).objectValue)
        file["token_uri"] = .string("https://localhost:\(gateway.port)/token")
        let pointed = gateway.server.folder.file("pointed.json")
        try JSON.object(file).prettyText.write(toFile: pointed, atomically: true, encoding: .utf8)

        let seen = try client(["send", "data", "dry-run", "send-each", "invalid", "ios"], gateway, account: pointed,
                              tokens: [Self.android, Self.unknown, Self.foreign, Self.iphone])
        let name = try #require(seen["send"]?["result"]?.stringValue, "\(seen)")
        #expect(name.hasPrefix("projects/\(Self.project)/messages/0:"), "\(name)")
        #expect(seen["data"]?["ok"] == true, "\(seen["data"].map { JSON.object($0).compactText } ?? "")")
        #expect(seen["dry-run"]?["result"]?.stringValue == "projects/\(Self.project)/messages/fake_message_id")
        let each = try #require(seen["send-each"], "\(seen)")
        #expect(each["success"] == 1 && each["failure"] == 3, "\(JSON.object(each).compactText)")
        let results = each["results"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(results.map { $0["exception"]?.stringValue ?? "ok" } == ["ok", "UnregisteredError", "SenderIdMismatchError", "InvalidArgumentError"],
                "\(JSON.object(each).compactText)")
        #expect(results.map { $0["status"]?.intValue ?? 200 } == [200, 404, 403, 400])
        #expect(seen["invalid"]?["exception"] == "InvalidArgumentError", "\(seen["invalid"].map { JSON.object($0).compactText } ?? "")")
        // No APNs key is registered: FCM cannot reach APNs for an iOS token.
        #expect(seen["ios"]?["exception"] == "ThirdPartyAuthError", "\(seen["ios"].map { JSON.object($0).compactText } ?? "")")

        // Two sends and one success of send_each reached the device; dry_run and every refusal
        // delivered nothing.
        let listed = try #require(try JSON.parse(Array(try gateway.listJSON().utf8)).arrayValue)
        let fcm = listed.compactMap(\.objectValue).filter { $0["via"] == "fcm" }
        #expect(fcm.count == 3, "\(listed)")
        #expect(fcm.allSatisfy { $0["token"]?.stringValue == Self.android })
    }

    @Test func anIOSTokensApnsBlockIsAnAPNsPushOnceAnAPNsKeyIsRegistered() throws {
        let gateway = try GatewayServer()
        let p8 = gateway.server.folder.file("AuthKey.p8")
        try APNsKeys.makeP8().write(toFile: p8, atomically: true, encoding: .utf8)
        #expect(try gateway.run(["key", "add", "apns", "--key-id", "ABC123DEFG", "--team", "TEAM123456", "--p8", p8]).status == 0)
        #expect(try gateway.run(["device", "add", Self.iphone, "--app", "pushdeck-open", "--vendor", "fcm", "--platform", "ios"]).status == 0)
        let (path, _) = try credentialsFile(gateway)
        let seen = try client(["ios"], gateway, account: path, tokens: [Self.android, Self.unknown, Self.foreign, Self.iphone])
        #expect(seen["ios"]?["ok"] == true, "\(seen)")
        let listed = try #require(try JSON.parse(Array(try gateway.listJSON().utf8)).arrayValue).compactMap(\.objectValue)
        #expect(listed.first?["title"] == "Hi" && listed.first?["channel"] == "apns", "\(listed)")
    }

    /// Topics: firebase-admin subscribes (one request per token; an unknown token in open mode is
    /// registered), a topic send and a condition send reach the subscriber, unsubscribe works.
    @Test func topicsAndConditionsWithFirebaseAdmin() throws {
        let gateway = try GatewayServer()
        let (path, _) = try credentialsFile(gateway)
        let seen = try client(["topic"], gateway, account: path, tokens: [Self.android, "cK9xZ2:APA91bH-second"])
        #expect(seen["subscribe"]?["result"]?.objectValue?["success"] == 2, "\(seen)")
        #expect(seen["topic"]?["ok"] == true, "\(seen)")
        #expect(seen["condition"]?["ok"] == true, "\(seen)")
        #expect(seen["unsubscribe"]?["result"] == 1, "\(seen)")
        let listed = try #require(try JSON.parse(Array(try gateway.listJSON().utf8)).arrayValue).compactMap(\.objectValue)
        // Each of the two subscribers got the topic message and the condition message.
        #expect(listed.filter { $0["via"] == "fcm" }.count == 4, "\(listed)")
        let devices = try gateway.run(["device", "list", "--json"]).stdout
        #expect(devices.contains("\"platform\":\"android\""), "\(devices)")
        #expect(devices.contains("\"topics\":[\"news\"]"), "\(devices)")
    }

    @Test func pyfcmSends() throws {
        let gateway = try GatewayServer()
        let (path, _) = try credentialsFile(gateway)
        let seen = try client(["pyfcm"], gateway, account: path, tokens: [Self.android])
        #expect(seen["pyfcm"]?["ok"] == true, "\(seen)")
        #expect(seen["pyfcm"]?["result"]?.objectValue?["name"]?.stringValue?.hasPrefix("projects/pushdeck-open/messages/") == true)
    }
}
