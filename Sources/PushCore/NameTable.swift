/// Short strings a log repeats (an HTTP method, an app, a reason, an id's name), each kept
/// once and named by its number. Bounded: past `limit` names, or for a string longer than
/// `longest` bytes, `number(of:)` gives nil and the caller keeps the text itself.
struct NameTable: Sendable {
    static let limit = 4096
    static let longest = 128

    private(set) var names: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of `text`, numbering it now if there is room. A string is taken only for one
    /// with the very same bytes (Swift's `==` also takes canonically equivalent ones, and the log
    /// must give back the bytes it was given).
    mutating func number(of text: String) -> Int? {
        if let number = numbers[text] {
            return names[number].utf8.elementsEqual(text.utf8) ? number : nil
        }
        guard names.count < Self.limit, text.utf8.count <= Self.longest else { return nil }
        numbers[text] = names.count
        names.append(text)
        return names.count - 1
    }

    /// The name numbered `number` ("" for a number it never gave).
    func name(_ number: Int) -> String {
        names.indices.contains(number) ? names[number] : ""
    }

    mutating func removeAll() {
        names = []
        numbers = [:]
    }
}
