import Foundation
import PushCore
import Synchronization

/// The access tokens `/token` handed out, and the assertions it has verified.
///
/// Tokens live an hour on the gateway's clock (Google's token endpoint: `"expires_in":3599`) and
/// are kept in memory: after a restart a backend's token is unknown, answered 401, and its
/// SDK fetches a new one (google-auth refreshes and retries on 401), as with a token Google revoked.
public final class FCMAccessTokens: Sendable {
    /// How long a token lives, and what `expires_in` says (Google writes one second less than the hour).
    public static let lifetime: TimeInterval = 3600
    public static let expiresIn = 3599
    /// The prefix of Google's OAuth access tokens (`ya29.`), which some clients check.
    public static let prefix = "ya29.pushdeck-"

    struct Verified {
        var assertion: String
        var keyPEM: String
        var verified: Bool
    }

    struct State {
        /// Issued tokens by the project they were issued for ("" with no key registered).
        var tokens = TokenBook()
        /// Recent assertions and their signature check (a backend asks for a token with the
        /// same assertion until it nears its hour; the bench and retries reuse one): a
        /// signature is a function of the assertion and the key alone, so the check is kept;
        /// the times and scope are judged again on every request.
        var verified: [Verified] = []
        /// Parsed keys by PEM, so a check costs no PEM parse.
        var keys: [String: RS256.Key] = [:]
    }

    static let verifiedCapacity = 16
    private let state = Mutex(State())

    public init() {}

    /// A new token for `project`, valid for `lifetime` from `now`.
    public func issue(project: String, now: Date) -> String {
        let token = Self.prefix + GetuiSessions.randomHex(bytes: 32)
        state.withLock { state in state.tokens.issue(token, appId: project, expires: now.addingTimeInterval(Self.lifetime), now: now) }
        return token
    }

    /// What `/token` issued `token` for: its project and whether it is still valid at `now`;
    /// nil when it issued no such token (or forgot it).
    public func lookup(_ token: String, now: Date) -> (project: String, live: Bool)? {
        state.withLock { state in
            guard let entry = state.tokens.live[token] else { return nil }
            return (entry.appId, entry.expires > now)
        }
    }

    /// Whether `assertion`'s signature verifies with `pem`'s key, checked once per assertion and key.
    func verify(_ assertion: FCMAssertion, text: String, pem: String) -> Bool {
        let known: Bool? = state.withLock { state in
            state.verified.last { $0.assertion == text && $0.keyPEM == pem }?.verified
        }
        if let known { return known }
        let cachedKey = state.withLock { $0.keys[pem] }
        let key: RS256.Key
        if let cachedKey {
            key = cachedKey
        } else {
            guard let parsed = try? RS256.privateKey(pem: pem) else { return false }
            key = parsed
        }
        let verified = RS256.verify(signature: assertion.signature, of: assertion.signedPart, key: key)
        state.withLock { state in
            if state.keys[pem] == nil {
                if state.keys.count >= Self.verifiedCapacity { state.keys.removeAll() }
                state.keys[pem] = key
            }
            state.verified.append(Verified(assertion: text, keyPEM: pem, verified: verified))
            if state.verified.count > Self.verifiedCapacity { state.verified.removeFirst(state.verified.count - Self.verifiedCapacity) }
        }
        return verified
    }
}
