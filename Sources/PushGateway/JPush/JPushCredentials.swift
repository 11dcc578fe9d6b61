import Foundation
import Synchronization

/// The `Authorization: Basic base64(appKey:masterSecret)` values a backend sends, taken apart
/// once: a backend sends the same one on every push, and decoding it (Foundation's base64 and
/// string work) cost a JPush push as much as a tenth of its route (measured with callgrind).
final class JPushCredentials: Sendable {
    /// A few recent headers (a backend or two), newest last: the value and its appKey and secret.
    private let entries = Mutex<[(header: String, appKey: String, secret: String)]>([])
    static let capacity = 8

    /// The appKey and master secret of `header`; 1004 when it is not Basic `appKey:masterSecret`.
    func parse(_ header: String?) -> Result<(appKey: String, secret: String), JPushRefusal> {
        guard let header else { return .failure(JPushRefusal(.authenticationFailed, "no Authorization header")) }
        if let hit = entries.withLock({ $0.last { $0.header == header } }) { return .success((hit.appKey, hit.secret)) }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":")
        else {
            return .failure(JPushRefusal(.authenticationFailed, "Authorization must be Basic base64(appKey:masterSecret)"))
        }
        let appKey = String(text[..<colon])
        let secret = String(text[text.index(after: colon)...])
        entries.withLock { entries in
            entries.append((header, appKey, secret))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
        return .success((appKey, secret))
    }
}
