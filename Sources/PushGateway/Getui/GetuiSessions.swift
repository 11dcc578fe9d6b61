import COpenSSL
import Foundation
import Synchronization

/// The tokens Getui's `/auth` handed out (by token: the appId and when it expires). Kept in
/// memory: a restart asks backends to authenticate again, as a token Getui forgot would. (The
/// `request_id`s already pushed are the inbox's, `GetuiRequestIds`: they outlive a restart.)
public final class GetuiSessions: Sendable {
    struct State {
        var tokens = TokenBook()
    }

    /// The most live tokens of one appId: past it, `/auth` still answers, and the app's oldest
    /// token stops working (a backend that still sends it gets 10001 and authenticates again,
    /// as Getui's token page advises and its SDKs do). Getui lets an app authenticate at most
    /// 100 times a minute (the same page: "鉴权接口每分钟最大调用量为100次"), and a backend keeps one
    /// token for the day, so 100 live tokens is more than any app's backends hold at once.
    public static let maxTokensPerApp = 100
    /// The most live tokens of every appId together (without a registered key any appId
    /// authenticates): past it the oldest token of all stops working.
    public static let maxTokens = 10_000
    private let state = Mutex(State())

    public init() {}

    /// A new token for `appId`, valid until `expires` (every token lives equally long).
    public func issue(appId: String, expires: Date, now: Date) -> String {
        let token = Self.randomHex(bytes: 32)
        state.withLock { state in state.tokens.issue(token, appId: appId, expires: expires, now: now) }
        return token
    }

    /// Whether `token` was issued for `appId` and is still valid at `now`.
    public func isValid(_ token: String, appId: String, now: Date) -> Bool {
        state.withLock { state in
            guard let entry = state.tokens.live[token] else { return false }
            return entry.appId == appId && entry.expires > now
        }
    }

    /// How many tokens are kept (live ones, and expired ones not yet pruned).
    public var tokenCount: Int { state.withLock { $0.tokens.live.count } }

    static func randomHex(bytes count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        if RAND_bytes(&bytes, Int32(count)) != 1 {
            // OpenSSL's generator failed (it does not on a working system): fall back to Swift's.
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return lowercaseHex(bytes)
    }

    /// SHA-256 of `text`'s UTF-8, lower-case hex (Getui's `sign`), through OpenSSL.
    public static func sha256Hex(_ text: String) -> String {
        SHA256Digest.of(text).map { lowercaseHex($0) } ?? ""
    }
}
