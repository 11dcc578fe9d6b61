// MARK: - Writing JSON text

extension JSON {
    /// The value as compact JSON text (what replies and events use).
    public var compactText: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value as indented JSON text (what the detail view shows): 2 spaces, `"key": value`.
    public var prettyText: String {
        var bytes: [UInt8] = []
        writePretty(into: &bytes, indent: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as compact, strict JSON: control characters escaped, and the scalars a
    /// terminal must not get raw (`TerminalText.mustEscape`: DEL, C1, bidi controls, line
    /// separators, invisible format characters) as `\uXXXX`, so `watch` and `list --json` are
    /// safe to print; `/` and other non-ASCII are written as they are.
    ///
    /// Recursive: values come from the parser (depth ≤ its limit) or from code.
    public func write(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): number.write(into: &bytes)
        case .string(let string): JSON.writeString(string, into: &bytes)
        case .array(let elements):
            bytes.append(ascii("["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(ascii(",")) }
                element.write(into: &bytes)
            }
            bytes.append(ascii("]"))
        case .object(let object):
            object.write(into: &bytes)
        }
    }

    private func writePretty(into bytes: inout [UInt8], indent: Int) {
        switch self {
        case .array(let elements) where !elements.isEmpty:
            bytes.append(ascii("["))
            for (index, element) in elements.enumerated() {
                bytes.append(contentsOf: index > 0 ? [ascii(","), 0x0A] : [0x0A])
                bytes.append(contentsOf: repeatElement(ascii(" "), count: indent + 2))
                element.writePretty(into: &bytes, indent: indent + 2)
            }
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(ascii(" "), count: indent))
            bytes.append(ascii("]"))
        case .object(let object) where !object.isEmpty:
            bytes.append(ascii("{"))
            for (index, member) in object.members.enumerated() {
                bytes.append(contentsOf: index > 0 ? [ascii(","), 0x0A] : [0x0A])
                bytes.append(contentsOf: repeatElement(ascii(" "), count: indent + 2))
                JSON.writeString(member.key, into: &bytes)
                bytes.append(contentsOf: [ascii(":"), ascii(" ")])
                member.value.writePretty(into: &bytes, indent: indent + 2)
            }
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(ascii(" "), count: indent))
            bytes.append(ascii("}"))
        default:
            write(into: &bytes)
        }
    }

    /// Appends `string` as a JSON string literal; runs of plain bytes are copied at once, and
    /// printable ASCII is passed over sixteen bytes at a time (most of what is written).
    static func writeString(_ string: String, into bytes: inout [UInt8]) {
        // Most strings are printable ASCII: a native string's bytes are scanned in place and
        // copied between their quotes. (Taking a mutable copy for `withUTF8` first was a retain
        // and a release of every string written.)
        let plain = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard printableASCIIEnd(utf8, from: 0) == utf8.count else { return false }
            bytes.append(ascii("\""))
            bytes.append(contentsOf: utf8)
            bytes.append(ascii("\""))
            return true
        }
        if plain != true { writeEscaping(string, into: &bytes) }
    }

    /// `writeString`'s way for a string with something to escape (or not stored contiguously).
    private static func writeEscaping(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(ascii("\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while true {
                index = printableASCIIEnd(utf8, from: index)
                guard index < utf8.count else { break }
                let byte = utf8[index]
                defer { index += 1 }
                if byte >= 0x7F {
                    // DEL or a scalar's lead byte (a String is valid UTF-8): the whole scalar is
                    // passed over, escaped when a terminal must not get it raw (C1, bidi, …).
                    let length = byte == 0x7F ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                    defer { index += length - 1 }
                    guard byte == 0x7F || TerminalText.mayStartEscape(byte) else { continue }
                    let scalar = length == 1 ? 0x7F : TerminalText.decode(utf8, at: index, length: length)
                    guard TerminalText.mustEscape(scalar) else { continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    runStart = index + length
                    TerminalText.appendUnicodeEscape(scalar, to: &bytes)
                    continue
                }
                guard byte < 0x20 || byte == ascii("\"") || byte == ascii("\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case ascii("\""): bytes.append(contentsOf: [ascii("\\"), ascii("\"")])
                case ascii("\\"): bytes.append(contentsOf: [ascii("\\"), ascii("\\")])
                case 0x0A: bytes.append(contentsOf: [ascii("\\"), ascii("n")])
                case 0x0D: bytes.append(contentsOf: [ascii("\\"), ascii("r")])
                case 0x09: bytes.append(contentsOf: [ascii("\\"), ascii("t")])
                case 0x08: bytes.append(contentsOf: [ascii("\\"), ascii("b")])
                case 0x0C: bytes.append(contentsOf: [ascii("\\"), ascii("f")])
                default: bytes.append(contentsOf: "\\u00\(hex(byte, width: 2))".utf8)
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(ascii("\""))
    }

    /// The first index from `start` of a byte that is not printable ASCII other than `"` and `\`
    /// (or the end): sixteen bytes at a time (read as signed bytes, one `< 0x20` finds control
    /// characters and non-ASCII bytes), then byte by byte. Most strings a store row or a reply
    /// writes are keys and values shorter than sixteen bytes: handed back to the caller's loop
    /// one byte at a time, their bytes cost four times as much.
    @inline(__always)
    private static func printableASCIIEnd(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return start }
        let space = SIMD16<Int8>(repeating: 0x20), quote = SIMD16<Int8>(repeating: 0x22)
        let backslash = SIMD16<Int8>(repeating: 0x5C), delete = SIMD16<Int8>(repeating: 0x7F)
        var index = start
        while index + 16 <= utf8.count {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<Int8>.self)
            if any((block .< space) .| (block .== quote) .| (block .== backslash) .| (block .== delete)) { break }
            index += 16
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { break }
            index += 1
        }
        return index
    }
}

extension JSON {
    /// Appends an object whose members are all strings as compact JSON, straight from its pairs:
    /// the text `JSON.object` of the same members writes, without building the tree first.
    /// (An array, not any sequence: a generic function of another module is not specialized
    /// for its caller, and unspecialized it cost more than the tree.)
    public static func writeObject(strings members: [(key: String, value: String)], into bytes: inout [UInt8]) {
        bytes.append(ascii("{"))
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(ascii(",")) }
            writeString(member.key, into: &bytes)
            bytes.append(ascii(":"))
            writeString(member.value, into: &bytes)
        }
        bytes.append(ascii("}"))
    }
}

extension JSONObject {
    /// Appends the object as compact JSON.
    public func write(into bytes: inout [UInt8]) {
        bytes.append(ascii("{"))
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(ascii(",")) }
            JSON.writeString(member.key, into: &bytes)
            bytes.append(ascii(":"))
            member.value.write(into: &bytes)
        }
        bytes.append(ascii("}"))
    }

    /// The object as compact JSON text.
    public var compactText: String { JSON.object(self).compactText }
}

extension JSONNumber {
    /// Appends the number's text; text that is not a JSON number (built by code) becomes `null`,
    /// so what is written is always valid JSON.
    public func write(into bytes: inout [UInt8]) {
        if isValidJSON {
            bytes.append(contentsOf: text.utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// True when `text` follows the JSON number grammar.
    public var isValidJSON: Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            func digits() -> Int {
                let start = index
                while index < bytes.count && bytes[index] >= ascii("0") && bytes[index] <= ascii("9") { index += 1 }
                return index - start
            }
            if index < bytes.count && bytes[index] == ascii("-") { index += 1 }
            let first = index < bytes.count ? bytes[index] : nil
            let whole = digits()
            guard whole > 0, !(first == ascii("0") && whole > 1) else { return false }
            if index < bytes.count && bytes[index] == ascii(".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < bytes.count && (bytes[index] == ascii("e") || bytes[index] == ascii("E")) {
                index += 1
                if index < bytes.count && (bytes[index] == ascii("+") || bytes[index] == ascii("-")) { index += 1 }
                guard digits() > 0 else { return false }
            }
            return index == bytes.count
        }
    }
}
