import PushCore

/// Where the list's rows come from (the store, or an array in tests).
///
/// The screen asks only for the rows it shows, so a million stored messages cost one page.
public protocol MessageSource {
    /// How many listed messages match `filter` (all when empty).
    func count(filter: String) -> Int
    /// Up to `limit` listed messages matching `filter`, newest first, skipping the first `offset`.
    func page(offset: Int, limit: Int, filter: String) -> [Message]
    /// One message by id, listed or not.
    func message(id: Int64) -> Message?
}

/// A `MessageSource` over an array (newest first) — for tests and small tools.
public struct ArrayMessageSource: MessageSource, Sendable {
    public var messages: [Message]

    public init(_ messages: [Message]) { self.messages = messages }

    public func count(filter: String) -> Int { matching(filter).count }

    public func page(offset: Int, limit: Int, filter: String) -> [Message] {
        let rows = matching(filter)
        guard offset < rows.count, limit > 0 else { return [] }
        return Array(rows[max(0, offset)..<min(rows.count, max(0, offset) + limit)])
    }

    public func message(id: Int64) -> Message? { messages.first { $0.id == id } }

    private func matching(_ filter: String) -> [Message] {
        guard !filter.isEmpty else { return messages }
        return messages.filter { $0.matches(filter: filter) }
    }
}

extension Message {
    /// Whether the filter text appears (case-insensitively) in the app, title, subtitle or body.
    public func matches(filter: String) -> Bool {
        let needle = filter.lowercased()
        return [app, title, subtitle, body].contains { ($0 ?? "").lowercased().contains(needle) }
    }
}
