import CSQLite

/// One SQLite connection with a cache of prepared statements.
///
/// Not Sendable (it holds C pointers SQLite lets one thread use at a time): whoever opens it owns
/// it, and may hand it between its threads as long as only one uses it at a time (the server's
/// loop and its writer thread take turns). It is opened `NOMUTEX` because of that rule, so
/// SQLite's own locking would be pure cost.
public final class Database {
    /// The file path, or `:memory:`.
    public let path: String
    private var connection: OpaquePointer?
    /// Statements by their SQL text: each is compiled once and reused for the connection's life.
    private var statements: [String: Statement] = [:]

    /// Opens the database at `path`, creating it when missing unless `create` is false (a second
    /// connection to a file the writer made must never make a new, empty one in its place).
    public init(path: String, create: Bool = true) throws(SQLiteError) {
        Self.configureLibrary
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            // Even a failed open allocates a handle, which carries the message and must be closed.
            let error = SQLiteError(code: code, connection: connection)
            sqlite3_close_v2(connection)
            throw error
        }
        self.path = path
        self.connection = connection
    }

    deinit { close() }

    /// Library settings, made once before the first connection opens SQLite (later they are
    /// refused, harmlessly, with SQLITE_MISUSE). Memory statistics off: on, they take a mutex
    /// shared by every thread around each of SQLite's allocations and frees (a dozen a stored
    /// push), and nothing reads them.
    private static let configureLibrary: Void = { _ = pd_sqlite_disable_memory_statistics() }()

    /// Finalizes every statement and closes the connection. Safe to call more than once.
    public func close() {
        for statement in statements.values { statement.finalize() }
        statements = [:]
        // close_v2 never refuses: anything still open is cleaned up when it is finalized.
        sqlite3_close_v2(connection)
        connection = nil
    }

    public var isOpen: Bool { connection != nil }

    /// The prepared statement for `sql`, compiled on first use and cached. Pass one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(sql: sql, connection: try live(sql))
        statements[sql] = statement
        return statement
    }

    /// Runs SQL text that may hold several statements and returns no rows (schema scripts).
    public func execute(_ script: String) throws(SQLiteError) {
        let connection = try live(script)
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(connection, script, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            throw SQLiteError(code: code, message: text, sql: script)
        }
    }

    /// Runs one statement once, without caching it, and returns the first column of its first row.
    /// For pragmas and other one-off questions.
    @discardableResult
    public func scalar(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try Statement(sql: sql, connection: try live(sql))
        defer { statement.finalize() }
        return try statement.step() ? statement.string(at: 0) : nil
    }

    /// True between `BEGIN` and `COMMIT`/`ROLLBACK`.
    public var isInTransaction: Bool {
        guard let connection else { return false }
        return sqlite3_get_autocommit(connection) == 0
    }

    /// True when SQLite could only open the file for reading (the OS refused writing).
    public var isReadOnly: Bool {
        guard let connection else { return true }
        return sqlite3_db_readonly(connection, "main") == 1
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int {
        guard let connection else { return 0 }
        return Int(sqlite3_changes64(connection))
    }

    /// How much a checkpoint waits for, and what it leaves of the WAL.
    public enum CheckpointMode: Sendable {
        /// Copies what it can without waiting for the writer or readers; the WAL stays as long.
        case passive
        /// Waits for the writer, copies everything, and truncates the WAL to zero bytes.
        case truncate
    }

    /// Copies the WAL into the database file (see `CheckpointMode`): the frames the WAL held and
    /// how many of them are now in the database file. Returns quietly for databases without a
    /// WAL (`:memory:`; -1 for both).
    @discardableResult
    public func checkpoint(_ mode: CheckpointMode = .truncate) throws(SQLiteError) -> (frames: Int, copied: Int) {
        let connection = try live(nil)
        var frames: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(
            connection, nil, mode == .passive ? SQLITE_CHECKPOINT_PASSIVE : SQLITE_CHECKPOINT_TRUNCATE, &frames, &copied)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
        return (Int(frames), Int(copied))
    }

    /// The connection, for hooks the store installs; nil once closed.
    var handle: OpaquePointer? { connection }

    private func live(_ sql: String?) throws(SQLiteError) -> OpaquePointer {
        guard let connection else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the database \(path) is closed", sql: sql)
        }
        return connection
    }
}
