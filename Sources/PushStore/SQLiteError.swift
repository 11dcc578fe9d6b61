import CSQLite

/// A failed SQLite call: its result code, SQLite's own message, and the SQL it was running.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …).
    public var code: Int32
    /// `sqlite3_errmsg` at the time of the failure (or our own words when SQLite has none).
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The error of the last call on `connection` (which returned `code`).
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        // sqlite3_errmsg is only meaningful right after the failing call; take it now.
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: code, message: text ?? String(cString: sqlite3_errstr(code)), sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
