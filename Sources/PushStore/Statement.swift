import CSQLite
import PushJSON

/// A prepared SQLite statement, kept and reused: reset, bound, stepped, read.
///
/// Not Sendable: it belongs to its `Database`, which has one owner.
public final class Statement {
    /// The statement's text, carried into errors.
    public let sql: String
    private var handle: OpaquePointer?
    private let connection: OpaquePointer
    /// Texts staged for `runStaged()`: their bytes back to back, and each one's parameter and range.
    /// (Unchecked: touched once per text of an insert by the statement's one owner, never
    /// overlapping; the runtime check cost more than the append.)
    @exclusivity(unchecked) private var stagedBytes: [UInt8] = []
    @exclusivity(unchecked) private var staged: [(index: Int32, range: Range<Int>?)] = []

    /// Compiles `sql` (exactly one statement) on `connection`.
    init(sql: String, connection: OpaquePointer) throws(SQLiteError) {
        var handle: OpaquePointer?
        // PERSISTENT: these statements live as long as the connection, which SQLite plans memory for.
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, connection: connection, sql: sql)
            sqlite3_finalize(handle)
            throw error
        }
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in the SQL text", sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
    }

    deinit { finalize() }

    /// Releases SQLite's side of the statement; later use throws `SQLITE_MISUSE`. Safe to repeat.
    public func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    // MARK: - Binding (indexes start at 1, as in SQL's `?1`)

    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(try live(), index, value))
    }

    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value), at: index)
    }

    /// Booleans are stored as the integers 0 and 1.
    public func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(try live(), index, value))
    }

    /// Binds the text's UTF-8 bytes exactly (NUL bytes included); nil binds SQL `NULL`.
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        let handle = try live()
        guard var text = value else {
            try check(sqlite3_bind_null(handle, index))
            return
        }
        // withUTF8 hands over a native string's own bytes without copying; SQLite copies them
        // (TRANSIENT) before returning, so the pointer need not outlive the call.
        let code = text.withUTF8 { bytes -> Int32 in
            // A nil base address would bind NULL, not the empty string.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, pd_sqlite_transient())
            }
            return sqlite3_bind_text64(
                handle, index, base, sqlite3_uint64(bytes.count), pd_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try check(code)
    }

    /// Binds `value`, or NULL when there is none.
    public func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(try live(), index))
    }

    // MARK: - Texts bound in place

    /// Stages `value` (nil: SQL `NULL`) for parameter `index` of the next `runStaged()`.
    ///
    /// `bind(_:at:)` has SQLite copy each text into memory of its own and free it later: with
    /// a push's half a dozen texts that was a tenth of its cost. Staged texts are copied once,
    /// back to back, into a buffer the statement keeps and reuses.
    public func stage(_ value: String?, at index: Int32) {
        guard let value else {
            staged.append((index, nil))
            return
        }
        let start = stagedBytes.count
        stagedBytes.append(contentsOf: value.utf8)
        staged.append((index, start..<stagedBytes.count))
    }

    /// Stages `json`'s compact text for parameter `index`, written straight into the staged
    /// bytes (no `String` made of it on the way).
    public func stage(json: JSON, at index: Int32) {
        let start = stagedBytes.count
        json.write(into: &stagedBytes)
        staged.append((index, start..<stagedBytes.count))
    }

    /// Binds the staged texts without SQLite copying them (`SQLITE_STATIC`), runs the statement
    /// to the end and resets it, then forgets what was staged.
    ///
    /// The staged bytes stay where they are for the whole step, and the bindings are cleared
    /// before the buffer is lent out again: the statement never keeps a pointer into it.
    public func runStaged() throws(SQLiteError) {
        defer {
            staged.removeAll(keepingCapacity: true)
            stagedBytes.removeAll(keepingCapacity: true)
        }
        let handle = try live()
        let outcome: Result<Void, SQLiteError> = stagedBytes.withUnsafeBufferPointer { bytes in
            defer { sqlite3_clear_bindings(handle) }
            return Result { () throws(SQLiteError) in
                for (index, range) in staged {
                    guard let range else {
                        try check(sqlite3_bind_null(handle, index))
                        continue
                    }
                    // An empty text needs a non-null pointer (null binds NULL); SQLite copies nothing.
                    guard let base = bytes.baseAddress, !range.isEmpty else {
                        try check(sqlite3_bind_text(handle, index, "", 0, pd_sqlite_transient()))
                        continue
                    }
                    // A nil destructor is SQLITE_STATIC: SQLite reads the bytes where they are.
                    try check(sqlite3_bind_text64(
                        handle, index, base + range.lowerBound, sqlite3_uint64(range.count), nil, UInt8(SQLITE_UTF8)))
                }
                try run()
            }
        }
        try outcome.get()
    }

    // MARK: - Running

    /// Makes the statement ready to run again from the start (bindings are kept until rebound).
    public func reset() {
        // The return value repeats the last step's error, which was already thrown then.
        sqlite3_reset(handle)
    }

    /// Runs one step: true when a row is ready to read, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(try live())
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: code, connection: connection, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Steps to the end, for statements that return no rows, and resets.
    public func run() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Steps through every row, collecting what `read` makes of each, and resets.
    public func rows<Row>(_ read: (Statement) throws(SQLiteError) -> Row) throws(SQLiteError) -> [Row] {
        defer { sqlite3_reset(handle) }
        var rows: [Row] = []
        while try step() { rows.append(try read(self)) }
        return rows
    }

    // MARK: - Reading the current row (columns start at 0)

    public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(at column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func bool(at column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }
    public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column's text (its exact UTF-8 bytes), nil for SQL `NULL`.
    public func string(at column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        // SQLite's rule: ask for the text first, then its length in bytes.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    // MARK: - Private

    private func live() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the statement was finalized (database closed)", sql: sql)
        }
        return handle
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
    }
}
