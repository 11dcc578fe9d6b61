import Foundation

/// Log lines the server produces while the UI owns the screen: shown on the status line instead
/// of being written over the screen.
public final class Notes: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending: String?

    public init() {}

    /// Keeps `note` for the status line (a newer one replaces it).
    public func add(_ note: String) { lock.withLock { pending = note } }
    /// The note not shown yet, once.
    public func take() -> String? { lock.withLock { defer { pending = nil }; return pending } }
}
