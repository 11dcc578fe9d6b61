import PushJSON

// The differential tests' own JSON reader, written apart from `JSONParser` so that neither can
// hide a slip of the other. It follows RFC 8259's grammar with the one relaxation the product
// allows (a trailing comma before `]` or `}`, which Apple's parser takes), and it is built
// another way on purpose, simple and slow:
//
// - the bytes are first turned into Unicode scalars by the standard library's UTF-8 decoder (the
//   product checks UTF-8 with a table of its own), each scalar keeping its byte offset;
// - the scalars are read by plain recursive descent, one function per grammar rule, into a
//   `ReferenceValue` tree; a number is read by a small state machine over RFC 8259's number rule;
// - only the finished tree is turned into a `JSON` for comparing.
//
// What it must share with the product is the outcome: the same value, or a refusal with the same
// wording, byte offset and kind — the refusals are what a person reads, so the differential tests
// hold both to one wording.

/// A parsed JSON value as the reference reader builds it.
indirect enum ReferenceValue: Equatable {
    case null
    case bool(Bool)
    /// A number as written in the source.
    case number(String)
    case string(String)
    case array([ReferenceValue])
    /// Members in source order, duplicates kept.
    case object([ReferenceMember])

    /// The same value as the product's `JSON` type, for comparing.
    var json: JSON {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(JSONNumber(text: text))
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(\.json))
        case .object(let members): return .object(JSONObject(members.map { (key: $0.name, value: $0.value.json) }))
        }
    }

    /// The value of the last member called `name` (JavaScript's rule for duplicates), when this is
    /// an object that has one. Names compare as Swift strings do, by canonical equivalence.
    func member(_ name: String) -> ReferenceValue? {
        guard case .object(let members) = self else { return nil }
        var found: ReferenceValue?
        for candidate in members where candidate.name == name { found = candidate.value }
        return found
    }
}

struct ReferenceMember: Equatable {
    var name: String
    var value: ReferenceValue
}

struct ReferenceJSONParser {
    /// How many containers may nest (the product's default limit).
    static let depthLimit = 512

    /// Parses `bytes` as one JSON document.
    static func parse(_ bytes: [UInt8], maxDepth: Int = depthLimit) throws(JSONError) -> JSON {
        try tree(bytes, maxDepth: maxDepth).json
    }

    /// Parses `bytes` as one JSON document into the reference tree.
    static func tree(_ bytes: [UInt8], maxDepth: Int = depthLimit) throws(JSONError) -> ReferenceValue {
        var reader = ReferenceJSONParser(bytes, maxDepth: maxDepth)
        let root = try reader.value(enclosedBy: 0)
        reader.skipBlanks()
        if reader.cursor < reader.input.count {
            throw reader.refusal("unexpected \(reader.shownHere) after the JSON value", kind: reader.kindHere)
        }
        return root
    }

    // MARK: - The input as scalars

    /// One step of the input: a scalar, or a byte where no well-formed UTF-8 sequence begins.
    private enum Symbol: Equatable {
        case scalar(Unicode.Scalar)
        case malformed(UInt8)
    }

    private let input: [(symbol: Symbol, at: Int)]
    private let byteCount: Int
    private let depthAllowed: Int
    private var cursor = 0

    private init(_ bytes: [UInt8], maxDepth: Int) {
        var symbols: [(symbol: Symbol, at: Int)] = []
        var decoder = Unicode.UTF8.ForwardParser()
        var source = bytes.makeIterator()
        var offset = 0
        decoding: while true {
            switch decoder.parseScalar(from: &source) {
            case .valid(let encoded):
                symbols.append((.scalar(Unicode.UTF8.decode(encoded)), offset))
                offset += encoded.count
            case .error(let length):
                symbols.append((.malformed(bytes[offset]), offset))
                offset += length
            case .emptyInput:
                break decoding
            }
        }
        input = symbols
        byteCount = bytes.count
        depthAllowed = maxDepth
    }

    /// The scalar under the cursor; nil at the end or on a malformed byte.
    private var scalar: Unicode.Scalar? {
        guard cursor < input.count, case .scalar(let found) = input[cursor].symbol else { return nil }
        return found
    }

    private func scalar(after steps: Int) -> Unicode.Scalar? {
        guard cursor + steps < input.count, case .scalar(let found) = input[cursor + steps].symbol else { return nil }
        return found
    }

    private var atEnd: Bool { cursor >= input.count }

    /// The byte offset of the cursor (the input's length at the end).
    private var offset: Int { atEnd ? byteCount : input[cursor].at }

    private func refusal(_ message: String, kind: JSONError.Kind = .syntax) -> JSONError {
        JSONError(message, offset: offset, kind: kind)
    }

    /// What is under the cursor, as a refusal names it.
    private var shownHere: String {
        guard !atEnd else { return "end of input" }
        switch input[cursor].symbol {
        case .malformed(let byte): return "invalid UTF-8 (byte 0x\(Self.twoHexDigits(byte)))"
        case .scalar(let found): return Self.shown(found)
        }
    }

    /// A refusal at the cursor is about bad UTF-8 when a malformed byte is there.
    private var kindHere: JSONError.Kind {
        guard !atEnd, case .malformed = input[cursor].symbol else { return .syntax }
        return .invalidUTF8
    }

    private static func shown(_ scalar: Unicode.Scalar) -> String {
        let visibleASCII = scalar.value > 0x20 && scalar.value < 0x7F
        if visibleASCII || scalar.value >= 0x80 { return "'\(Character(scalar))'" }
        return "byte 0x\(twoHexDigits(UInt8(scalar.value)))"
    }

    private static func twoHexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte / 16)], digits[Int(byte % 16)]])
    }

    private mutating func skipBlanks() {
        while let here = scalar, here == " " || here == "\t" || here == "\n" || here == "\r" { cursor += 1 }
    }

    // MARK: - Grammar rules

    /// value = object / array / string / number / true / false / null (with blanks before it).
    /// `depth` is how many containers enclose it.
    private mutating func value(enclosedBy depth: Int) throws(JSONError) -> ReferenceValue {
        skipBlanks()
        if atEnd { throw refusal("unexpected end of input; expected a value") }
        switch scalar {
        case "{"?, "["?:
            if depth >= depthAllowed { throw refusal("nesting deeper than \(depthAllowed) levels", kind: .tooDeep) }
            if scalar == "{" { return try object(depth: depth + 1) }
            return try array(depth: depth + 1)
        case "\""?:
            return .string(try string())
        case "t"?:
            try word("true")
            return .bool(true)
        case "f"?:
            try word("false")
            return .bool(false)
        case "n"?:
            try word("null")
            return .null
        case let here? where here == "-" || ("0"..."9").contains(here):
            return .number(try number())
        default:
            throw refusal("expected a value, found \(shownHere)", kind: kindHere)
        }
    }

    /// object = "{" [ member *( "," member ) [","] ] "}"
    private mutating func object(depth: Int) throws(JSONError) -> ReferenceValue {
        cursor += 1
        var members: [ReferenceMember] = []
        skipBlanks()
        if scalar == "}" {
            cursor += 1
            return .object(members)
        }
        while true {
            let name = try memberName()
            members.append(ReferenceMember(name: name, value: try value(enclosedBy: depth)))
            if try separatorEnds("}", after: "an object member") { return .object(members) }
        }
    }

    /// array = "[" [ value *( "," value ) [","] ] "]"
    private mutating func array(depth: Int) throws(JSONError) -> ReferenceValue {
        cursor += 1
        var items: [ReferenceValue] = []
        skipBlanks()
        if scalar == "]" {
            cursor += 1
            return .array(items)
        }
        while true {
            items.append(try value(enclosedBy: depth))
            if try separatorEnds("]", after: "an array element") { return .array(items) }
        }
    }

    /// After a member or element: a comma (true when a closing bracket follows it) or the bracket.
    private mutating func separatorEnds(_ closer: Unicode.Scalar, after what: String) throws(JSONError) -> Bool {
        skipBlanks()
        if atEnd { throw refusal("unexpected end of input; expected ',' or '\(closer)'") }
        if scalar == closer {
            cursor += 1
            return true
        }
        guard scalar == "," else {
            throw refusal("expected ',' or '\(closer)' after \(what), found \(shownHere)", kind: kindHere)
        }
        cursor += 1
        skipBlanks()
        // The relaxation: a comma right before the closing bracket.
        if scalar == closer {
            cursor += 1
            return true
        }
        return false
    }

    /// member name = string name-separator
    private mutating func memberName() throws(JSONError) -> String {
        skipBlanks()
        if atEnd { throw refusal("unexpected end of input; expected a member name in quotes") }
        guard scalar == "\"" else {
            throw refusal("expected a member name in double quotes, found \(shownHere)", kind: kindHere)
        }
        let name = try string()
        skipBlanks()
        if atEnd { throw refusal("unexpected end of input; expected ':' after a member name") }
        guard scalar == ":" else {
            throw refusal("expected ':' after a member name, found \(shownHere)", kind: kindHere)
        }
        cursor += 1
        return name
    }

    /// true / false / null, letter by letter.
    private mutating func word(_ spelling: String) throws(JSONError) {
        let start = offset
        for letter in spelling.unicodeScalars {
            if atEnd { throw refusal("unexpected end of input in literal '\(spelling)'") }
            guard scalar == letter else {
                throw refusal("invalid literal at byte \(start); expected '\(spelling)', found \(shownHere)", kind: kindHere)
            }
            cursor += 1
        }
    }

    // MARK: Numbers

    /// Where the number rule `[ "-" ] int [ frac ] [ exp ]` stands after each scalar.
    private enum NumberState {
        case begun, signed, zero, integer, point, fraction, exponentMark, exponentSign, exponent

        /// Whether a number may end here.
        var isComplete: Bool {
            switch self {
            case .zero, .integer, .fraction, .exponent: true
            default: false
            }
        }

        /// The state after `scalar`, or nil when the scalar does not continue the number.
        func next(_ scalar: Unicode.Scalar?) -> NumberState? {
            guard let scalar else { return nil }
            let digit = ("0"..."9").contains(scalar)
            switch (self, scalar) {
            case (.begun, "-"): return .signed
            case (.begun, "0"), (.signed, "0"): return .zero
            case (.zero, "."), (.integer, "."): return .point
            case (.zero, "e"), (.zero, "E"), (.integer, "e"), (.integer, "E"), (.fraction, "e"), (.fraction, "E"):
                return .exponentMark
            case (.exponentMark, "+"), (.exponentMark, "-"): return .exponentSign
            default: break
            }
            guard digit else { return nil }
            switch self {
            case .begun, .signed, .integer: return .integer
            case .point, .fraction: return .fraction
            case .exponentMark, .exponentSign, .exponent: return .exponent
            case .zero: return nil
            }
        }

        /// Why the number cannot stop in this state.
        var complaint: String {
            switch self {
            case .point: "expected a digit after the decimal point"
            case .exponentMark, .exponentSign: "expected a digit in the exponent"
            default: "expected a digit after '-'"
            }
        }
    }

    /// A number, kept as its source text.
    private mutating func number() throws(JSONError) -> String {
        var state = NumberState.begun
        var text = ""
        while let next = state.next(scalar) {
            text.unicodeScalars.append(scalar ?? "?")
            cursor += 1
            state = next
        }
        if state == .zero, let here = scalar, ("0"..."9").contains(here) {
            throw refusal("a number cannot have a leading zero")
        }
        guard state.isComplete else { throw refusal(state.complaint) }
        return text
    }

    // MARK: Strings

    /// string = quotation-mark *char quotation-mark
    private mutating func string() throws(JSONError) -> String {
        let opening = offset
        cursor += 1
        var text = String.UnicodeScalarView()
        while true {
            guard !atEnd else { throw refusal("unterminated string (it starts at byte \(opening))") }
            guard let here = scalar else { throw refusal(shownHere, kind: .invalidUTF8) }
            switch here {
            case "\"":
                cursor += 1
                return String(text)
            case "\\":
                text.append(try escaped())
            case _ where here.value < 0x20:
                let code = Self.twoHexDigits(UInt8(here.value))
                throw refusal("control character U+00\(code) in a string; write it as an escape like \\n or \\u00\(code)")
            default:
                text.append(here)
                cursor += 1
            }
        }
    }

    /// escape = "\" ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4HEXDIG )
    private mutating func escaped() throws(JSONError) -> Unicode.Scalar {
        let backslash = offset
        cursor += 1
        if atEnd { throw refusal("unterminated escape in a string") }
        guard let letter = scalar else { throw refusal(shownHere, kind: .invalidUTF8) }
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "\"": "\"", "\\": "\\", "/": "/", "b": "\u{08}", "f": "\u{0C}", "n": "\n", "r": "\r", "t": "\t",
        ]
        if let meaning = simple[letter] {
            cursor += 1
            return meaning
        }
        guard letter == "u" else {
            throw JSONError(
                "invalid escape \(Self.shown(letter)) in a string; accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                offset: backslash)
        }
        cursor += 1
        let first = try fourHexDigits()
        let name = { (unit: UInt32) in "\\u" + Self.twoHexDigits(UInt8(unit >> 8)) + Self.twoHexDigits(UInt8(unit & 0xFF)) }
        switch first {
        case 0xDC00...0xDFFF:
            throw JSONError("lone low surrogate \(name(first))", offset: backslash)
        case 0xD800...0xDBFF:
            // UTF-16's pair: a high surrogate is only valid with a low one escaped right after it.
            guard scalar == "\\", scalar(after: 1) == "u" else {
                throw JSONError("lone high surrogate \(name(first)) (it must be followed by a \\u low surrogate)", offset: backslash)
            }
            let secondBackslash = offset
            cursor += 2
            let second = try fourHexDigits()
            guard case 0xDC00...0xDFFF = second else {
                throw JSONError("high surrogate \(name(first)) followed by \(name(second)), which is not a low surrogate", offset: secondBackslash)
            }
            return Unicode.Scalar(0x10000 + (first - 0xD800) * 0x400 + (second - 0xDC00)) ?? "\u{FFFD}"
        default:
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }
    }

    private mutating func fourHexDigits() throws(JSONError) -> UInt32 {
        var total: UInt32 = 0
        for _ in 1...4 {
            if atEnd { throw refusal("unexpected end of input in a \\u escape") }
            guard let here = scalar, let digit = here.properties.isASCIIHexDigit ? UInt32(String(here), radix: 16) : nil else {
                throw refusal("a \\u escape needs 4 hex digits, found \(shownHere)", kind: kindHere)
            }
            total = total * 16 + digit
            cursor += 1
        }
        return total
    }
}
