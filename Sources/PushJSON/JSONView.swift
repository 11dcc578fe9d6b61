/// One value of a `JSONTape`, read in place: a member lookup or a number costs no allocation,
/// and a string is made only when it is asked for.
///
/// It reads as `JSON` does: `view[key]` is the last member with that key (Swift string
/// equality), numbers keep their text, and `json` builds the value as a tree.
public struct JSONView: Sendable {
    let tape: JSONTape
    let index: Int

    init(tape: JSONTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    public typealias Kind = JSONKind

    private var entry: JSONTape.Entry { tape.entries[index] }

    public var kind: Kind {
        switch entry.kind {
        case .null: .null
        case .false, .true: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    public var isNull: Bool { entry.kind == .null }

    /// A short name of the value's kind for error messages ("a string", "an object", …).
    public var kindName: String { kind.name }

    /// The text of a string, nil for any other kind.
    public var string: String? {
        guard entry.kind == .string else { return nil }
        return tape.read { $0.string(at: index) }
    }

    /// A boolean's value, nil for any other kind.
    public var bool: Bool? {
        switch entry.kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// A number as written, nil for any other kind.
    public var number: JSONNumber? {
        guard entry.kind == .number else { return nil }
        return JSONNumber(text: tape.read { $0.numberText(at: index) })
    }

    /// The last member named `key` of an object; nil when there is none or this is not an object.
    public subscript(key: String) -> JSONView? {
        tape.member(named: key, of: index).map { JSONView(tape: tape, index: $0) }
    }

    /// Calls `body` with each member's name and the position of its value in the document
    /// (`value(at:)` reads it): a reader that keeps a few members keeps their positions.
    package func forEachMemberPosition(_ body: (JSONTape.MemberName, Int) -> Void) {
        tape.forEachMember(of: index, body)
    }

    /// The value at `position` of this value's document (a position `forEachMemberPosition` gave).
    package func value(at position: Int) -> JSONView { JSONView(tape: tape, index: position) }

    /// Calls `body` with each member's name and value, in order (nothing for other kinds).
    package func forEachMember(_ body: (JSONTape.MemberName, JSONView) -> Void) {
        tape.forEachMember(of: index) { name, value in body(name, JSONView(tape: tape, index: value)) }
    }

    /// An array's elements in order (empty for any other kind).
    public var elements: [JSONView] {
        let array = entry
        guard array.kind == .array else { return [] }
        var elements: [JSONView] = []
        var element = index + 1
        while element < array.next {
            elements.append(JSONView(tape: tape, index: element))
            element = tape.entries[element].next
        }
        return elements
    }

    /// The value as a tree.
    public var json: JSON { tape.read { $0.build(index) } }

    /// An object as a tree, but each member named `key` whose value is an object stands in it as
    /// an empty object: for a reader that takes that member in place (`self[key]`) and wants the
    /// tree of the small members around it. A push request's payload is most of its bytes, and
    /// building it as a tree only to read it again in place was a tenth of a socket push.
    /// Nil when this is not an object.
    public func object(readingInPlace key: StaticString) -> JSONObject? {
        guard entry.kind == .object else { return nil }
        var members: [(key: String, value: JSON)] = []
        tape.read { reader in
            tape.forEachMember(of: index) { name, value in
                let inPlace = name == key && tape.entries[value].kind == .object
                members.append((reader.string(at: value - 1), inPlace ? .object(JSONObject()) : reader.build(value)))
            }
        }
        return JSONObject(members)
    }

    /// How many bytes the value takes written as compact JSON (nothing between tokens), counted
    /// from what the parser recorded rather than by reading the bytes again: a number, a literal
    /// and a string without escapes count as written, a container its two brackets and one byte
    /// for each comma and colon. A string with escapes is measured by `escaped`, given its bytes
    /// as written, quotes included: what an escape stands for is the caller's rule.
    public func compactSize(escaped: (UnsafeBufferPointer<UInt8>) -> Int) -> Int {
        let entries = tape.entries
        let end = entries[index].next
        return tape.bytes.withUnsafeBufferPointer { bytes in
            var size = 0
            // Every value but this one follows a comma, a colon or its container's bracket: one
            // byte each, less the first value of each container that has any.
            var separators = end - index - 1
            for position in index..<end {
                let entry = entries[position]
                switch entry.kind {
                case .object, .array:
                    size += 2
                    if entry.next != position + 1 { separators -= 1 }
                case .string where entry.isUnescaped:
                    size += escaped(UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.end]))
                default:
                    size += entry.end - entry.start
                }
            }
            return size + separators
        }
    }

    /// Where the value's text is in the document's bytes (a string's quotes included).
    public var sourceRange: Range<Int> { entry.start..<entry.end }

    /// The value's text as written in the document (`sourceRange`'s bytes).
    public var sourceText: String { tape.sourceText(of: index) }
}
