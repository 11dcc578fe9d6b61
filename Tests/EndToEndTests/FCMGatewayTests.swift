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
}
