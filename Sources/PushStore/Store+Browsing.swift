import PushCore

extension Store {
    /// Up to `limit` listed messages newest first, skipping the first `offset`, whose app, title,
    /// subtitle or body contains `filter` (ASCII case-insensitively; all when empty) — the UI's
    /// window over the inbox. Unfiltered it walks the id index; a filter scans the table, which
    /// is what a person typing a search can afford. `total`, the unfiltered `count`, when the
    /// caller knows it, lets a page near the oldest end be read from that end.
    public func page(offset: Int, limit: Int, filter: String, total: Int? = nil) throws(SQLiteError) -> [Message] {
        guard limit > 0 else { return [] }
        if filter.isEmpty, let total, offset > limit {
            // OFFSET walks every skipped row: in the older half of a million messages, walk from
            // the oldest end instead and turn the page around (End took a walk over them all).
            guard offset < total else { return [] }
            let fromOldest = max(0, total - offset - limit)
            if fromOldest < offset {
                let statement = try database.prepare(
                    "SELECT \(Schema.messageColumns) FROM messages WHERE held = 0 ORDER BY id ASC LIMIT ?1 OFFSET ?2")
                try statement.bind(min(limit, total - offset), at: 1)
                try statement.bind(fromOldest, at: 2)
                return try statement.rows(Self.message(from:)).reversed()
            }
        }
        let statement = try database.prepare(
            "SELECT \(Schema.messageColumns) FROM messages WHERE held = 0"
                + (filter.isEmpty ? "" : " AND \(Self.filterCondition)")
                + " ORDER BY id DESC LIMIT ?2 OFFSET ?3")
        if !filter.isEmpty { try statement.bind(filter.lowercased(), at: 1) }
        try statement.bind(limit, at: 2)
        try statement.bind(max(0, offset), at: 3)
        return try statement.rows(Self.message(from:))
    }

    /// How many listed messages match `filter` (all when empty; that count is kept, not counted).
    public func count(filter: String) throws(SQLiteError) -> Int {
        guard !filter.isEmpty else { return try count() }
        let statement = try database.prepare("SELECT count(*) FROM messages WHERE held = 0 AND \(Self.filterCondition)")
        try statement.bind(filter.lowercased(), at: 1)
        return Int(try int64(statement) ?? 0)
    }

    /// The ids of listed messages matching `filter` (not empty) among `ids`, newest first. A walk
    /// of that id range of the primary key: the UI searches a large inbox a range at a time, so
    /// that one search never holds up the loop for long (see `FilterSearch` in `PushUIHost`).
    public func matchingIds(filter: String, in ids: Range<Int64>) throws(SQLiteError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let statement = try database.prepare(
            "SELECT id FROM messages WHERE id >= ?2 AND id < ?3 AND held = 0 AND \(Self.filterCondition) ORDER BY id DESC")
        try statement.bind(filter.lowercased(), at: 1)
        try statement.bind(ids.lowerBound, at: 2)
        try statement.bind(ids.upperBound, at: 3)
        return try statement.rows { row in row.int64(at: 0) }
    }

    /// The highest id stored (listed or not), 0 when empty. Ids only grow: a row above the
    /// highest id seen before is a new one.
    public func highestId() throws(SQLiteError) -> Int64 {
        try int64(database.prepare("SELECT max(id) FROM messages")) ?? 0
    }

    private static let filterCondition =
        "(instr(lower(app), ?1) OR instr(lower(coalesce(title, '')), ?1) OR instr(lower(coalesce(subtitle, '')), ?1)"
        + " OR instr(lower(coalesce(body, '')), ?1))"
}
