import Foundation
import PushCore
@testable import PushGateway
import PushJSON
import Testing
import TestSupport

/// A service account with a fresh RSA key (made once for the suite).
let fcmAccount: ServiceAccount = {
    let pem = (try? RS256.makePrivateKeyPEM()) ?? ""
    return ServiceAccount(
        projectId: "pushdeck-test", privateKeyId: "0123abcd", privateKeyPEM: pem,
        clientEmail: "firebase-adminsdk-x1@pushdeck-test.iam.gserviceaccount.com", clientId: "1234", tokenURI: "https://localhost:2197/token")
}()

let fcmNow = Date(timeIntervalSince1970: 1_800_000_000)

func fcmTokenRequest(_ form: String, method: String = "POST") -> HTTPRequest {
    HTTPRequest(
        method: method, path: "/token", headers: [HTTPHeader("content-type", "application/x-www-form-urlencoded")],
        body: Array(form.utf8), version: .http1_1, isTLS: true)
}

func assertionForm(_ assertion: String) -> String {
    "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
}

/// An assertion with these claims, signed with `pem` (else `fcmAccount`'s key).
func signedAssertion(_ claims: JSONObject, header: JSONObject = ["alg": "RS256", "typ": "JWT"], pem: String? = nil) throws -> String {
    let signed = ProviderToken.base64URL(Array(JSON.object(header).compactText.utf8)) + "."
        + ProviderToken.base64URL(Array(JSON.object(claims).compactText.utf8))
    let key = try RS256.privateKey(pem: pem ?? fcmAccount.privateKeyPEM)
    return signed + "." + ProviderToken.base64URL(try RS256.sign(Array(signed.utf8), key: key))
}

func claims(
    iss: String = fcmAccount.clientEmail, scope: String? = "https://www.googleapis.com/auth/firebase.messaging",
    aud: String = "https://oauth2.googleapis.com/token", iat: Int64 = 1_800_000_000, exp: Int64? = nil
) -> JSONObject {
    var object: JSONObject = ["iss": .string(iss), "aud": .string(aud), "iat": .number(JSONNumber(iat)), "exp": .number(JSONNumber(exp ?? iat + 3600))]
    if let scope { object["scope"] = .string(scope) }
    return object
}

func inboxWithFCMKey(app: String? = nil) -> Inbox {
    var inbox = Inbox()
    let key = fcmAccount.providerKey(app: app)
    inbox.providerKeys[key.id] = key
    return inbox
}

/// The `/token` answer: status, and the body's members.
func oauthAnswer(_ decision: GatewayDecision) -> (status: Int, body: JSONObject) {
    guard case .respond(let response) = decision else { return (0, [:]) }
    return (response.status, (try? JSON.parse(response.body))?.objectValue ?? [:])
}

@Suite struct RS256Tests {
    @Test func signsAndVerifiesWithOpenSSL() throws {
        let key = try RS256.privateKey(pem: fcmAccount.privateKeyPEM)
        #expect(key.bits == 2048)
        let message = Array("header.claims".utf8)
        let signature = try RS256.sign(message, key: key)
        #expect(signature.count == 256)
        #expect(RS256.verify(signature: signature, of: message, key: key))
        var flipped = signature
        flipped[10] ^= 1
        #expect(!RS256.verify(signature: flipped, of: message, key: key))
        #expect(!RS256.verify(signature: signature, of: Array("header.claimz".utf8), key: key))
        let other = try RS256.privateKey(pem: try RS256.makePrivateKeyPEM())
        #expect(!RS256.verify(signature: signature, of: message, key: other))
    }

    @Test func refusesKeysThatAreNotRSA() throws {
        #expect(throws: RS256.KeyError.self) { try RS256.privateKey(pem: "not a key") }
        let p8 = try APNsKeys.makeP8()
        #expect(throws: RS256.KeyError.self) { try RS256.privateKey(pem: p8) }
    }
}

@Suite struct ServiceAccountTests {
    @Test func readsTheKeyFileFirebaseHandsOut() throws {
        let text = fcmAccount.json.prettyText
        let account = try ServiceAccount(parsing: Array(text.utf8))
        #expect(account == fcmAccount)
        let key = account.providerKey(app: "com.example.shop")
        #expect(key.id == fcmAccount.clientEmail && key.vendor == .fcm && key.team == "pushdeck-test" && key.appKey == "com.example.shop")
    }

    /// Each bad file: refused with what is wrong.
    @Test(arguments: [
        ("[]", "not JSON"),
        (#"{"type":"authorized_user"}"#, "not \"service_account\""),
        (#"{"type":"service_account"}"#, "no \"project_id\""),
        (#"{"type":"service_account","project_id":"X"}"#, "is not a project id"),
        (#"{"type":"service_account","project_id":"my-project","private_key":"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n","client_email":"a@b"}"#, "\"private_key\" is not usable"),
        (#"{"type":"service_account","project_id":"my-project","private_key":"k","client_email":"nobody"}"#, "not an email address"),
    ])
    func refusesABadFile(text: String, says: String) {
        #expect {
            try ServiceAccount(parsing: Array(text.utf8))
        } throws: { error in
            (error as? ServiceAccount.Problem)?.description.contains(says) == true
        }
    }
}

@Suite struct FCMTokenEndpointTests {
    let routes = FCMRoutes()

    @Test func aSignedAssertionGetsAnHourLongBearerToken() throws {
        let decision = routes.decide(fcmTokenRequest(assertionForm(try signedAssertion(claims()))), context: GatewayContext(inbox: inboxWithFCMKey(), now: fcmNow))
        let (status, body) = oauthAnswer(decision)
        #expect(status == 200)
        #expect(body.keys == ["access_token", "expires_in", "token_type"])
        #expect(body["expires_in"]?.intValue == 3599 && body["token_type"] == "Bearer")
        let token = try #require(body["access_token"]?.stringValue)
        #expect(token.hasPrefix("ya29."))
        #expect(routes.tokens.lookup(token, now: fcmNow.addingTimeInterval(3599))?.live == true)
        #expect(routes.tokens.lookup(token, now: fcmNow.addingTimeInterval(3600))?.live == false)
        #expect(routes.tokens.lookup(token, now: fcmNow)?.project == "pushdeck-test")
    }

    @Test func theAssertionGoogleAuthMakesIsTaken() throws {
        let assertion = try FCMAssertion.make(account: fcmAccount, issuedAt: 1_800_000_000)
        let (status, _) = oauthAnswer(routes.decide(fcmTokenRequest(assertionForm(assertion)), context: GatewayContext(inbox: inboxWithFCMKey(), now: fcmNow)))
        #expect(status == 200)
    }

    /// Each refusal: 400 with Google's `error` and `error_description`, and no token issued.
    @Test func refusalsAnswerAsGooglesTokenEndpoint() throws {
        let other = try RS256.makePrivateKeyPEM()
        let rows: [(String, String, String)] = [
            ("grant_type=client_credentials", "unsupported_grant_type", "Invalid grant_type: client_credentials"),
            ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer", "invalid_request", "Missing required parameter: assertion"),
            (assertionForm("not.a.jwt"), "invalid_grant", "Bad Request"),
            (assertionForm(try signedAssertion(claims(), pem: other)), "invalid_grant", "Invalid JWT Signature."),
            (assertionForm(try signedAssertion(claims(iss: "someone@else.iam.gserviceaccount.com"))), "invalid_grant", "Invalid grant: account not found"),
            (assertionForm(try signedAssertion(claims(iat: 1_800_000_000 - 7200))), "invalid_grant",
             "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."),
            (assertionForm(try signedAssertion(claims(exp: 1_800_000_000 + 7200))), "invalid_grant",
             "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."),
            (assertionForm(try signedAssertion(claims(aud: "https://example.com/oauth"))), "invalid_grant", "Invalid JWT: Failed audience check."),
            (assertionForm(try signedAssertion(claims(scope: nil))), "invalid_scope", "Empty or missing scope not allowed."),
            (assertionForm(try signedAssertion(claims(scope: "https://www.googleapis.com/auth/userinfo.email"))), "invalid_scope",
             "Invalid OAuth scope or ID token audience provided."),
        ]
        for (form, error, description) in rows {
            let tokens = FCMAccessTokens()
            let (status, body) = oauthAnswer(FCMRoutes(tokens: tokens).decide(fcmTokenRequest(form), context: GatewayContext(inbox: inboxWithFCMKey(), now: fcmNow)))
            #expect(status == 400, "\(description)")
            #expect(body == ["error": .string(error), "error_description": .string(description)])
        }
    }

    @Test func withNoKeyRegisteredAWellFormedAssertionIsEnough() throws {
        let other = try RS256.makePrivateKeyPEM()
        let assertion = try signedAssertion(claims(iss: "anyone@any-project.iam.gserviceaccount.com"), pem: other)
        let (status, body) = oauthAnswer(routes.decide(fcmTokenRequest(assertionForm(assertion)), context: GatewayContext(inbox: Inbox(), now: fcmNow)))
        #expect(status == 200)
        #expect(routes.tokens.lookup(body["access_token"]?.stringValue ?? "", now: fcmNow)?.project == "")
        // The claims are still checked.
        let stale = try signedAssertion(claims(iat: 1_700_000_000), pem: other)
        #expect(oauthAnswer(routes.decide(fcmTokenRequest(assertionForm(stale)), context: GatewayContext(inbox: Inbox(), now: fcmNow))).status == 400)
    }

    /// The signature is checked once per assertion; its times are judged on every request.
    @Test func aRepeatedAssertionIsVerifiedOnceAndJudgedEachTime() throws {
        let assertion = try signedAssertion(claims())
        let context = GatewayContext(inbox: inboxWithFCMKey(), now: fcmNow)
        #expect(oauthAnswer(routes.decide(fcmTokenRequest(assertionForm(assertion)), context: context)).status == 200)
        #expect(oauthAnswer(routes.decide(fcmTokenRequest(assertionForm(assertion)), context: context)).status == 200)
        let later = GatewayContext(inbox: inboxWithFCMKey(), now: fcmNow.addingTimeInterval(3601))
        #expect(oauthAnswer(routes.decide(fcmTokenRequest(assertionForm(assertion)), context: later)).body["error"] == "invalid_grant")
    }

    @Test func aGetIsNoMethod() {
        let (status, body) = oauthAnswer(routes.decide(fcmTokenRequest("", method: "GET"), context: GatewayContext(inbox: Inbox(), now: fcmNow)))
        #expect(status == 404)
        #expect(body["error"]?.objectValue?["status"] == "NOT_FOUND")
    }

    @Test func formDecodingFollowsTheURLStandard() {
        #expect(FCMRoutes.form(Array("a=1+2&b=%2F%3D&a=3&c".utf8)) == ["a": "1 2", "b": "/=", "c": ""])
    }

    @Test(arguments: [
        ("Bearer ya29.abc", "ya29.abc"), ("bearer ya29.abc", "ya29.abc"), ("BEARER   ya29.abc \t", "ya29.abc"),
        ("  Bearer ya29.abc", "ya29.abc"), ("Bearer ya29.abc\u{00A0}", "ya29.abc"), ("Bearer", nil), ("Bearer   ", nil),
        ("Bearer a b", nil), ("Bearer\tya29.abc", nil), ("Basic ya29.abc", nil), ("Bearers ya29.abc", nil), ("", nil),
    ] as [(String, String?)])
    func theBearerTokenIsTheOneWordAfterTheScheme(header: String, token: String?) {
        #expect(FCMRoutes.bearerToken(header) == token)
    }
}
