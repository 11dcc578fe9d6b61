import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// The APNs gateway end to end: the real binary on a real port, driven by clients nobody here
/// wrote — aioapns (PyPI, pinned in the test virtualenv) signing real ES256 provider tokens
/// with a key made by openssl, PyJWT for tokens aioapns would never send, and curl for headers
/// a library never gets wrong.
@Suite(.serialized) struct APNsGatewayTests {
    static let token = SampleCredentials.apnsDeviceToken
    static let otherToken = String(repeating: "cd", count: 32)
    static let goneToken = String(repeating: "ef", count: 32)
    static let keyId = SampleCredentials.apnsKeyId
    static let team = SampleCredentials.apnsTeam

    // MARK: - Clients

    /// Sends `requests` with aioapns; one result object (`status`, `description`, `timestamp`) each.
    func aioapns(_ gateway: GatewayServer, key: String, topic: String = "com.example.shop", _ requests: [JSON]) throws -> [JSONObject] {
        let spec: JSON = [
            "host": "localhost", "port": .number(JSONNumber(gateway.port)), "key": .string(key),
            "key_id": .string(Self.keyId), "team_id": .string(Self.team), "topic": .string(topic), "requests": .array(requests),
        ]
        let specPath = gateway.server.folder.file("spec.json")
        try spec.compactText.write(toFile: specPath, atomically: true, encoding: .utf8)
        let script = PackagePaths.root.appendingPathComponent("Tests/Clients/aioapns_send.py").path
        let result = try runProgram(
            ["timeout", "60", try GatewayServer.venvPython(), script, specPath], environment: ["SSL_CERT_FILE": gateway.caPath])
        #expect(result.status == 0, "aioapns: \(result.stderr)")
        return try result.stdout.split(separator: "\n").map { line in try #require(try JSON.parse(String(line)).objectValue) }
    }

    /// A provider token signed by PyJWT (aioapns' own dependency), with any `iat`.
    /// `iatAsString`: the `iat` claim as a JSON string of digits, as kalyke-apns writes it (`str(int(time.time()))`).
    func pyjwt(key: String, kid: String = keyId, team: String = team, issuedAt: Int, iatAsString: Bool = false) throws -> String {
        let code = """
            import jwt, sys
            iat = sys.argv[3] if sys.argv[5] == "string" else int(sys.argv[3])
            print(jwt.encode({"iss": sys.argv[2], "iat": iat}, open(sys.argv[1]).read(), algorithm="ES256", headers={"kid": sys.argv[4]}))
            """
        let result = try runProgram([try GatewayServer.venvPython(), "-c", code, key, team, String(issuedAt), kid, iatAsString ? "string" : "number"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One request with curl: status, the `reason` of the body, the `apns-id` header.
    func curl(
        _ gateway: GatewayServer, method: String = "POST", path: String = "/3/device/\(token)", headers: [String],
        body: String? = #"{"aps":{"alert":"Hi"}}"#, mode: CurlMode = .h2c
    ) throws -> (status: Int, reason: String?, apnsId: String?) {
        var arguments = ["curl", "-s", "-D", "-", "-X", method]
        let url: String
        switch mode {
        case .h2c:
            arguments.append("--http2-prior-knowledge")
            url = "http://\(gateway.address)\(path)"
        case .http1:
            arguments.append("--http1.1")
            url = "http://\(gateway.address)\(path)"
        case .tls:
            arguments += ["--http2", "--cacert", gateway.caPath]
            url = "https://localhost:\(gateway.port)\(path)"
        }
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        arguments.append(url)
        let result = try runProgram(arguments)
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        let apnsId = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("apns-id:") }
            .map { $0.dropFirst("apns-id:".count).trimmingCharacters(in: .whitespaces) }
        let text = parts.dropFirst().joined(separator: "\r\n\r\n")
        let reason = (try? JSON.parse(text))?.objectValue?["reason"]?.stringValue
        return (status, reason, apnsId)
    }

    enum CurlMode { case h2c, http1, tls }

    func makeKey(in gateway: GatewayServer, register: Bool) throws -> String {
        let path = gateway.server.folder.file("AuthKey_\(Self.keyId).p8")
        try APNsKeys.makeP8().write(toFile: path, atomically: true, encoding: .utf8)
        if register {
            let added = try gateway.run(["key", "add", "apns", "--key-id", Self.keyId, "--team", Self.team, "--p8", path])
            #expect(added.status == 0, "\(added.stderr)")
        }
        return path
    }

    // MARK: - aioapns

    @Test func aioapnsIsAcceptedAndRefusedWithEachReasonItCanProvoke() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: true)
        #expect(try gateway.run(["device", "add", Self.otherToken, "--app", "com.example.other"]).status == 0)
        #expect(try gateway.run(["device", "add", Self.goneToken, "--app", "com.example.shop"]).status == 0)
        #expect(try gateway.run(["device", "unregister", Self.goneToken]).status == 0)
        let alert: JSON = ["aps": ["alert": ["title": "Order shipped", "body": "訂單 1270339 已發貨"]]]
        let big: JSON = ["aps": ["alert": .string(String(repeating: "x", count: 4200))]]
        let cases: [(request: JSON, status: String, reason: String?)] = [
            (["token": .string(Self.token), "message": alert, "priority": 10, "push_type": "alert", "collapse_key": "order-17",
              "time_to_live": 3600], "200", nil),
            (["token": .string(Self.token), "message": alert, "collapse_key": .string(String(repeating: "c", count: 65))], "400", "BadCollapseId"),
            (["token": .string(Self.token), "message": alert, "priority": 7], "400", "BadPriority"),
            (["token": .string(Self.token), "message": ["aps": ["content-available": 1]], "priority": 10, "push_type": "background"],
             "400", "BadPriority"),
            (["token": .string(Self.token), "message": alert, "notification_id": "12345"], "400", "BadMessageId"),
            (["token": "xyz", "message": alert], "400", "BadDeviceToken"),
            (["token": .string(Self.otherToken), "message": alert], "400", "DeviceTokenNotForTopic"),
            (["token": .string(Self.goneToken), "message": alert], "410", "Unregistered"),
            (["token": .string(Self.token), "message": big], "413", "PayloadTooLarge"),
            (["token": .string(Self.token), "message": big, "push_type": "voip", "topic": "com.example.shop.voip"], "200", nil),
        ]
        let results = try aioapns(gateway, key: key, cases.map(\.request))
        try #require(results.count == cases.count)
        for (index, (expected, result)) in zip(cases, results).enumerated() {
            #expect(result["status"]?.stringValue == expected.status, "case \(index): \(JSON.object(result).compactText)")
            #expect(result["description"]?.stringValue == expected.reason, "case \(index)")
        }
        let gone = try #require(results[7]["timestamp"]?.intValue)
        let unregisteredAt = try #require(devices(gateway).first { $0["token"] == .string(Self.goneToken) }?["unregisteredAt"]?.stringValue)
        // The list shows milliseconds rounded down; the 410 says the same instant.
        let listed = try #require(RFC3339.date(from: unregisteredAt).map { Int(($0.timeIntervalSince1970 * 1000).rounded()) })
        #expect(abs(listed - gone) <= 1, "\(listed) vs \(gone)")

        // Only the two accepted pushes are in; the token they went to is registered to its app.
        let stored = try messages(gateway)
        #expect(stored.count == 2)
        let voip = try #require(stored.first)
        #expect(voip["app"] == "com.example.shop")
        #expect(voip["apnsHeaders"]?.objectValue?["apns-push-type"] == "voip")
        let first = try #require(stored.last)
        #expect(first["via"] == "apns")
        #expect(first["token"] == .string(Self.token))
        #expect(first["title"] == "Order shipped")
        let headers = try #require(first["apnsHeaders"]?.objectValue)
        #expect(headers["apns-collapse-id"] == "order-17")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-topic"] == "com.example.shop")
        #expect(headers["apns-id"] == results[0]["id"])
        #expect(headers["apns-expiration"]?.stringValue.flatMap(Int.init) != nil)
        #expect(try devices(gateway).count == 3)
        #expect(try devices(gateway).first { $0["token"] == .string(Self.token) }?["app"] == "com.example.shop")
    }

    @Test func pushModeOffIsAcceptedButDroppedAndATerminatedAppLaunchesWithIt() throws {
        let gateway = try GatewayServer()
        // No key registered: aioapns' well-formed token is enough.
        let key = try makeKey(in: gateway, register: false)
        #expect(try gateway.run(["mode", "off"]).status == 0)
        let dropped = try aioapns(gateway, key: key, [["token": .string(Self.token), "message": ["aps": ["alert": "while off"]]]])
        #expect(dropped.first?["status"] == "200")
        #expect(try messages(gateway).isEmpty)

        #expect(try gateway.run(["mode", "on"]).status == 0)
        #expect(try gateway.run(["app", "terminated"]).status == 0)
        let launched = try aioapns(gateway, key: key, [["token": .string(Self.token), "message": ["aps": ["alert": "wake up", "badge": 3]]]])
        #expect(launched.first?["status"] == "200")
        let message = try #require(try messages(gateway).first)
        #expect(message["body"] == "wake up")
        #expect(message["launch"] == true)
        #expect(try gateway.run(["badge", "--app", "com.example.shop"]).output == "3")
    }

    // MARK: - Provider tokens aioapns would never send

    @Test func providerTokensAreCheckedAgainstTheRegisteredKey() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: true)
        let otherKey = gateway.server.folder.file("other.p8")
        try APNsKeys.makeP8().write(toFile: otherKey, atomically: true, encoding: .utf8)
        let now = Int(Date().timeIntervalSince1970)
        let topic = "apns-topic: com.example.shop"
        let fresh = try curl(gateway, headers: [topic, "authorization: bearer \(try pyjwt(key: key, issuedAt: now))"], mode: .tls)
        #expect(fresh.status == 200)
        #expect(fresh.apnsId.flatMap(UUID.init(uuidString:)) != nil)
        let cases: [(String?, Int, String)] = [
            (try pyjwt(key: key, issuedAt: now - 3700), 403, "ExpiredProviderToken"),
            (try pyjwt(key: otherKey, issuedAt: now), 403, "InvalidProviderToken"),
            (try pyjwt(key: key, kid: "ZZZ9999999", issuedAt: now), 403, "InvalidProviderToken"),
            (try pyjwt(key: key, team: "OTHERTEAM1", issuedAt: now), 403, "UnrelatedKeyIdInToken"),
            ("not.a.jwt", 403, "InvalidProviderToken"),
            (nil, 403, "MissingProviderToken"),
        ]
        for (jwt, status, reason) in cases {
            let answer = try curl(gateway, headers: [topic] + (jwt.map { ["authorization: bearer \($0)"] } ?? []), mode: .tls)
            #expect(answer.status == status, "\(reason)")
            #expect(answer.reason == reason)
        }
        #expect(try messages(gateway).count == 1)
    }

    /// Apple refuses a token issued in the future (`InvalidProviderToken`); pushdeck allows a
    /// minute of clock difference. An `iat` written as a string of digits (kalyke-apns) is read
    /// as the number, as Apple reads it.
    @Test func aTokenFromTheFutureIsInvalidAndAStringIatIsANumber() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: true)
        let now = Int(Date().timeIntervalSince1970)
        let topic = "apns-topic: com.example.shop"
        let cases: [(issuedAt: Int, asString: Bool, status: Int, reason: String?)] = [
            (now + 86_400, false, 403, "InvalidProviderToken"),
            (4_102_444_800, false, 403, "InvalidProviderToken"),  // 2100-01-01
            (now + 600, true, 403, "InvalidProviderToken"),
            (now - 3700, true, 403, "ExpiredProviderToken"),
            (now + 30, false, 200, nil),
            (now, true, 200, nil),
            (now - 1800, true, 200, nil),
        ]
        for (issuedAt, asString, status, reason) in cases {
            let jwt = try pyjwt(key: key, issuedAt: issuedAt, iatAsString: asString)
            let answer = try curl(gateway, headers: [topic, "authorization: bearer \(jwt)"], mode: .tls)
            #expect(answer.status == status, "iat \(issuedAt - now) s from now, string: \(asString)")
            #expect(answer.reason == reason, "iat \(issuedAt - now) s from now, string: \(asString)")
        }
        // Only the accepted ones are stored.
        #expect(try messages(gateway).count == 3)
    }

    // MARK: - curl: headers a library never gets wrong

    @Test func everyHeaderIsCheckedAsAppleDoesAndARefusalChangesNothing() throws {
        let gateway = try GatewayServer(extraArguments: ["--devices", "strict"])
        #expect(try gateway.run(["device", "add", Self.token, "--app", "com.example.shop"]).status == 0)
        let jwt = "authorization: \(APNsKeys.wellFormedAuthorization)"
        let topic = "apns-topic: com.example.shop"
        let cases: [(method: String, path: String, headers: [String], body: String?, mode: CurlMode, status: Int, reason: String)] = [
            ("GET", "/3/device/\(Self.token)", [topic, jwt], nil, .h2c, 405, "MethodNotAllowed"),
            ("POST", "/3/notdevice/\(Self.token)", [topic, jwt], "{}", .h2c, 404, "BadPath"),
            ("POST", "/3/device/", [topic, jwt], "{}", .h2c, 400, "MissingDeviceToken"),
            ("POST", "/3/device/\(Self.otherToken)", [topic, jwt], #"{"aps":{}}"#, .h2c, 400, "BadDeviceToken"),
            ("POST", "/3/device/\(Self.token)", [topic, topic, jwt], #"{"aps":{}}"#, .h2c, 400, "DuplicateHeaders"),
            ("POST", "/3/device/\(Self.token)", [jwt], #"{"aps":{}}"#, .h2c, 400, "MissingTopic"),
            ("POST", "/3/device/\(Self.token)", ["apns-topic: com.example shop", jwt], #"{"aps":{}}"#, .h2c, 400, "BadTopic"),
            ("POST", "/3/device/\(Self.token)", [topic, jwt, "apns-push-type: banner"], #"{"aps":{}}"#, .h2c, 400, "InvalidPushType"),
            ("POST", "/3/device/\(Self.token)", [topic, jwt, "apns-priority: high"], #"{"aps":{}}"#, .h2c, 400, "BadPriority"),
            ("POST", "/3/device/\(Self.token)", [topic, jwt, "apns-expiration: tomorrow"], #"{"aps":{}}"#, .tls, 400, "BadExpirationDate"),
            ("POST", "/3/device/\(Self.token)", [topic, jwt, "apns-id: not-a-uuid"], #"{"aps":{}}"#, .tls, 400, "BadMessageId"),
            ("POST", "/3/device/\(Self.token)", [topic, jwt], "", .http1, 400, "PayloadEmpty"),
            ("POST", "/3/device/\(Self.token)", [topic, jwt], "not json", .http1, 400, "BadPayload"),
            ("POST", "/3/device/\(Self.token)", ["apns-topic: com.example.other", jwt], #"{"aps":{}}"#, .tls, 400, "DeviceTokenNotForTopic"),
        ]
        for item in cases {
            let answer = try curl(gateway, method: item.method, path: item.path, headers: item.headers, body: item.body, mode: item.mode)
            #expect(answer.status == item.status, "\(item.reason)")
            #expect(answer.reason == item.reason)
            // Every answer carries an apns-id: the request's (even one refused), else a new UUID.
            if item.reason == "BadMessageId" {
                #expect(answer.apnsId == "not-a-uuid")
            } else {
                #expect(answer.apnsId.flatMap(UUID.init(uuidString:)) != nil, "\(item.reason)")
            }
        }
        // Nothing of it reached the inbox or the devices.
        #expect(try messages(gateway).isEmpty)
        #expect(try devices(gateway).count == 1)

        let given = "8F2C1D3A-5B6E-4F70-8192-A3B4C5D6E7F8"
        let ok = try curl(gateway, headers: [topic, jwt, "apns-id: \(given)"], body: #"{"aps":{"alert":"Hi"}}"#, mode: .http1)
        #expect(ok.status == 200)
        #expect(ok.apnsId == given)
        #expect(try messages(gateway).count == 1)
    }

    /// `authorization: bearer ` with no token (what `$JWT` unset pastes) is Apple's
    /// MissingProviderToken ("the authorization header is missing or no provider token is
    /// specified"), on HTTP/2 as on HTTP/1.1. Over HTTP/2 nghttp2 used to refuse the value's
    /// trailing space itself (RST_STREAM PROTOCOL_ERROR; curl: (92)) before any route saw it.
    @Test(arguments: [CurlMode.h2c, .tls, .http1])
    func anEmptyBearerIsMissingProviderTokenAndWhitespaceAroundATokenIsNoError(mode: CurlMode) throws {
        let gateway = try GatewayServer()
        let topic = "apns-topic: com.example.shop"
        for empty in ["authorization: bearer ", "authorization: bearer", "authorization: Bearer    ", "authorization;"] {
            let answer = try curl(gateway, headers: [topic, empty], mode: mode)
            #expect(answer.status == 403, "\(mode) '\(empty)'")
            #expect(answer.reason == "MissingProviderToken", "\(mode) '\(empty)'")
        }
        // Whitespace around a value is not part of it (RFC 9110 §5.5), whichever HTTP carries it.
        let padded = try curl(gateway, headers: [topic, "authorization:   \(APNsKeys.wellFormedAuthorization)  "], mode: mode)
        #expect(padded.status == 200, "\(mode)")
        #expect(try messages(gateway).count == 1)
    }
}
