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

    // MARK: Threads

    /// How many rows the grouped list has: listed messages without a thread, one per thread.
    func groupedCount() -> Int
    /// Up to `limit` rows of the grouped list, newest first (a thread's row is its newest
    /// message), skipping the first `offset`.
    func groupedPage(offset: Int, limit: Int) -> [Message]
    /// How many listed messages the thread has (0 when none).
    func threadSize(_ thread: ThreadKey) -> Int
    /// The index of the thread's row in the grouped list, nil when it has no listed message.
    func groupedPosition(of thread: ThreadKey) -> Int?
    /// The thread's listed messages, the highest `relevance-score` first, then the newest.
    func threadMembers(_ thread: ThreadKey, offset: Int, limit: Int) -> [Message]
}

/// What the list shows: one flat row per message, or grouped by thread with one thread expanded.
public struct ListQuery: Sendable, Equatable {
    public var filter = ""
    public var grouped = true
    /// The thread whose messages follow its row (one at a time, as a tapped stack opens).
    public var expanded: ThreadKey?

    public init(filter: String = "", grouped: Bool = true, expanded: ThreadKey? = nil) {
        self.filter = filter
        self.grouped = grouped
        self.expanded = expanded
    }

    /// A filter searches messages one by one: its matches are listed flat.
    public var groups: Bool { grouped && filter.isEmpty }
}

/// One row of the list.
public enum ListRow: Sendable, Equatable {
    /// A message on its own (no thread, a thread of one, or the list flat).
    case message(Message)
    /// A thread's row: its newest message and how many it has.
    case thread(Message, count: Int, expanded: Bool)
    /// A message of the expanded thread, under its row.
    case member(Message)

    public var message: Message {
        switch self {
        case .message(let message), .thread(let message, _, _), .member(let message): message
        }
    }
}

extension MessageSource {
    /// How many rows the list has for `query`.
    public func count(_ query: ListQuery) -> Int {
        guard query.groups else { return count(filter: query.filter) }
        return groupedCount() + (expansion(query)?.size ?? 0)
    }

    /// Up to `limit` rows of the list for `query`, skipping the first `offset`. With a thread
    /// expanded at grouped row `p`, rows `p + 1 ... p + size` are its messages.
    public func rows(offset: Int, limit: Int, query: ListQuery) -> [ListRow] {
        guard limit > 0, offset >= 0 else { return [] }
        guard query.groups else { return page(offset: offset, limit: limit, filter: query.filter).map(ListRow.message) }
        let open = expansion(query)
        func grouped(_ offset: Int, _ limit: Int) -> [ListRow] {
            groupedPage(offset: offset, limit: limit).map { message in
                guard let key = message.threadKey else { return .message(message) }
                let size = threadSize(key)
                return size > 1 ? .thread(message, count: size, expanded: key == open?.key) : .message(message)
            }
        }
        guard let open else { return grouped(offset, limit) }
        let end = offset + limit
        var rows: [ListRow] = []
        // Grouped rows up to and including the thread's own row.
        if offset <= open.position {
            rows += grouped(offset, min(end, open.position + 1) - offset)
        }
        // Its members.
        let membersStart = open.position + 1
        let membersEnd = membersStart + open.size
        if end > membersStart && offset < membersEnd {
            let from = max(offset, membersStart)
            rows += threadMembers(open.key, offset: from - membersStart, limit: min(end, membersEnd) - from)
                .map(ListRow.member)
        }
        // The grouped rows after it.
        if end > membersEnd {
            let from = max(offset, membersEnd)
            rows += grouped(from - open.size, end - from)
        }
        return rows
    }

    /// The expanded thread's key, row and size, when it still has messages to show.
    private func expansion(_ query: ListQuery) -> (key: ThreadKey, position: Int, size: Int)? {
        guard let key = query.expanded else { return nil }
        let size = threadSize(key)
        guard size > 1, let position = groupedPosition(of: key) else { return nil }
        return (key, position, size)
    }
}

/// A `MessageSource` over an array (newest first) — for tests and small tools.
public struct ArrayMessageSource: MessageSource, Sendable {
    public var messages: [Message]

    public init(_ messages: [Message]) { self.messages = messages }

    public func count(filter: String) -> Int { matching(filter).count }

    public func page(offset: Int, limit: Int, filter: String) -> [Message] {
        Self.slice(matching(filter), offset: offset, limit: limit)
    }

    public func message(id: Int64) -> Message? { messages.first { $0.id == id } }

    public func groupedCount() -> Int { heads.count }

    public func groupedPage(offset: Int, limit: Int) -> [Message] { Self.slice(heads, offset: offset, limit: limit) }

    public func threadSize(_ thread: ThreadKey) -> Int { messages.count { $0.threadKey == thread } }

    public func groupedPosition(of thread: ThreadKey) -> Int? { heads.firstIndex { $0.threadKey == thread } }

    public func threadMembers(_ thread: ThreadKey, offset: Int, limit: Int) -> [Message] {
        let members = messages.filter { $0.threadKey == thread }.sorted {
            ($0.relevance ?? 0, $0.id) > ($1.relevance ?? 0, $1.id)
        }
        return Self.slice(members, offset: offset, limit: limit)
    }

    /// The grouped list: messages without a thread and the newest of each thread.
    private var heads: [Message] {
        var seen = Set<ThreadKey>()
        return messages.filter { message in
            guard let key = message.threadKey else { return true }
            return seen.insert(key).inserted
        }
    }

    private func matching(_ filter: String) -> [Message] {
        guard !filter.isEmpty else { return messages }
        return messages.filter { $0.matches(filter: filter) }
    }

    private static func slice(_ rows: [Message], offset: Int, limit: Int) -> [Message] {
        guard offset >= 0, offset < rows.count, limit > 0 else { return [] }
        return Array(rows[offset..<min(rows.count, offset + limit)])
    }
}

extension Message {
    /// Whether the filter text appears (case-insensitively) in the app, title, subtitle or body.
    public func matches(filter: String) -> Bool {
        let needle = filter.lowercased()
        return [app, title, subtitle, body].contains { ($0 ?? "").lowercased().contains(needle) }
    }
}
