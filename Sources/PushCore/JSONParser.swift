/// A JSON syntax error: what was wrong and the byte offset where it was found.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
    public var description: String { "\(message) at byte \(offset)" }
}

extension JSON {
    /// Parses one JSON value from UTF-8 bytes (lenient as Apple's parser is: trailing commas).
    /// STUB — to be written (issue 2).
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
        throw JSONError("not implemented", offset: 0)
    }

    public static func parse(_ text: String) throws(JSONError) -> JSON {
        try parse(Array(text.utf8))
    }

    /// The value as compact JSON text (what replies and events use).
    /// STUB — to be written (issue 2).
    public var compactText: String { "" }

    /// The value as indented JSON text (what the detail view shows).
    /// STUB — to be written (issue 2).
    public var prettyText: String { "" }
}
