import PushCore

extension Store {
    /// Up to `limit` listed messages newest first, skipping the first `offset`, whose app, title,
    /// subtitle or body contains `filter` (ASCII case-insensitively; all when empty) — the UI's
    /// window over the inbox. Unfiltered it walks the id index; a filter scans the table, which
    /// is what a person typing a search can afford.
    public func page(offset: Int, limit: Int, filter: String) throws(SQLiteError) -> [Message] {
        guard limit > 0 else { return [] }
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

    private static let filterCondition =
        "(instr(lower(app), ?1) OR instr(lower(coalesce(title, '')), ?1) OR instr(lower(coalesce(subtitle, '')), ?1)"
        + " OR instr(lower(coalesce(body, '')), ?1))"
}
