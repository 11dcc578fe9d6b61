/// A JSON syntax error: what was wrong and the byte offset where it was found.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is, for callers that word their own refusal (e.g. "not UTF-8").
    public enum Kind: Sendable, Equatable {
        case syntax
        case invalidUTF8
        case tooDeep
    }

    public var message: String
    public var offset: Int
    public var kind: Kind
    public init(_ message: String, offset: Int, kind: Kind = .syntax) {
        self.message = message
        self.offset = offset
        self.kind = kind
    }
    public var description: String { "\(message) at byte \(offset)" }
}

extension JSON {
    /// Parses one JSON value from UTF-8 bytes (lenient as Apple's parser is: trailing commas).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONError) -> JSON {
        let result: Result<JSON, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, maxDepth: maxDepth)
            return Result { () throws(JSONError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONError) -> JSON {
        let result: Result<JSON, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, maxDepth: maxDepth)
            return Result { () throws(JSONError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONError) -> JSON {
        var parser = JSONParser(bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    public static func parse(_ text: String) throws(JSONError) -> JSON {
        try parse(Array(text.utf8))
    }

    /// The byte range of the value of the top-level member `key` (the last one, as lookup does),
    /// or nil when the document is not an object or has no such member.
    ///
    /// A `push` request keeps its `payload` text exactly as received; this finds it.
    public static func valueRange(ofMember key: String, in bytes: [UInt8]) throws(JSONError) -> Range<Int>? {
        try JSONTape.parse(bytes).root[key]?.sourceRange
    }
}

/// A JSON parser over UTF-8 bytes: strict RFC 8259 but for trailing commas, without recursion.
///
/// It validates the whole input and writes down where each value is (a `JSONTape`'s entries);
/// a `JSON` tree is built from those only when one is asked for, so a reader that wants a few
/// fields pays for those alone. Open containers are tracked in the entries themselves (each
/// keeps its parent's until it closes), so nesting depth costs no call stack; `maxDepth` still
/// bounds it because a `JSON` value is freed recursively.
public struct JSONParser {
    public static let defaultMaxDepth = 512
    /// How deep a reply or event line from the server may nest: it embeds a payload the server
    /// took at `defaultMaxDepth` inside its envelope (reply object, `messages` array, message
    /// object: 3 levels; an event: 2). Clients parse with this, so what the server accepts every
    /// command can list, show and export.
    public static let replyMaxDepth = defaultMaxDepth + 8

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0

    /// The entry of the innermost open container, or nil. An open container's entry keeps its
    /// parent's in `next` until it closes (`close`): the stack of open containers lives in
    /// the entries themselves, so a document allocates nothing for it.
    private var top: Int?
    /// How many containers are open.
    private var depth = 0
    /// Every value found so far, in document order (see `JSONTape.Entry`).
    private(set) var entries: [JSONTape.Entry] = []
    /// The decoded text of strings that contain escapes, back to back.
    private(set) var unescaped: [UInt8] = []

    public init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        // A push request has a few dozen values: one allocation for all of them.
        entries.reserveCapacity(min(64, bytes.count / 2 + 1))
    }

    /// Parses the whole input as one value, with only whitespace around it, and builds it.
    public mutating func parseDocument() throws(JSONError) -> JSON {
        try scanDocument()
        return JSONTape.Reader(bytes: bytes, entries: entries, unescaped: unescaped).build(0)
    }

    // MARK: - Structure

    /// Checks the whole input is one value with only whitespace around it, recording `entries`.
    mutating func scanDocument() throws(JSONError) {
        try scanValue()
        while let top {
            let isObject = entries[top].kind == .object
            skipWhitespace()
            let closer: UInt8 = isObject ? ascii("}") : ascii("]")
            guard position < bytes.count else {
                throw JSONError("unexpected end of input; expected ',' or '\(Character(Unicode.Scalar(closer)))'", offset: position)
            }
            let byte = bytes[position]
            if byte == ascii(",") {
                position += 1
                skipWhitespace()
                // Apple's parser takes a trailing comma before the closing bracket; so do we.
                if position < bytes.count && bytes[position] == closer {
                    position += 1
                    close()
                    continue
                }
                if isObject { try parseKey() }
                try scanValue()
            } else if byte == closer {
                position += 1
                close()
            } else {
                let container = isObject ? "an object member" : "an array element"
                throw JSONError("expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(container), found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
            }
        }
        skipWhitespace()
        if position < bytes.count {
            throw JSONError("unexpected \(describeByte(at: position)) after the JSON value", offset: position, kind: kindOfByte(at: position))
        }
    }

    /// Ends the innermost container at `position` (just past its closing bracket).
    private mutating func close() {
        guard let closing = top else { return }
        let parent = entries[closing].next
        entries[closing].end = position
        entries[closing].next = entries.count
        top = parent < 0 ? nil : parent
        depth -= 1
    }

    /// Records a scalar, or opens a container and goes on until a complete value is found.
    ///
    /// Empty containers complete at once; non-empty ones are left open for `scanDocument`.
    private mutating func scanValue() throws(JSONError) {
        while true {
            skipWhitespace()
            guard position < bytes.count else {
                throw JSONError("unexpected end of input; expected a value", offset: position)
            }
            let start = position
            let byte = bytes[position]
            switch byte {
            case ascii("{"), ascii("["):
                let isObject = byte == ascii("{")
                guard depth < maxDepth else {
                    throw JSONError("nesting deeper than \(maxDepth) levels", offset: position, kind: .tooDeep)
                }
                position += 1
                skipWhitespace()
                let closer: UInt8 = isObject ? ascii("}") : ascii("]")
                let kind: JSONTape.Entry.Kind = isObject ? .object : .array
                if position < bytes.count && bytes[position] == closer {
                    position += 1
                    record(kind, from: start)
                    return
                }
                entries.append(JSONTape.Entry(kind: kind, start: start, end: position, next: top ?? -1))
                top = entries.count - 1
                depth += 1
                if isObject { try parseKey() }
            case ascii("\""):
                try parseString()
                return
            case ascii("t"):
                try expectLiteral("true")
                record(.true, from: start)
                return
            case ascii("f"):
                try expectLiteral("false")
                record(.false, from: start)
                return
            case ascii("n"):
                try expectLiteral("null")
                record(.null, from: start)
                return
            case ascii("-"), ascii("0")...ascii("9"):
                try parseNumber()
                record(.number, from: start)
                return
            default:
                throw JSONError("expected a value, found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
            }
        }
    }

    /// Records a value that starts at `start` and ends at `position` (a container: so far).
    @inline(__always)
    private mutating func record(_ kind: JSONTape.Entry.Kind, from start: Int) {
        entries.append(JSONTape.Entry(kind: kind, start: start, end: position, next: entries.count + 1))
    }

    /// Parses `"key" :` of an object member and records the key.
    private mutating func parseKey() throws(JSONError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == ascii("\"") else {
            if position >= bytes.count { throw JSONError("unexpected end of input; expected a member name in quotes", offset: position) }
            throw JSONError("expected a member name in double quotes, found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
        }
        try parseString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == ascii(":") else {
            if position >= bytes.count { throw JSONError("unexpected end of input; expected ':' after a member name", offset: position) }
            throw JSONError("expected ':' after a member name, found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
        }
        position += 1
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for index in 0..<count {
            guard position < bytes.count, bytes[position] == text[index] else {
                if position >= bytes.count {
                    throw JSONError("unexpected end of input in literal '\(literal)'", offset: position)
                }
                throw JSONError("invalid literal at byte \(start); expected '\(literal)', found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
            }
            position += 1
        }
    }

    // MARK: - Numbers

    /// Steps over a number (its text is kept as written: the caller records where it is).
    private mutating func parseNumber() throws(JSONError) {
        if bytes[position] == ascii("-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw JSONError("expected a digit after '-'", offset: position)
        }
        if bytes[position] == ascii("0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw JSONError("a number cannot have a leading zero", offset: position)
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == ascii(".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONError("expected a digit after the decimal point", offset: position)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == ascii("e") || bytes[position] == ascii("E") {
            position += 1
            if position < bytes.count, bytes[position] == ascii("+") || bytes[position] == ascii("-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONError("expected a digit in the exponent", offset: position)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= ascii("0") && byte <= ascii("9") }

    // MARK: - Strings

    /// Parses a string starting at its opening quote and records it; validates UTF-8 and escapes.
    private mutating func parseString() throws(JSONError) {
        let quote = position
        let start = position + 1
        var isASCII = true
        // Fast path: no escapes, so the text is a slice of the input. (A local index and the
        // rare cases out of the loop: it runs once per byte of every string.)
        var index = start
        // Eight bytes at a time while none of them ends the fast path (most of a payload's text).
        index = Self.plainASCIIPrefixEnd(bytes, from: index)
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == ascii("\"") || byte == ascii("\\") || byte < 0x20 { break }
                index += 1
            } else if let length = utf8SequenceLength(at: index) {
                isASCII = false
                index += length
                // Back in ASCII text (a CJK title, then a long Latin body): words again.
                if index < bytes.count, bytes[index] < 0x80 { index = Self.plainASCIIPrefixEnd(bytes, from: index) }
            } else {
                break
            }
        }
        if index < bytes.count {
            let byte = bytes[index]
            if byte == ascii("\"") {
                position = index + 1
                entries.append(JSONTape.Entry(
                    kind: .string, start: quote, end: position, next: entries.count + 1,
                    text: start..<index, isPlainASCII: isASCII))
                return
            }
            if byte >= 0x80 {
                position = index
                try skipUTF8Sequence()
            }
            if byte < 0x20 {
                position = index
                throw controlCharacterError(byte)
            }
        }
        position = index
        guard position < bytes.count else {
            throw JSONError("unterminated string (it starts at byte \(start - 1))", offset: position)
        }
        let textStart = unescaped.count
        unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ascii("\"") {
                position += 1
                entries.append(JSONTape.Entry(
                    kind: .string, start: quote, end: position, next: entries.count + 1,
                    text: textStart..<unescaped.count, isUnescaped: true))
                return
            } else if byte == ascii("\\") {
                try parseEscape()
            } else if byte < 0x20 {
                throw controlCharacterError(byte)
            } else if byte < 0x80 {
                unescaped.append(byte)
                position += 1
            } else {
                let sequenceStart = position
                try skipUTF8Sequence()
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<position]))
            }
        }
        throw JSONError("unterminated string (it starts at byte \(start - 1))", offset: position)
    }

    private func controlCharacterError(_ byte: UInt8) -> JSONError {
        JSONError("control character U+\(hex(byte, width: 4)) in a string; write it as an escape like \\n or \\u00\(hex(byte, width: 2))", offset: position)
    }

    /// Decodes one escape at `position` (the backslash) into `unescaped`.
    private mutating func parseEscape() throws(JSONError) {
        let escapeStart = position
        position += 1
        guard position < bytes.count else {
            throw JSONError("unterminated escape in a string", offset: position)
        }
        let byte = bytes[position]
        position += 1
        switch byte {
        case ascii("\""): unescaped.append(ascii("\""))
        case ascii("\\"): unescaped.append(ascii("\\"))
        case ascii("/"): unescaped.append(ascii("/"))
        case ascii("b"): unescaped.append(0x08)
        case ascii("f"): unescaped.append(0x0C)
        case ascii("n"): unescaped.append(0x0A)
        case ascii("r"): unescaped.append(0x0D)
        case ascii("t"): unescaped.append(0x09)
        case ascii("u"):
            let first = try parseHex4()
            var scalar: UInt32 = first
            if (0xD800...0xDBFF).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == ascii("\\"), bytes[position + 1] == ascii("u") else {
                    throw JSONError("lone high surrogate \\u\(hex(first, width: 4)) (it must be followed by a \\u low surrogate)", offset: escapeStart)
                }
                position += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw JSONError("high surrogate \\u\(hex(first, width: 4)) followed by \\u\(hex(second, width: 4)), which is not a low surrogate", offset: position - 6)
                }
                scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw JSONError("lone low surrogate \\u\(hex(first, width: 4))", offset: escapeStart)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw JSONError("invalid code point \\u\(hex(scalar, width: 4))", offset: escapeStart)
            }
            unescaped.append(contentsOf: UTF8.encode(unicode) ?? UTF8.EncodedScalar())
        default:
            if kindOfByte(at: position - 1) == .invalidUTF8 {
                throw JSONError("invalid UTF-8 (byte 0x\(hex(byte, width: 2)))", offset: position - 1, kind: .invalidUTF8)
            }
            throw JSONError("invalid escape \(describeByte(at: position - 1)) in a string; accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", offset: escapeStart)
        }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else {
                throw JSONError("unexpected end of input in a \\u escape", offset: position)
            }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case ascii("0")...ascii("9"): digit = byte - ascii("0")
            case ascii("a")...ascii("f"): digit = byte - ascii("a") + 10
            case ascii("A")...ascii("F"): digit = byte - ascii("A") + 10
            default: throw JSONError("a \\u escape needs 4 hex digits, found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: - UTF-8

    /// Steps over one well-formed multi-byte UTF-8 sequence at `position`, or throws at its start.
    ///
    /// Rejects what RFC 3629 rejects: stray continuation bytes, overlong forms, encoded
    /// surrogates, code points above U+10FFFF and sequences cut short.
    @inline(__always)
    private mutating func skipUTF8Sequence() throws(JSONError) {
        if let length = utf8SequenceLength(at: position) {
            position += length
        } else {
            throw JSONError("invalid UTF-8 (byte 0x\(hex(bytes[position], width: 2)))", offset: position, kind: .invalidUTF8)
        }
    }

    /// The first index from `start` where an 8-byte word of `bytes` holds a byte that is not
    /// plain string text — a quote, a backslash, a control character or a non-ASCII byte — or
    /// fewer than 8 bytes are left; the byte-by-byte loop takes it from there.
    ///
    /// Past the first two words, sixteen bytes at a time as SSE2 compares them (`pcmpgtb`,
    /// `pcmpeqb`, `pmovmskb`): read as signed bytes, one `< 0x20` finds both the control
    /// characters and the non-ASCII bytes (≥ 0x80 are negative). A long text (a body, a padded
    /// payload) goes three times as fast as by words; a block that holds such a byte is left to
    /// the words.
    ///
    /// Per word (bit tricks on the eight bytes as one integer, each test true in a byte's top bit
    /// when that byte matches): `w & 0x80…` a byte ≥ 0x80; `(w - 0x20…) & ~w & 0x80…` a byte
    /// below 0x20 (for bytes < 0x80 the subtraction borrows exactly there); the same with
    /// `w ^ 0x22…` and `w ^ 0x5C…` minus `0x01…`, a byte equal to `"` or `\`. A borrow can only
    /// make a later byte look flagged, never hide one, so a clean word is clean.
    package static func plainASCIIPrefixEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        @inline(__always) func isPlainWord(at index: Int) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            return (word | ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & 0x8080_8080_8080_8080 == 0
        }
        var index = start
        // Most strings (a key, a title) end within two words: those by words, then blocks.
        for _ in 0..<2 {
            guard index + 8 <= bytes.count, isPlainWord(at: index) else { return index }
            index += 8
        }
        let space = SIMD16<Int8>(repeating: 0x20), quote = SIMD16<Int8>(repeating: 0x22), backslash = SIMD16<Int8>(repeating: 0x5C)
        while index + 16 <= bytes.count {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<Int8>.self)
            if any((block .< space) .| (block .== quote) .| (block .== backslash)) { break }
            index += 16
        }
        while index + 8 <= bytes.count, isPlainWord(at: index) { index += 8 }
        return index
    }

    /// The length of the well-formed UTF-8 sequence starting at `index`, or nil.
    @inline(__always)
    private func utf8SequenceLength(at index: Int) -> Int? {
        UTF8Sequence.length(in: bytes, at: index)
    }

    // MARK: - Describing bytes in messages

    private func kindOfByte(at index: Int) -> JSONError.Kind {
        guard index < bytes.count, bytes[index] >= 0x80 else { return .syntax }
        return utf8SequenceLength(at: index) == nil ? .invalidUTF8 : .syntax
    }

    private func describeByte(at index: Int) -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x80 {
            guard let length = utf8SequenceLength(at: index) else {
                return "invalid UTF-8 (byte 0x\(hex(byte, width: 2)))"
            }
            return "'\(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self))'"
        }
        return describe(byte)
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(byte, width: 2))"
    }
}

/// The byte of an ASCII character, for `case ascii("{"):`. Inlinable: the framer and decoder in
/// other modules switch on it per byte (a call each cost the framer 28 % more instructions).
@inlinable @inline(__always)
package func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(truncatingIfNeeded: character.value) }

/// Upper-case hex of `value`, zero-padded to `width` digits.
package func hex(_ value: some BinaryInteger, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
