/// Why a store could not be opened, in words that say which file and what to do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite could not open the path (a missing folder, a directory, no permission).
    case cannotOpen(path: String, SQLiteError)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// An SQLite database, but another program's: pushdeck will not write into it.
    case foreignDatabase(path: String)
    /// Written by a newer pushdeck, whose schema this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The OS only lets us read the file.
    case readOnly(path: String)
    /// WAL could not be switched on (some network file systems cannot share memory for it).
    case journalMode(path: String, got: String)
    /// Any other SQLite failure while opening or migrating.
    case sqlite(path: String, SQLiteError)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let error):
            "cannot open the database \(path): \(error.message) (does its folder exist, and may we write there?)"
        case .notADatabase(let path):
            "\(path) is not an SQLite database; pass another path with --db, or move the file away"
        case .foreignDatabase(let path):
            "\(path) is an SQLite database of another program, not pushdeck's; pass another path with --db"
        case .newerSchema(let path, let found, let supported):
            "\(path) has schema version \(found), written by a newer pushdeck; this one reads up to version \(supported)"
        case .readOnly(let path):
            "\(path) is read-only; pushdeck needs to write its database (check the file's permissions)"
        case .journalMode(let path, let got):
            "\(path) cannot use write-ahead logging (journal mode stayed '\(got)'); put the database on a local disk"
        case .sqlite(let path, let error):
            "database \(path): \(error)"
        }
    }
}
