/// Short strings a log repeats (an HTTP method, an app, a reason, an id's name), each kept
/// once and named by its number. Bounded: past `limit` names, or for a string longer than
/// `longest` bytes, `number(of:)` gives nil and the caller keeps the text itself.
struct NameTable: Sendable {
    static let limit = 4096
    static let longest = 128

    private(set) var names: [String] = []
    private var numbers: [String: Int] = [:]
    /// The names last looked up, with their bytes: a log repeats the same few names record
    /// after record, and comparing a few short names' bytes costs less than hashing one.
    private var recent: [(number: Int, bytes: [UInt8])] = []
    private var nextRecent = 0
    static let recentCount = 8

    /// The number of `text`, numbering it now if there is room. A string is taken only for one
    /// with the very same bytes (Swift's `==` also takes canonically equivalent ones, and the log
    /// must give back the bytes it was given).
    mutating func number(of text: String) -> Int? {
        let count = text.utf8.count
        let seen = text.utf8.withContiguousStorageIfAvailable { utf8 in
            recent.first { $0.bytes.count == count && $0.bytes.elementsEqual(utf8) }?.number
        }
        if let seen, let number = seen { return number }
        if let number = numbers[text] {
            guard names[number].utf8.elementsEqual(text.utf8) else { return nil }
            remember(number)
            return number
        }
        guard names.count < Self.limit, count <= Self.longest else { return nil }
        numbers[text] = names.count
        names.append(text)
        remember(names.count - 1)
        return names.count - 1
    }

    private mutating func remember(_ number: Int) {
        let entry = (number: number, bytes: Array(names[number].utf8))
        if recent.count < Self.recentCount {
            recent.append(entry)
        } else {
            recent[nextRecent] = entry
            nextRecent = (nextRecent + 1) % Self.recentCount
        }
    }

    /// The name numbered `number` ("" for a number it never gave).
    func name(_ number: Int) -> String {
        names.indices.contains(number) ? names[number] : ""
    }

    mutating func removeAll() {
        names = []
        numbers = [:]
        recent = []
        nextRecent = 0
    }
}
