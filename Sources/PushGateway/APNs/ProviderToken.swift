import Foundation
import PushCore
import PushJSON

/// An APNs provider authentication token: a JWT signed ES256 (Apple's "Establishing a
/// token-based connection to APNs"): header `{"alg":"ES256","kid":KEY_ID}`, claims
/// `{"iss":TEAM_ID,"iat":SECONDS}`, each base64url, joined by dots with the signature.
public struct ProviderToken: Sendable, Equatable {
    public var keyId: String
    public var issuer: String
    public var issuedAt: Int64
    /// `header.claims`, the bytes the signature covers.
    public var signedPart: [UInt8]
    /// r‖s, 64 bytes for ES256.
    public var signature: [UInt8]

    /// How old a token may be: Apple refuses one issued more than an hour ago.
    public static let lifetime: TimeInterval = 3600
    /// How far ahead of the server's clock `iat` may be: a minute, for the provider's clock
    /// running ahead of this machine's. A token from further ahead is `InvalidProviderToken`
    /// (else it would never reach its hour and be good forever).
    public static let allowedClockAhead: TimeInterval = 60

    /// Reads the `authorization` header's value (`bearer <jwt>`); nil when it is not a
    /// well-formed provider token.
    public init?(authorization: String) {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let jwt = parts[1].trimmingCharacters(in: .whitespaces)
        let pieces = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let header = Self.base64URL(pieces[0]), let claims = Self.base64URL(pieces[1]),
              let signature = Self.base64URL(pieces[2]),
              case .object(let headerObject)? = try? JSON.parse(header),
              case .object(let claimsObject)? = try? JSON.parse(claims),
              headerObject["alg"] == .string("ES256"),
              case .string(let keyId)? = headerObject["kid"], !keyId.isEmpty,
              case .string(let issuer)? = claimsObject["iss"], !issuer.isEmpty,
              let seconds = Self.seconds(claimsObject["iat"])
        else { return nil }
        self.keyId = keyId
        self.issuer = issuer
        self.issuedAt = seconds
        self.signedPart = Array("\(pieces[0]).\(pieces[1])".utf8)
        self.signature = signature
    }

    /// What is wrong with the token against the registered APNs keys, or nil when it is good.
    ///
    /// With no key registered any well-formed token is enough. With keys, its
    /// `kid` must name one, its `iss` be that key's team, its signature verify with that key,
    /// and it must have been issued within the last hour and not more than a minute ahead.
    public func problem(keys: [ProviderKey], now: Date) -> APNsReason? {
        guard !keys.isEmpty else { return nil }
        guard let key = keys.first(where: { $0.id == keyId }) else { return .invalidProviderToken }
        // A kid APNs knows, of another team than the token's iss: Apple's `UnrelatedKeyIdInToken`.
        guard key.team == issuer else { return .unrelatedKeyIdInToken }
        guard ES256.verify(signature: signature, of: signedPart, privateKeyPEM: key.secret) else {
            return .invalidProviderToken
        }
        return ageProblem(now: now)
    }

    /// `InvalidProviderToken` when issued more than `allowedClockAhead` in the future,
    /// `ExpiredProviderToken` when issued more than `lifetime` ago, else nil.
    public func ageProblem(now: Date) -> APNsReason? {
        let issued = Double(issuedAt)
        if issued > now.timeIntervalSince1970 + Self.allowedClockAhead { return .invalidProviderToken }
        if issued < now.timeIntervalSince1970 - Self.lifetime { return .expiredProviderToken }
        return nil
    }

    /// `iat` in seconds: a JSON integer, or a string of ASCII digits — kalyke-apns writes the
    /// claim as `str(int(time.time()))` and APNs takes such a token as it takes the number.
    static func seconds(_ claim: JSON?) -> Int64? {
        switch claim {
        case .number(let number)?:
            return Int64(number.text)
        case .string(let text)? where !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
            return Int64(text)
        default:
            return nil
        }
    }

    /// base64url without padding, as JWTs write it.
    static func base64URL(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty else { return nil }
        var standard: [UInt8] = text.utf8.map { byte in
            byte == UInt8(ascii: "-") ? UInt8(ascii: "+") : byte == UInt8(ascii: "_") ? UInt8(ascii: "/") : byte
        }
        guard !standard.contains(UInt8(ascii: "=")) else { return nil }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map(Array.init)
    }

    /// base64url without padding of `bytes` (for signing tokens in tests and tools).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A signed provider token for `keyId`/`team`, issued at `issuedAt` (seconds since 1970);
    /// with no `privateKeyPEM`, signed with a throwaway key (a well-formed token only a gateway
    /// with no APNs key registered takes).
    public static func make(keyId: String, team: String, issuedAt: Int64, privateKeyPEM: String?) throws(ES256.KeyError) -> String {
        let header = JSON.object(["alg": "ES256", "kid": .string(keyId)]).compactText
        let claims = JSON.object(["iss": .string(team), "iat": .number(JSONNumber(issuedAt))]).compactText
        let signed = base64URL(Array(header.utf8)) + "." + base64URL(Array(claims.utf8))
        let signature = if let privateKeyPEM {
            try ES256.sign(Array(signed.utf8), privateKeyPEM: privateKeyPEM)
        } else {
            try ES256.signWithThrowawayKey(Array(signed.utf8))
        }
        return signed + "." + base64URL(signature)
    }
}
