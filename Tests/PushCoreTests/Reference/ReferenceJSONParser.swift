import PushCore
import PushJSON

// The tree-building JSON parser as it was before the tape (commit a5f6131), kept unchanged but
// for its name so the tape parser can be checked against it: same values, same refusals, same
// messages and offsets (see DifferentialTests).

extension ReferenceJSONParser {
    /// The old `JSON.parse(_:)`.
    static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
        let result: Result<JSON, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = ReferenceJSONParser(buffer)
            return Result { () throws(JSONError) in try parser.parseDocument() }
        }
        return try result.get()
    }
}

/// A JSON parser over UTF-8 bytes: strict RFC 8259 but for trailing commas, without recursion.
///
/// Containers are tracked on an explicit stack, so nesting depth costs heap, not call stack;
/// `maxDepth` still bounds it because a `JSON` value is freed recursively.
struct ReferenceJSONParser {

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private let recordsMembers: Bool
    private var position = 0

    /// An open container: where its values and keys start in the flat stacks below.
    private struct Open {
        var isObject: Bool
        var firstValue: Int
        var firstKey: Int
    }
    private var open: [Open] = []
    /// Finished values of every open container, innermost last.
    private var values: [JSON] = []
    /// Keys of every open object's members, innermost last.
    private var keys: [String] = []
    /// Reused for strings that contain escapes.
    private var scratch: [UInt8] = []
    /// Where the value of the current top-level member began (when recording members).
    private var memberStart = 0
    private(set) var memberRanges: [(key: String, range: Range<Int>)] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth, recordsMembers: Bool = false) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.recordsMembers = recordsMembers
    }

    // MARK: - Structure

    /// Parses the whole input as one value, with only whitespace around it.
    mutating func parseDocument() throws(JSONError) -> JSON {
        var value = try parseValueStart()
        while true {
            guard let top = open.last else { break }
            if recordsMembers && open.count == 1 && top.isObject, let key = keys.last {
                memberRanges.append((key, memberStart..<position))
            }
            skipWhitespace()
            values.append(value)
            let closer: UInt8 = top.isObject ? ascii("}") : ascii("]")
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
                    value = close()
                    continue
                }
                if top.isObject { try parseKey() }
                value = try parseValueStart()
            } else if byte == closer {
                position += 1
                value = close()
            } else {
                let container = top.isObject ? "an object member" : "an array element"
                throw JSONError("expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(container), found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
            }
        }
        skipWhitespace()
        if position < bytes.count {
            throw JSONError("unexpected \(describeByte(at: position)) after the JSON value", offset: position, kind: kindOfByte(at: position))
        }
        return value
    }

    /// Pops the innermost container and builds its value.
    private mutating func close() -> JSON {
        guard let top = open.popLast() else { return .null }
        let elements = Array(values[top.firstValue...])
        values.removeSubrange(top.firstValue...)
        if top.isObject {
            let names = keys[top.firstKey...]
            let members = zip(names, elements).map { (key: $0, value: $1) }
            keys.removeSubrange(top.firstKey...)
            return .object(JSONObject(members))
        }
        return .array(elements)
    }

    /// Parses a scalar, or opens a container and goes on until a complete value is found.
    ///
    /// Empty containers complete at once; non-empty ones are left open for `parseDocument`.
    private mutating func parseValueStart() throws(JSONError) -> JSON {
        while true {
            skipWhitespace()
            if recordsMembers && open.count == 1 { memberStart = position }
            guard position < bytes.count else {
                throw JSONError("unexpected end of input; expected a value", offset: position)
            }
            let byte = bytes[position]
            switch byte {
            case ascii("{"), ascii("["):
                let isObject = byte == ascii("{")
                guard open.count < maxDepth else {
                    throw JSONError("nesting deeper than \(maxDepth) levels", offset: position, kind: .tooDeep)
                }
                position += 1
                skipWhitespace()
                let closer: UInt8 = isObject ? ascii("}") : ascii("]")
                if position < bytes.count && bytes[position] == closer {
                    position += 1
                    return isObject ? .object(JSONObject()) : .array([])
                }
                open.append(Open(isObject: isObject, firstValue: values.count, firstKey: keys.count))
                if isObject { try parseKey() }
            case ascii("\""):
                return .string(try parseString())
            case ascii("t"):
                try expectLiteral("true")
                return .bool(true)
            case ascii("f"):
                try expectLiteral("false")
                return .bool(false)
            case ascii("n"):
                try expectLiteral("null")
                return .null
            case ascii("-"), ascii("0")...ascii("9"):
                return .number(try parseNumber())
            default:
                throw JSONError("expected a value, found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
            }
        }
    }

    /// Parses `"key" :` of an object member and pushes the key.
    private mutating func parseKey() throws(JSONError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == ascii("\"") else {
            if position >= bytes.count { throw JSONError("unexpected end of input; expected a member name in quotes", offset: position) }
            throw JSONError("expected a member name in double quotes, found \(describeByte(at: position))", offset: position, kind: kindOfByte(at: position))
        }
        keys.append(try parseString())
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

    private mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = position
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
        return JSONNumber(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= ascii("0") && byte <= ascii("9") }

    // MARK: - Strings

    /// Parses a string starting at its opening quote; validates UTF-8 and escapes.
    private mutating func parseString() throws(JSONError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, so the text is a slice of the input.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ascii("\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            } else if byte == ascii("\\") {
                break
            } else if byte < 0x20 {
                throw controlCharacterError(byte)
            } else if byte < 0x80 {
                position += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        guard position < bytes.count else {
            throw JSONError("unterminated string (it starts at byte \(start - 1))", offset: position)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ascii("\"") {
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == ascii("\\") {
                try parseEscape()
            } else if byte < 0x20 {
                throw controlCharacterError(byte)
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                let sequenceStart = position
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<position]))
            }
        }
        throw JSONError("unterminated string (it starts at byte \(start - 1))", offset: position)
    }

    private func controlCharacterError(_ byte: UInt8) -> JSONError {
        JSONError("control character U+\(hex(byte, width: 4)) in a string; write it as an escape like \\n or \\u00\(hex(byte, width: 2))", offset: position)
    }

    /// Decodes one escape at `position` (the backslash) into `scratch`.
    private mutating func parseEscape() throws(JSONError) {
        let escapeStart = position
        position += 1
        guard position < bytes.count else {
            throw JSONError("unterminated escape in a string", offset: position)
        }
        let byte = bytes[position]
        position += 1
        switch byte {
        case ascii("\""): scratch.append(ascii("\""))
        case ascii("\\"): scratch.append(ascii("\\"))
        case ascii("/"): scratch.append(ascii("/"))
        case ascii("b"): scratch.append(0x08)
        case ascii("f"): scratch.append(0x0C)
        case ascii("n"): scratch.append(0x0A)
        case ascii("r"): scratch.append(0x0D)
        case ascii("t"): scratch.append(0x09)
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
            scratch.append(contentsOf: UTF8.encode(unicode) ?? UTF8.EncodedScalar())
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

    /// The length of the well-formed UTF-8 sequence starting at `index`, or nil.
    private func utf8SequenceLength(at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= lower && second <= upper else { return nil }
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
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

@inline(__always)
private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(truncatingIfNeeded: character.value) }

/// Upper-case hex of `value`, zero-padded to `width` digits.
private func hex(_ value: some BinaryInteger, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
