import PushStore
import Testing
import TestSupport

/// The two real sides of the store boundary: an SQLite file and an SQLite `:memory:` database.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case file
    case memory

    func open(in folder: TempFolder) throws -> Store {
        switch self {
        case .file: try Store(path: folder.file("inbox.sqlite"))
        case .memory: try Store.inMemory()
        }
    }

    var testDescription: String { rawValue }
}
