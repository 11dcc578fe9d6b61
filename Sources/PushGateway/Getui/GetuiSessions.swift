import COpenSSL
import Foundation
import Synchronization

/// What Getui's API remembers between requests: the tokens `/auth` handed out (by token: the
/// appId and when it expires) and the `request_id`s already pushed (Getui refuses a repeat).
/// Kept in memory: a restart asks backends to authenticate again, as a token Getui forgot would.
public final class GetuiSessions: Sendable {
    struct State {
        var tokens: [String: (appId: String, expires: Date)] = [:]
        var requestIds: [String: Date] = [:]
    }

    /// The most request ids remembered; the oldest half is forgotten past it (Getui keeps them a day).
    static let maxRequestIds = 100_000
    private let state = Mutex(State())

    public init() {}

    /// A new token for `appId`, valid until `expires`.
    public func issue(appId: String, expires: Date, now: Date) -> String {
        let token = Self.randomHex(bytes: 32)
        state.withLock { state in
            state.tokens = state.tokens.filter { $0.value.expires > now }
            state.tokens[token] = (appId, expires)
        }
        return token
    }

    /// Whether `token` was issued for `appId` and is still valid at `now`.
    public func isValid(_ token: String, appId: String, now: Date) -> Bool {
        state.withLock { state in
            guard let entry = state.tokens[token] else { return false }
            return entry.appId == appId && entry.expires > now
        }
    }

    /// Records `requestId` of `appId`; false when it was seen before (within a day).
    public func firstUse(of requestId: String, appId: String, now: Date) -> Bool {
        let key = appId + "\u{0}" + requestId
        return state.withLock { state in
            if let seen = state.requestIds[key], now.timeIntervalSince(seen) < 86_400 { return false }
            if state.requestIds.count >= Self.maxRequestIds {
                let sorted = state.requestIds.sorted { $0.value < $1.value }
                for (old, _) in sorted.prefix(Self.maxRequestIds / 2) { state.requestIds[old] = nil }
            }
            state.requestIds[key] = now
            return true
        }
    }

    /// Forgets `requestId` (its push was refused after it was recorded).
    public func forget(_ requestId: String, appId: String) {
        _ = state.withLock { $0.requestIds.removeValue(forKey: appId + "\u{0}" + requestId) }
    }

    static func randomHex(bytes count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        if RAND_bytes(&bytes, Int32(count)) != 1 {
            // OpenSSL's generator failed (it does not on a working system): fall back to Swift's.
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return hex(bytes)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// SHA-256 of `text`'s UTF-8, lower-case hex (Getui's `sign`), through OpenSSL.
    public static func sha256Hex(_ text: String) -> String {
        let input = Array(text.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1 else { return "" }
        return hex(Array(digest.prefix(Int(length))))
    }
}
