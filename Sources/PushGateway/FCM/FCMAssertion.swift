import Foundation
import PushCore
import PushJSON

/// The JWT a service account posts to Google's token endpoint (Google's "Using OAuth 2.0 for
/// Server to Server Applications", "Preparing to make an authorized API call"): header
/// `{"alg":"RS256","typ":"JWT","kid":private_key_id}`, claims `iss` (the account's
/// `client_email`), `scope` (space-separated), `aud` (the token URI), `iat` and `exp` (seconds,
/// `exp` at most an hour after `iat`), signed RS256 with the account's key.
public struct FCMAssertion: Sendable, Equatable {
    public var keyId: String?
    public var issuer: String
    public var scopes: [String]
    public var audience: String
    public var issuedAt: Int64
    public var expires: Int64
    /// `header.claims`, the bytes the signature covers.
    public var signedPart: [UInt8]
    public var signature: [UInt8]

    /// The scopes that let a token send FCM messages (FCM's "Authorize send requests": "the
    /// https://www.googleapis.com/auth/firebase.messaging scope", and cloud-platform covers every API).
    public static let messagingScopes: Set<String> = [
        "https://www.googleapis.com/auth/firebase.messaging",
        "https://www.googleapis.com/auth/cloud-platform",
    ]
    /// The token URIs Google takes as `aud`: today's and the two older ones still honoured.
    public static let googleAudiences: Set<String> = [
        ServiceAccount.googleTokenURI,
        "https://accounts.google.com/o/oauth2/token",
        "https://www.googleapis.com/oauth2/v4/token",
    ]
    /// "The maximum permitted lifetime of an assertion is one hour" (the same guide, `exp`).
    public static let maxLifetime: Int64 = 3600
    /// How far a backend's clock may run ahead of this machine's: a minute, as for APNs tokens.
    public static let allowedClockAhead: Int64 = 60

    /// Reads the `assertion` form value; nil when it is not an RS256 JWT with these claims.
    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let header = ProviderToken.base64URL(pieces[0]), let claims = ProviderToken.base64URL(pieces[1]),
              let signature = ProviderToken.base64URL(pieces[2]),
              case .object(let headerObject)? = try? JSON.parse(header),
              case .object(let claimsObject)? = try? JSON.parse(claims),
              headerObject["alg"] == .string("RS256"),
              case .string(let issuer)? = claimsObject["iss"], !issuer.isEmpty,
              let issuedAt = ProviderToken.seconds(claimsObject["iat"]),
              let expires = ProviderToken.seconds(claimsObject["exp"])
        else { return nil }
        if case .string(let kid)? = headerObject["kid"] { keyId = kid } else { keyId = nil }
        self.issuer = issuer
        if case .string(let scope)? = claimsObject["scope"] {
            scopes = scope.split(separator: " ").map(String.init)
        } else {
            scopes = []
        }
        if case .string(let audience)? = claimsObject["aud"] { self.audience = audience } else { self.audience = "" }
        self.issuedAt = issuedAt
        self.expires = expires
        self.signedPart = Array("\(pieces[0]).\(pieces[1])".utf8)
        self.signature = signature
    }

    /// What Google answers for an assertion it refuses, checked in its order: the audience,
    /// the times, the scope (every check that needs no key), or nil.
    public func claimsProblem(now: Date) -> FCMOAuthError? {
        guard Self.isAudience(audience) else { return .failedAudience }
        let seconds = Int64(now.timeIntervalSince1970)
        guard expires > issuedAt, expires - issuedAt <= Self.maxLifetime,
              issuedAt <= seconds + Self.allowedClockAhead, expires > seconds
        else { return .notShortLived }
        guard !scopes.isEmpty else { return .missingScope }
        guard scopes.contains(where: Self.messagingScopes.contains) else { return .invalidScope }
        return nil
    }

    /// Google's token URIs, or a URI of a `/token` path (pushdeck's own, for a client that signs
    /// its key file's `token_uri` into `aud`).
    static func isAudience(_ audience: String) -> Bool {
        if googleAudiences.contains(audience) { return true }
        guard let url = URL(string: audience), let scheme = url.scheme, ["http", "https"].contains(scheme) else { return false }
        return url.path == "/token"
    }

    /// An assertion for `account` as google-auth makes one: `aud` Google's token URI, the
    /// messaging scope, an hour's life from `issuedAt`.
    public static func make(account: ServiceAccount, issuedAt: Int64, scope: String = "https://www.googleapis.com/auth/firebase.messaging") throws(RS256.KeyError) -> String {
        let header = JSON.object(JSONObject([
            (key: "alg", value: "RS256"), (key: "typ", value: "JWT"), (key: "kid", value: .string(account.privateKeyId)),
        ])).compactText
        let claims = JSON.object(JSONObject([
            (key: "iss", value: .string(account.clientEmail)), (key: "scope", value: .string(scope)),
            (key: "aud", value: .string(ServiceAccount.googleTokenURI)),
            (key: "iat", value: .number(JSONNumber(issuedAt))), (key: "exp", value: .number(JSONNumber(issuedAt + maxLifetime))),
        ])).compactText
        let signed = ProviderToken.base64URL(Array(header.utf8)) + "." + ProviderToken.base64URL(Array(claims.utf8))
        let key = try RS256.privateKey(pem: account.privateKeyPEM)
        return signed + "." + ProviderToken.base64URL(try RS256.sign(Array(signed.utf8), key: key))
    }
}

/// A refusal of Google's token endpoint: 400 (401 for an unknown client) and
/// `{"error":CODE,"error_description":TEXT}` (RFC 6749 §5.2), with the texts Google writes (as
/// its answers are quoted in google-auth's and the Admin SDKs' issue trackers).
public enum FCMOAuthError: Error, Sendable, Equatable {
    case unsupportedGrantType(String)
    case missingAssertion
    case malformed
    case badSignature
    case notShortLived
    case failedAudience
    case missingScope
    case invalidScope
    case unknownAccount

    public var code: String {
        switch self {
        case .unsupportedGrantType: "unsupported_grant_type"
        case .missingAssertion: "invalid_request"
        case .missingScope, .invalidScope: "invalid_scope"
        default: "invalid_grant"
        }
    }

    public var text: String {
        switch self {
        case .unsupportedGrantType(let given): "Invalid grant_type: \(given.prefix(200))"
        case .missingAssertion: "Missing required parameter: assertion"
        case .malformed: "Bad Request"
        case .badSignature: "Invalid JWT Signature."
        case .notShortLived:
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
        case .failedAudience: "Invalid JWT: Failed audience check."
        case .missingScope: "Empty or missing scope not allowed."
        case .invalidScope: "Invalid OAuth scope or ID token audience provided."
        case .unknownAccount: "Invalid grant: account not found"
        }
    }

    public var response: HTTPResponse {
        let body = JSON.object(JSONObject([(key: "error", value: .string(code)), (key: "error_description", value: .string(text))]))
        return HTTPResponse(status: 400, headers: [HTTPHeader("content-type", "application/json; charset=utf-8")], body: Array(body.compactText.utf8))
    }
}
