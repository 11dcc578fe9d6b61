import PushCore

/// The list grouped by `aps.thread-id`: one row per thread of an app — its newest
/// listed message — and every listed message without a thread, newest first.
///
/// Whether a threaded message heads its thread is one probe of `messages_thread` (is there a
/// newer listed message of the same app and thread?), so a page costs what the flat list's does
/// plus a probe per threaded row.
extension Store {
    /// Up to `limit` rows of the grouped list, newest first, skipping the first `offset`.
    /// `total`, the grouped list's length when the caller knows it, lets a page in the older half
    /// be read from the oldest end (as `page(offset:limit:filter:total:)` does).
    public func groupedPage(offset: Int, limit: Int, total: Int? = nil) throws(SQLiteError) -> [Message] {
        guard limit > 0, offset >= 0 else { return [] }
        if let total, offset > limit {
            guard offset < total else { return [] }
            let fromOldest = max(0, total - offset - limit)
            if fromOldest < offset {
                let statement = try database.prepare(
                    "SELECT \(Schema.messageColumns) FROM messages WHERE held = 0 AND \(Self.headsThread)"
                        + " ORDER BY id ASC LIMIT ?1 OFFSET ?2")
                try statement.bind(min(limit, total - offset), at: 1)
                try statement.bind(fromOldest, at: 2)
                return try statement.rows(Self.message(from:)).reversed()
            }
        }
        let statement = try database.prepare(
            "SELECT \(Schema.messageColumns) FROM messages WHERE held = 0 AND \(Self.headsThread)"
                + " ORDER BY id DESC LIMIT ?1 OFFSET ?2")
        try statement.bind(limit, at: 1)
        try statement.bind(offset, at: 2)
        return try statement.rows(Self.message(from:))
    }

    /// How many listed messages each (app, thread) has: a walk of `messages_thread` only.
    public func threadSizes() throws(SQLiteError) -> [ThreadKey: Int] {
        let statement = try database.prepare(
            "SELECT app, thread_id, count(*) FROM messages INDEXED BY messages_thread"
                + " WHERE thread_id IS NOT NULL AND held = 0 GROUP BY app, thread_id")
        var sizes: [ThreadKey: Int] = [:]
        for (key, size) in try statement.rows({ row in
            (ThreadKey(app: row.string(at: 0) ?? "", thread: row.string(at: 1) ?? ""), Int(row.int64(at: 2)))
        }) {
            sizes[key] = size
        }
        return sizes
    }

    /// The (app, thread) of each listed threaded message among `ids` (new arrivals).
    public func threads(in ids: Range<Int64>) throws(SQLiteError) -> [ThreadKey] {
        guard !ids.isEmpty else { return [] }
        let statement = try database.prepare(
            "SELECT app, thread_id FROM messages WHERE id >= ?1 AND id < ?2 AND held = 0 AND thread_id IS NOT NULL")
        try statement.bind(ids.lowerBound, at: 1)
        try statement.bind(ids.upperBound, at: 2)
        return try statement.rows { row in ThreadKey(app: row.string(at: 0) ?? "", thread: row.string(at: 1) ?? "") }
    }

    /// Where the thread's row is in the grouped list (the rows newer than its newest message),
    /// or nil when it has no listed message.
    public func groupedPosition(of thread: ThreadKey) throws(SQLiteError) -> Int? {
        let newest = try database.prepare(
            "SELECT max(id) FROM messages INDEXED BY messages_thread WHERE app = ?1 AND thread_id = ?2 AND held = 0")
        try newest.bind(thread.app, at: 1)
        try newest.bind(thread.thread, at: 2)
        guard let head = try int64(newest) else { return nil }
        let statement = try database.prepare(
            "SELECT count(*) FROM messages WHERE id > ?1 AND held = 0 AND \(Self.headsThread)")
        try statement.bind(head, at: 1)
        return Int(try int64(statement) ?? 0)
    }

    /// Up to `limit` listed messages of a thread, skipping `offset`: the highest
    /// `relevance-score` first (none counts as 0), then the newest.
    public func threadMembers(_ thread: ThreadKey, offset: Int, limit: Int) throws(SQLiteError) -> [Message] {
        guard limit > 0, offset >= 0 else { return [] }
        let statement = try database.prepare(
            "SELECT \(Schema.messageColumns) FROM messages INDEXED BY messages_thread"
                + " WHERE app = ?1 AND thread_id = ?2 AND held = 0"
                + " ORDER BY coalesce(relevance, 0) DESC, id DESC LIMIT ?3 OFFSET ?4")
        try statement.bind(thread.app, at: 1)
        try statement.bind(thread.thread, at: 2)
        try statement.bind(limit, at: 3)
        try statement.bind(offset, at: 4)
        return try statement.rows(Self.message(from:))
    }

    /// A listed row of the grouped list: no thread, or no newer listed message in its thread.
    private static let headsThread =
        "(thread_id IS NULL OR NOT EXISTS (SELECT 1 FROM messages AS newer INDEXED BY messages_thread"
        + " WHERE newer.app = messages.app AND newer.thread_id = messages.thread_id AND newer.held = 0"
        + " AND newer.id > messages.id))"
}
