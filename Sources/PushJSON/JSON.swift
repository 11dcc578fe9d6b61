/// A JSON value, as pushdeck reads and writes it.
///
/// Objects keep their members in source order (a payload shown back to a person reads as they
/// wrote it), numbers keep the text they were written with (so `1` stays `1` and a 20-digit id is
/// not rounded), and booleans stay booleans — none of which `JSONSerialization` guarantees on Linux.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// A JSON number kept as its source text, with the integer and floating-point readings derived.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    /// The number as written, e.g. `"12"`, `"-0.5"`, `"1e3"`.
    public let text: String

    public init(text: String) { self.text = text }
    public init(_ value: Int) { self.text = String(value) }
    public init(_ value: Int64) { self.text = String(value) }

    /// The value as an exact integer, or nil when it has a fraction/exponent or does not fit.
    public var int: Int? { Int(text) }
    /// The value as a double (may round).
    public var double: Double { Double(text) ?? .nan }
    public var description: String { text }
}

/// A JSON object: members in source order; lookup by key finds the last member with that key,
/// as JavaScript and `JSONSerialization` do for duplicates.
public struct JSONObject: Sendable, Equatable {
    public var members: [(key: String, value: JSON)]

    public init(_ members: [(key: String, value: JSON)] = []) { self.members = members }

    public subscript(key: String) -> JSON? {
        get { members.last(where: { $0.key == key })?.value }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

// MARK: - Reading values

extension JSON {
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var arrayValue: [JSON]? { if case .array(let a) = self { a } else { nil } }
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var numberValue: JSONNumber? { if case .number(let n) = self { n } else { nil } }
    public var intValue: Int? { numberValue?.int }
    public var isNull: Bool { self == .null }

    /// `.string` for a String, `.null` for nil: the wire's "absent text fields are null".
    public static func string(orNull value: String?) -> JSON { value.map(JSON.string) ?? .null }

    /// What kind of value it is.
    public var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// A short name of the value's kind for error messages ("a string", "an object", …).
    public var kindName: String { kind.name }
}

/// What kind of value a JSON value is (of a tree's `JSON` or a tape's `JSONView`).
public enum JSONKind: Sendable, Equatable {
    case null, bool, number, string, array, object

    /// A short name for error messages ("a string", "an object", …).
    public var name: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
