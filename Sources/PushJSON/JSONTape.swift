import Foundation

/// A parsed JSON document kept as a flat list of where each value is in its bytes.
///
/// The parser validates the whole document exactly as `JSON.parse` does (same refusals, same
/// messages) but builds no tree: a reader that wants a few fields of a push (`JSONView`) makes
/// strings for those alone, and a `JSON` tree is built only for the parts that ask for one.
/// A tree of small allocations built and freed per request was a third of a push's cost.
public final class JSONTape: Sendable {
    /// The document as received.
    public let bytes: [UInt8]
    let entries: [Entry]
    /// The decoded text of the strings that contain escapes.
    let unescaped: [UInt8]

    private init(bytes: [UInt8], entries: [Entry], unescaped: [UInt8]) {
        self.bytes = bytes
        self.entries = entries
        self.unescaped = unescaped
    }

    /// Parses `bytes` as one JSON value (lenient as Apple's parser is: trailing commas).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONError) -> JSONTape {
        let result: Result<JSONTape, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, maxDepth: maxDepth)
            return Result { () throws(JSONError) in
                try parser.scanDocument()
                return JSONTape(bytes: bytes, entries: parser.entries, unescaped: parser.unescaped)
            }
        }
        return try result.get()
    }

    /// The document's value.
    public var root: JSONView { JSONView(tape: self, index: 0) }

    /// The whole document as text, whitespace around the value included. It is well-formed
    /// UTF-8 (the parser took nothing else), so the `String` is made without checking it again.
    public var text: String {
        bytes.withUnsafeBufferPointer { Reader.text($0, isASCII: false) }
    }

    /// A value's text as written in the document (its `sourceRange`), made as `text` is.
    func sourceText(of index: Int) -> String {
        let entry = entries[index]
        return bytes.withUnsafeBufferPointer { Reader.text(UnsafeBufferPointer(rebasing: $0[entry.start..<entry.end]), isASCII: false) }
    }

    /// Calls `body` with a reader over the tape's storage.
    func read<Result>(_ body: (Reader) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            body(Reader(bytes: buffer, entries: entries, unescaped: unescaped))
        }
    }

    /// The entry of the last member named `key` of the object at `object`, or nil.
    ///
    /// Names are compared as Swift compares strings: plain ASCII on both sides byte by byte,
    /// anything else as `String`s, which are equal when canonically equivalent (the Kelvin sign
    /// `"\u{212A}"` equals "K"). A lookup makes no string and allocates nothing for ASCII names.
    func member(named key: String, of object: Int) -> Int? {
        let container = entries[object]
        guard container.kind == .object, container.next > object + 1 else { return nil }
        var needle = key
        return needle.withUTF8 { name in
            var keyIsASCII = true
            for byte in name where byte >= 0x80 { keyIsASCII = false }
            return entries.withUnsafeBufferPointer { entries in
                bytes.withUnsafeBufferPointer { bytes in
                    var found: Int?
                    var member = object + 1
                    while member < container.next {
                        let candidate = entries[member]
                        let value = member + 1
                        if candidate.isPlainASCII && keyIsASCII {
                            if candidate.text.count == name.count && Self.same(bytes, candidate.text, name) { found = value }
                        } else if Reader(bytes: bytes, entries: self.entries, unescaped: unescaped).string(at: member) == key {
                            found = value
                        }
                        member = entries[value].next
                    }
                    return found
                }
            }
        }
    }

    /// True when `bytes[range]` holds the bytes of `key` (of the same count).
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !range.isEmpty, let base = bytes.baseAddress, let keyBase = key.baseAddress else { return true }
        return memcmp(base + range.lowerBound, keyBase, range.count) == 0
    }

    /// Calls `body` with each member of the object at `object`, in order: its name and the
    /// entry of its value. Reading several members this way is one pass over the object, where
    /// a lookup per member would be one pass each.
    package func forEachMember(of object: Int, _ body: (MemberName, Int) -> Void) {
        let container = entries[object]
        guard container.kind == .object else { return }
        entries.withUnsafeBufferPointer { entries in
            bytes.withUnsafeBufferPointer { bytes in
                unescaped.withUnsafeBufferPointer { unescaped in
                    var member = object + 1
                    while member < container.next {
                        let value = member + 1
                        body(MemberName(bytes: bytes, unescaped: unescaped, entry: entries[member]), value)
                        member = entries[value].next
                    }
                }
            }
        }
    }

    /// An object member's name, compared with a key as Swift compares strings (see
    /// `member(named:of:)`). Only valid inside the `forEachMember` call that hands it out.
    package struct MemberName {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let unescaped: UnsafeBufferPointer<UInt8>
        fileprivate let entry: Entry

        @inline(__always)
        package static func == (name: MemberName, key: StaticString) -> Bool {
            let entry = name.entry
            guard entry.isPlainASCII && key.hasPointerRepresentation && key.isASCII else { return name.text == key.description }
            guard entry.text.count == key.utf8CodeUnitCount else { return false }
            guard entry.text.count > 0, let base = name.bytes.baseAddress else { return true }
            return memcmp(base + entry.text.lowerBound, key.utf8Start, entry.text.count) == 0
        }

        /// Where this name is in `keys` (compared as `==` compares), or nil: one call that
        /// checks the lengths first, where a chain of `==` was a call a key.
        package func position(in keys: [StaticString]) -> Int? {
            let entry = self.entry
            guard entry.isPlainASCII, let base = bytes.baseAddress else {
                return keys.firstIndex { self == $0 }
            }
            let count = entry.text.count
            for (position, key) in keys.enumerated() {
                if key.hasPointerRepresentation && key.isASCII {
                    guard key.utf8CodeUnitCount == count else { continue }
                    if count == 0 || memcmp(base + entry.text.lowerBound, key.utf8Start, count) == 0 { return position }
                } else if self == key {
                    return position
                }
            }
            return nil
        }

        /// The name's text (a new string: for a message that quotes the name).
        package var text: String {
            String(decoding: UnsafeBufferPointer(rebasing: (entry.isUnescaped ? unescaped : bytes)[entry.text]), as: UTF8.self)
        }
    }

    // MARK: - Entries

    /// One value of the document. Containers come before what they contain; an object's
    /// members are its key (a string entry) followed by its value.
    struct Entry: Sendable {
        enum Kind: UInt8, Sendable {
            case null, `false`, `true`, number, string, array, object
        }

        var kind: Kind
        /// A string whose text is plain ASCII taken as it is (no escapes): compared byte by byte.
        var isPlainASCII: Bool
        /// A string whose text is in `unescaped` rather than in the document.
        var isUnescaped: Bool
        /// Where the value's text starts and ends in the document (a string's quotes included).
        var start: Int
        var end: Int
        /// The entry after this value and everything inside it (while the parser has a
        /// container open: its parent's entry, or -1).
        var next: Int
        /// A string's text: in the document, or in `unescaped` when `isUnescaped`.
        var text: Range<Int>

        init(kind: Kind, start: Int, end: Int, next: Int, text: Range<Int> = 0..<0, isPlainASCII: Bool = false, isUnescaped: Bool = false) {
            self.kind = kind
            self.isPlainASCII = isPlainASCII
            self.isUnescaped = isUnescaped
            self.start = start
            self.end = end
            self.next = next
            self.text = text
        }

        var isContainer: Bool { kind == .object || kind == .array }
    }

    /// Reads entries against the document's bytes.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let entries: [Entry]
        let unescaped: [UInt8]

        /// The text of the string entry at `index`.
        ///
        /// Made without checking its UTF-8 again: the parser took a string only once every byte
        /// of it was a well-formed sequence, and wrote each escape's character as UTF-8, so the
        /// check `String(decoding:)` makes (a third of the time of making a CJK title) would
        /// find nothing.
        func string(at index: Int) -> String {
            let entry = entries[index]
            if entry.isUnescaped {
                return unescaped.withUnsafeBufferPointer { Self.text(UnsafeBufferPointer(rebasing: $0[entry.text]), isASCII: false) }
            }
            return Self.text(UnsafeBufferPointer(rebasing: bytes[entry.text]), isASCII: entry.isPlainASCII)
        }

        /// `utf8` as a String, unchecked: only for bytes the parser took.
        static func text(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
            String(copying: UTF8Span(unchecked: utf8.span, isKnownASCII: isASCII))
        }

        /// The number entry's text, as written (ASCII: the parser took only a number's characters).
        func numberText(at index: Int) -> String {
            let entry = entries[index]
            return Self.text(UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.end]), isASCII: true)
        }

        /// Builds the value at `root` as a tree, without recursion (depth is bounded by the parser).
        ///
        /// The values and keys waiting for their container are sized once for every entry under
        /// `root` (grown a value at a time, they were reallocated five times for a Live Activity's
        /// `aps`), and each finished container takes them by moving them, not copying them.
        func build(_ root: Int) -> JSON {
            var open: [(isObject: Bool, next: Int, firstValue: Int)] = []
            var values: [JSON] = []
            var keys: [String] = []
            if entries[root].isContainer {
                // Each key is an entry with its value's entry after it: at most half are keys.
                let count = entries[root].next - root
                values.reserveCapacity(count)
                keys.reserveCapacity(count / 2)
            }
            var index = root
            while true {
                let entry = entries[index]
                var value: JSON
                switch entry.kind {
                case .object, .array:
                    let isObject = entry.kind == .object
                    guard entry.next > index + 1 else {
                        value = isObject ? .object(JSONObject()) : .array([])
                        break
                    }
                    open.append((isObject, entry.next, values.count))
                    index += 1
                    if isObject {
                        keys.append(string(at: index))
                        index += 1
                    }
                    continue
                case .string: value = .string(string(at: index))
                case .number: value = .number(JSONNumber(text: numberText(at: index)))
                case .true: value = .bool(true)
                case .false: value = .bool(false)
                case .null: value = .null
                }
                index = entry.next
                // Hand the value to its container; close every container it completes.
                while let top = open.last {
                    values.append(value)
                    if index < top.next {
                        if top.isObject {
                            keys.append(string(at: index))
                            index += 1
                        }
                        break
                    }
                    open.removeLast()
                    // Taken from the end, each value (and key) moves once; then put in order.
                    let count = values.count - top.firstValue
                    if top.isObject {
                        var members: [(key: String, value: JSON)] = []
                        members.reserveCapacity(count)
                        while values.count > top.firstValue { members.append((key: keys.removeLast(), value: values.removeLast())) }
                        members.reverse()
                        value = .object(JSONObject(members))
                    } else {
                        var elements: [JSON] = []
                        elements.reserveCapacity(count)
                        while values.count > top.firstValue { elements.append(values.removeLast()) }
                        elements.reverse()
                        value = .array(elements)
                    }
                }
                if open.isEmpty { return value }
            }
        }
    }
}
