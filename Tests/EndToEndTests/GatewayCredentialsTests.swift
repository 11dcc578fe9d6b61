import Foundation
import PushJSON
import Testing
import TestSupport

/// `pushdeck gateway token` and `gateway credentials`: what a backend calls the gateway with,
/// used exactly as a user pastes it — `$(pushdeck gateway token)` inside a curl command line run by
/// a shell that finds `pushdeck` on PATH — and JPush's official SDK configured with what
/// `credentials jpush` prints; with no key registered (the open gateway) and with one.
@Suite(.serialized) struct GatewayCredentialsTests {
    static let deviceToken = SampleCredentials.apnsDeviceToken

    /// Runs `snippet` with bash as a user's shell would: the built `pushdeck` on PATH, the test
    /// server's socket as the default one, no config file of the user's.
    func paste(_ snippet: String, _ gateway: GatewayServer, environment: [String: String] = [:]) throws -> CommandResult {
        let folder = URL(fileURLWithPath: PackagePaths.pushdeckBinary).deletingLastPathComponent().path
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try runProgram(["bash", "-c", snippet], environment: [
            "PATH": path, "PUSHDECK_SOCKET": gateway.server.socket, "XDG_CONFIG_HOME": isolatedConfigHome,
        ].merging(environment) { $1 })
    }

    /// The README's APNs recipe over h2c, and over TLS with the gateway's CA: the answer's body
    /// and status on the last line.
    static let h2c = #"""
        curl -sS --http2-prior-knowledge -H "apns-topic: com.example.shop" \
          -H "authorization: bearer $(pushdeck gateway token)" \
          -d '{"aps":{"alert":"Hi"}}' -w '\n%{http_code}' "http://$(pushdeck gateway)/3/device/$TOKEN"
        """#
    static let tls = #"""
        curl -sS --cacert "$(pushdeck gateway ca)" -H "apns-topic: com.example.shop" \
          -H "authorization: bearer $(pushdeck gateway token)" \
          -d '{"aps":{"alert":"Hi"}}' -w '\n%{http_code}' "https://localhost:${PORT}/3/device/$TOKEN"
        """#

    func push(_ snippet: String, _ gateway: GatewayServer) throws -> (status: String, body: String) {
        let result = try paste(snippet, gateway, environment: ["TOKEN": Self.deviceToken, "PORT": String(gateway.port)])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    /// The token's header and claims, and its signature's length, read by PyJWT (no key).
    func decoded(_ token: String) throws -> JSONObject {
        let code = """
            import base64, json, jwt, sys
            token = sys.argv[1]
            signature = token.split(".")[2]
            print(json.dumps({"header": jwt.get_unverified_header(token),
                              "claims": jwt.decode(token, options={"verify_signature": False}),
                              "signatureBytes": len(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))}))
            """
        let result = try runProgram([try TestVenv.python(), "-c", code, token])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSON.parse(result.output).objectValue)
    }

    /// Whether PyJWT verifies `token` ES256 with the public half of the `.p8` at `keyPath`.
    func verifies(_ token: String, keyPath: String) throws -> Bool {
        let code = """
            import jwt, sys
            from cryptography.hazmat.primitives import serialization
            key = serialization.load_pem_private_key(open(sys.argv[2], "rb").read(), password=None).public_key()
            jwt.decode(sys.argv[1], key, algorithms=["ES256"])
            """
        return try runProgram([try TestVenv.python(), "-c", code, token, keyPath]).status == 0
    }

    func addKey(_ gateway: GatewayServer, id: String, team: String) throws -> String {
        let path = gateway.server.folder.file("AuthKey_\(id).p8")
        try APNsKeys.makeP8().write(toFile: path, atomically: true, encoding: .utf8)
        let added = try gateway.run(["key", "add", "apns", "--key-id", id, "--team", team, "--p8", path])
        #expect(added.status == 0, "\(added.stderr)")
        return path
    }

    // MARK: - APNs

    @Test func theTokenAsPastedIsTakenByTheOpenGatewayAndOnceAKeyIsRegisteredItIsSignedWithIt() throws {
        let gateway = try GatewayServer()
        // No key registered: a well-formed ES256 token, issued now, which the open gateway takes.
        let open = try gateway.run(["gateway", "token"])
        #expect(open.status == 0, "\(open.stderr)")
        let openToken = open.output
        let parts = try decoded(openToken)
        #expect(parts["header"] == ["alg": "ES256", "kid": "PUSHDECK00"])
        #expect(parts["claims"]?.objectValue?["iss"] == "PUSHDECK00")
        let issuedAt = try #require(parts["claims"]?.objectValue?["iat"]?.intValue)
        #expect(abs(Double(issuedAt) - Date().timeIntervalSince1970) < 60)
        #expect(parts["signatureBytes"] == 64)
        for snippet in [Self.h2c, Self.tls] {
            let answer = try push(snippet, gateway)
            #expect(answer.status == "200", "\(answer.body)")
        }
        // --key-id and --team name what the token says.
        let named = try decoded(try gateway.run(["gateway", "token", "--key-id", "ABCDE12345", "--team", "TEAMID7890"]).output)
        #expect(named["header"]?.objectValue?["kid"] == "ABCDE12345")
        #expect(named["claims"]?.objectValue?["iss"] == "TEAMID7890")

        // A key registered: the open token is refused now, and a new one is signed with the key.
        let key = try addKey(gateway, id: SampleCredentials.apnsKeyId, team: SampleCredentials.apnsTeam)
        let refused = try paste(#"""
            curl -sS --http2-prior-knowledge -H "apns-topic: com.example.shop" -H "authorization: bearer $OPEN" \
              -d '{"aps":{"alert":"Hi"}}' -w '\n%{http_code}' "http://$(pushdeck gateway)/3/device/$TOKEN"
            """#, gateway, environment: ["OPEN": openToken, "TOKEN": Self.deviceToken])
        #expect(refused.stdout == "{\"reason\":\"InvalidProviderToken\"}\n403", "\(refused.stdout)\(refused.stderr)")
        for snippet in [Self.h2c, Self.tls] {
            let answer = try push(snippet, gateway)
            #expect(answer.status == "200", "\(answer.body)")
        }
        let signed = try gateway.run(["gateway", "token"]).output
        #expect(try verifies(signed, keyPath: key))
        #expect(try !verifies(openToken, keyPath: key))
        let signedParts = try decoded(signed)
        #expect(signedParts["header"]?.objectValue?["kid"] == .string(SampleCredentials.apnsKeyId))
        #expect(signedParts["claims"]?.objectValue?["iss"] == .string(SampleCredentials.apnsTeam))

        // A key id or team no registered key has: refused with what is registered (exit 1).
        let unknown = try gateway.run(["gateway", "token", "--key-id", "NOSUCHKEY1"])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("no registered APNs key has key id NOSUCHKEY1"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains(SampleCredentials.apnsKeyId))
        let wrongTeam = try gateway.run(["gateway", "token", "--team", "OTHERTEAM1"])
        #expect(wrongTeam.status == 1)
        #expect(wrongTeam.stderr.contains("team OTHERTEAM1"), "\(wrongTeam.stderr)")

        // Two keys: the token must say which (then it is that key's).
        let second = try addKey(gateway, id: "XYZ987WVUT", team: "TEAM654321")
        let ambiguous = try gateway.run(["gateway", "token"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("name one with --key-id"), "\(ambiguous.stderr)")
        let chosen = try gateway.run(["gateway", "token", "--key-id", "XYZ987WVUT"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(try verifies(chosen.output, keyPath: second))
        let byTeam = try gateway.run(["gateway", "token", "--team", "TEAM654321"])
        #expect(try verifies(byTeam.output, keyPath: second))
        let pasted = try paste(#"""
            curl -sS --http2-prior-knowledge -H "apns-topic: com.example.shop" \
              -H "authorization: bearer $(pushdeck gateway token --key-id XYZ987WVUT)" \
              -d '{"aps":{"alert":"Hi"}}' -w '\n%{http_code}' "http://$(pushdeck gateway)/3/device/$TOKEN"
            """#, gateway, environment: ["TOKEN": Self.deviceToken])
        #expect(pasted.stdout.hasSuffix("\n200"), "\(pasted.stdout)\(pasted.stderr)")
        #expect(try JSON.parse(try gateway.listJSON()).arrayValue?.count == 5)
    }

    @Test func aBearerOfAnUnsetVariableAsPastedIsMissingProviderToken() throws {
        let gateway = try GatewayServer()
        let result = try paste(#"""
            unset JWT
            curl -sS --http2-prior-knowledge -H "apns-topic: com.example.shop" -H "authorization: bearer $JWT" \
              -d '{"aps":{"alert":"Hi"}}' -w '\n%{http_code}' "http://$(pushdeck gateway)/3/device/0123abcd"
            """#, gateway)
        #expect(result.status == 0, "curl: \(result.stderr)")
        #expect(result.stdout == "{\"reason\":\"MissingProviderToken\"}\n403", "\(result.stdout)")
    }

    // MARK: - JPush, Getui, FCM

    /// `credentials VENDOR --json`, and the lines it prints without `--json`, which say the same.
    func credentials(_ vendor: String, _ gateway: GatewayServer) throws -> (json: JSONObject, lines: [String]) {
        let json = try gateway.run(["gateway", "credentials", vendor, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let text = try gateway.run(["gateway", "credentials", vendor])
        #expect(text.status == 0, "\(text.stderr)")
        return (try #require(try JSON.parse(json.output).objectValue), text.output.split(separator: "\n").map(String.init))
    }

    @Test(arguments: [false, true])
    func jpushsSDKPushesWithWhatCredentialsPrints(registered: Bool) throws {
        let gateway = try GatewayServer()
        do {
            if registered {
                let added = try gateway.run(["key", "add", "jpush", "--app-key", SampleCredentials.jpushAppKey,
                                             "--master-secret", SampleCredentials.jpushMasterSecret])
                #expect(added.status == 0, "\(added.stderr)")
            }
            let printed = try credentials("jpush", gateway)
            let appKey = try #require(printed.json["appKey"]?.stringValue)
            let secret = try #require(printed.json["masterSecret"]?.stringValue)
            #expect((appKey == SampleCredentials.jpushAppKey) == registered)
            #expect(printed.json["registered"] == .bool(registered))
            let basic = "Basic " + Data("\(appKey):\(secret)".utf8).base64EncodedString()
            #expect(printed.json["authorization"] == .string(basic))
            #expect(printed.json["pushURL"] == .string("https://localhost:\(gateway.port)/v3/push"))
            // The lines for people carry the same values, aligned after their labels.
            #expect(printed.lines.contains("app key:        \(appKey)"), "\(printed.lines)")
            #expect(printed.lines.contains("master secret:  \(secret)"), "\(printed.lines)")
            #expect(printed.lines.contains("authorization:  \(basic)"), "\(printed.lines)")
            #expect(printed.lines.contains { $0.contains("no jpush key is registered") } == !registered)

            let script = PackagePaths.root.appendingPathComponent("Tests/Clients/jpush_send.py").path
            let run = try runProgram(
                ["timeout", "60", try TestVenv.python(), script, String(gateway.port), appKey, secret,
                 SampleCredentials.jpushRegistrationId, "170976fa8a8620ca1e1", "1104a89792a8a5f4c1d"],
                environment: ["REQUESTS_CA_BUNDLE": gateway.ca])
            #expect(run.status == 0, "\(run.stderr)")
            let results = try run.stdout.split(separator: "\n").map { try #require(try JSON.parse(String($0)).objectValue) }
            let byCase = Dictionary(results.map { ($0["case"]?.stringValue ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
            for name in ["all", "ios", "message", "both", "validate"] {
                #expect(byCase[name]?["status"] == 200, "registered \(registered), \(name): \(byCase[name].map { JSON.object($0).compactText } ?? "none")")
            }
            // A wrong master secret is refused only once a key is registered.
            #expect((byCase["bad-secret"]?["unauthorized"] == true) == registered)
        }
        // The header as printed works with curl as pasted.
        let pasted = try paste(#"""
            curl -sS --cacert "$(pushdeck gateway ca)" \
              -H "authorization: $(pushdeck gateway credentials jpush --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["authorization"])')" \
              -d '{"platform":"all","audience":"all","notification":{"alert":"Hi"}}' -w '\n%{http_code}' \
              "$(pushdeck gateway credentials jpush --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pushURL"])')"
            """#, gateway)
        #expect(pasted.stdout.hasSuffix("\n200"), "\(pasted.stdout)\(pasted.stderr)")
    }

    @Test func getuisAuthCallTakesWhatCredentialsPrintsOpenAndRegistered() throws {
        let gateway = try GatewayServer()
        for registered in [false, true] {
            if registered {
                let added = try gateway.run(["key", "add", "getui", "--app-id", SampleCredentials.getuiAppId, "--app-key",
                                             SampleCredentials.getuiAppKey, "--master-secret", SampleCredentials.getuiMasterSecret])
                #expect(added.status == 0, "\(added.stderr)")
            }
            let printed = try credentials("getui", gateway)
            let appId = try #require(printed.json["appId"]?.stringValue)
            let appKey = try #require(printed.json["appKey"]?.stringValue)
            let secret = try #require(printed.json["masterSecret"]?.stringValue)
            let base = try #require(printed.json["baseURL"]?.stringValue)
            #expect((appId == SampleCredentials.getuiAppId) == registered)
            #expect(base == "https://localhost:\(gateway.port)/v2/\(appId)")
            #expect(printed.lines.contains("base URL:       \(base)"), "\(printed.lines)")
            // Getui's auth call as its documentation shows it: sign = sha256(appkey + timestamp + mastersecret).
            let timestamp = String(Int(Date().timeIntervalSince1970 * 1000))
            let sign = try runProgram(["sh", "-c", #"printf %s "$0" | sha256sum | cut -d' ' -f1"#, appKey + timestamp + secret]).output
            let auth = try runProgram([
                "curl", "-sS", "--cacert", gateway.ca, "-H", "content-type: application/json;charset=utf-8",
                "-d", #"{"sign":"\#(sign)","timestamp":"\#(timestamp)","appkey":"\#(appKey)"}"#, base + "/auth",
            ])
            let body = try #require(try JSON.parse(auth.output).objectValue, "\(auth.stdout)\(auth.stderr)")
            #expect(body["code"] == 0, "registered \(registered): \(auth.output)")
            #expect(body["data"]?.objectValue?["token"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func usageIsChecked() throws {
        let gateway = try GatewayServer()
        for wrong in [["gateway", "credentials"], ["gateway", "credentials", "nosuch"], ["gateway", "token", "extra"],
                      ["gateway", "--json"], ["gateway", "credentials", "jpush", "--key-id", "K"], ["gateway", "token", "--team", ""],
                      ["gateway", "ca", "extra"]] {
            let result = try gateway.run(wrong)
            #expect(result.status == 2, "\(wrong): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(wrong)")
        }
    }

    @Test func withoutAGatewayTheCredentialCommandsSaySo() throws {
        let server = try ServerProcess(memory: true)
        for arguments in [["gateway", "token"], ["gateway", "credentials", "jpush"]] {
            let result = try server.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("this pushdeck runs no gateway; start it with --gateway"), "\(result.stderr)")
        }
    }
}
