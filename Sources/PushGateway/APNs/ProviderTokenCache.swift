import PushCore
import Synchronization

/// The provider tokens a backend sends, remembered: a backend reuses one token for up to an hour,
/// so its parse (base64url, two JSON documents) and its ES256 check are done once, not per push.
/// Only what does not depend on the time is kept: the age (`iat`) is judged on every request.
final class ProviderTokenCache: Sendable {
    struct Entry {
        var authorization: String
        var token: ProviderToken?
        /// The key the signature was checked with, and whether it verified.
        var checked: (key: ProviderKey, verified: Bool)?
    }

    /// A few recent tokens (a backend or two, each with its own), newest last.
    private let entries = Mutex<[Entry]>([])
    static let capacity = 8

    /// The token of an `authorization` value, or nil when it is not a well-formed one.
    func token(_ authorization: String) -> ProviderToken? {
        if let hit = entries.withLock({ $0.last { $0.authorization == authorization } }) { return hit.token }
        let token = ProviderToken(authorization: authorization)
        remember(Entry(authorization: authorization, token: token))
        return token
    }

    /// What is wrong with the token against the keys (`ProviderToken.problem`), its signature
    /// checked once per key.
    func problem(
        _ token: ProviderToken, authorization: String, keys: [ProviderKey], now: Date, environment: APNsEnvironment = .production
    ) -> APNsReason? {
        guard !keys.isEmpty else { return nil }
        guard let key = keys.first(where: { $0.id == token.keyId }) else { return .invalidProviderToken }
        // Apple's "Handling error responses from APNs": the key id is one APNs knows, but not of
        // the team the token's iss names — `UnrelatedKeyIdInToken`; a key made for the other
        // environment — `BadEnvironmentKeyIdInToken`.
        guard key.team == token.issuer else { return .unrelatedKeyIdInToken }
        if let only = key.environment, only != environment { return .badEnvironmentKeyIdInToken }
        let known = entries.withLock { entries in
            entries.last { $0.authorization == authorization }?.checked.flatMap { $0.key == key ? $0.verified : nil }
        }
        let verified = known ?? ES256.verify(signature: token.signature, of: token.signedPart, privateKeyPEM: key.secret)
        if known == nil {
            entries.withLock { entries in
                if let index = entries.lastIndex(where: { $0.authorization == authorization }) {
                    entries[index].checked = (key, verified)
                }
            }
        }
        guard verified else { return .invalidProviderToken }
        return token.ageProblem(now: now)
    }

    private func remember(_ entry: Entry) {
        entries.withLock { entries in
            entries.append(entry)
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
    }
}
