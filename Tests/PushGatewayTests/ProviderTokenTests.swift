import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport

/// Provider tokens signed with a real P-256 key made by openssl, checked as APNs checks them.
@Suite struct ProviderTokenTests {
    let p8: String
    let other: String
    init() throws {
        p8 = try APNsKeys.makeP8()
        other = try APNsKeys.makeP8()
    }

    func keys(_ pem: String, id: String = SampleCredentials.apnsKeyId, team: String = SampleCredentials.apnsTeam) -> [ProviderKey] {
        [ProviderKey(id: id, vendor: .apns, team: team, secret: pem)]
    }

    func token(kid: String = SampleCredentials.apnsKeyId, iss: String = SampleCredentials.apnsTeam, iat: Int64 = 1_700_000_000, signedWith pem: String? = nil)
        throws -> ProviderToken
    {
        let jwt = try ProviderToken.make(keyId: kid, team: iss, issuedAt: iat, privateKeyPEM: pem ?? p8)
        return try #require(ProviderToken(authorization: "bearer " + jwt))
    }

    @Test func aFreshTokenSignedWithTheRegisteredKeyIsGood() throws {
        #expect(try token().problem(keys: keys(p8), now: now) == nil)
    }

    @Test func aTokenSignedWithAnotherKeyIsInvalid() throws {
        #expect(try token(signedWith: other).problem(keys: keys(p8), now: now) == .invalidProviderToken)
    }

    @Test func aTamperedClaimIsInvalid() throws {
        var tampered = try token()
        tampered.signedPart = Array(String(decoding: tampered.signedPart, as: UTF8.self).dropLast().utf8) + Array("x".utf8)
        #expect(tampered.problem(keys: keys(p8), now: now) == .invalidProviderToken)
    }

    @Test func anUnknownKidOrAnotherTeamIsInvalid() throws {
        #expect(try token(kid: "ZZZ").problem(keys: keys(p8), now: now) == .invalidProviderToken)
        #expect(try token(iss: "OTHERTEAM1").problem(keys: keys(p8), now: now) == .unrelatedKeyIdInToken)
    }

    @Test func aTokenIssuedMoreThanAnHourAgoHasExpired() throws {
        let issued: Int64 = 1_700_000_000
        let atTheHour = Date(timeIntervalSince1970: Double(issued) + 3600)
        let afterIt = Date(timeIntervalSince1970: Double(issued) + 3601)
        #expect(try token(iat: issued).problem(keys: keys(p8), now: atTheHour) == nil)
        #expect(try token(iat: issued).problem(keys: keys(p8), now: afterIt) == .expiredProviderToken)
    }

    /// Apple answers a token issued in the future `InvalidProviderToken`; a minute of clock
    /// difference is allowed.
    @Test func aTokenIssuedMoreThanAMinuteAheadIsInvalid() throws {
        let clock = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try token(iat: 1_700_000_060).problem(keys: keys(p8), now: clock) == nil)
        #expect(try token(iat: 1_700_000_061).problem(keys: keys(p8), now: clock) == .invalidProviderToken)
        #expect(try token(iat: 1_700_086_400).problem(keys: keys(p8), now: clock) == .invalidProviderToken)
        #expect(try token(iat: 4_102_444_800).problem(keys: keys(p8), now: clock) == .invalidProviderToken)
        #expect(try token(iat: Int64.max).problem(keys: keys(p8), now: clock) == .invalidProviderToken)
    }

    /// A signed token whose claims are `claims` as written.
    func token(claims: String) throws -> ProviderToken? {
        let header = ProviderToken.base64URL(Array(#"{"alg":"ES256","kid":"\#(SampleCredentials.apnsKeyId)"}"#.utf8))
        let signed = header + "." + ProviderToken.base64URL(Array(claims.utf8))
        let signature = try ES256.sign(Array(signed.utf8), privateKeyPEM: p8)
        return ProviderToken(authorization: "bearer " + signed + "." + ProviderToken.base64URL(signature))
    }

    /// kalyke-apns writes `iat` as a string of digits; Apple takes it as the number.
    @Test func anIatOfDigitsInAStringIsTheNumber() throws {
        let team = SampleCredentials.apnsTeam
        let string = try #require(try token(claims: #"{"iss":"\#(team)","iat":"1700000000"}"#))
        #expect(string.issuedAt == 1_700_000_000)
        #expect(string.problem(keys: keys(p8), now: now) == nil)
        #expect(string.problem(keys: keys(p8), now: now.addingTimeInterval(3601)) == .expiredProviderToken)
        for bad in [#""""#, #""17e8""#, #""-5""#, #""1.5""#, #"" 1700000000""#, #""1700000000 ""#, #""0x10""#, #""99999999999999999999""#, "true", "null"] {
            #expect(try token(claims: #"{"iss":"\#(team)","iat":\#(bad)}"#) == nil, "iat \(bad)")
        }
    }

    @Test func withNoKeyAWellFormedTokenIsEnough() throws {
        #expect(try token(iat: 1, signedWith: other).problem(keys: [], now: now) == nil)
    }

    @Test func theRouteRefusesWithTheTokensProblem() throws {
        var inbox = Inbox()
        inbox.providerKeys["ABC123DEFG"] = keys(p8)[0]
        let fresh = try ProviderToken.make(keyId: "ABC123DEFG", team: "TEAM123456", issuedAt: Int64(now.timeIntervalSince1970), privateKeyPEM: p8)
        let stale = try ProviderToken.make(keyId: "ABC123DEFG", team: "TEAM123456", issuedAt: Int64(now.timeIntervalSince1970) - 3601, privateKeyPEM: p8)
        let forged = try ProviderToken.make(keyId: "ABC123DEFG", team: "TEAM123456", issuedAt: Int64(now.timeIntervalSince1970), privateKeyPEM: other)
        func decide(_ jwt: String) -> GatewayDecision {
            APNsRoutes().decide(apnsRequest(headers: replacing("authorization", with: "bearer " + jwt)), context: GatewayContext(inbox: inbox, now: now))
        }
        guard case .request = decide(fresh) else { Issue.record("refused a good token"); return }
        #expect(reasonAndStatus(decide(stale)) == (403, "ExpiredProviderToken", nil))
        #expect(reasonAndStatus(decide(forged)) == (403, "InvalidProviderToken", nil))
        // The unsigned token of the other tests is refused once a key is registered.
        #expect(reasonAndStatus(APNsRoutes().decide(apnsRequest(), context: GatewayContext(inbox: inbox, now: now))).reason == "InvalidProviderToken")
    }

    @Test func theRoutesRememberATokenButNotItsKeyOrItsAge() throws {
        let routes = APNsRoutes()
        var inbox = Inbox()
        inbox.providerKeys["ABC123DEFG"] = keys(p8)[0]
        let issued = Int64(now.timeIntervalSince1970)
        let jwt = try ProviderToken.make(keyId: "ABC123DEFG", team: "TEAM123456", issuedAt: issued, privateKeyPEM: p8)
        let request = apnsRequest(headers: replacing("authorization", with: "bearer " + jwt))
        func reason(_ inbox: Inbox, at date: Date) -> String? {
            reasonAndStatus(routes.decide(request, context: GatewayContext(inbox: inbox, now: date))).reason
        }
        #expect(reason(inbox, at: now) == nil)
        #expect(reason(inbox, at: now) == nil)
        // An hour and a second later the same remembered token has expired.
        #expect(reason(inbox, at: now.addingTimeInterval(3601)) == "ExpiredProviderToken")
        // The key replaced (same id and team, another key): checked again, and refused.
        inbox.providerKeys["ABC123DEFG"] = keys(other)[0]
        #expect(reason(inbox, at: now) == "InvalidProviderToken")
        // The key removed: any well-formed token again.
        inbox.providerKeys = [:]
        #expect(reason(inbox, at: now) == nil)
    }

    @Test func keysThatAreNotP256AreRefusedWithAReason() throws {
        #expect(throws: ES256.KeyError.self) { try ES256.checkPrivateKey(pem: "not a key") }
        let rsa = try Spawn.run(["sh", "-c", "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 2>/dev/null"], captureOutput: true)
        #expect(throws: ES256.KeyError.self) { try ES256.checkPrivateKey(pem: rsa.output) }
        try ES256.checkPrivateKey(pem: p8)
    }
}
