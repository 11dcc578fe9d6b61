/// An FCM topic condition (the v1 `message.condition`; FCM's "Topic messaging": "'TopicA' in
/// topics && ('TopicB' in topics || 'TopicC' in topics)", at most five topics, with `&&`, `||`,
/// `!` and parentheses), parsed once and evaluated against a device's topics.
///
/// `&&` binds tighter than `||` and `!` tighter than both, as in the C family the syntax comes
/// from; a topic is quoted with `'` or `"` and is a topic name (`[a-zA-Z0-9-_.~%]+`).
public indirect enum FCMCondition: Sendable, Equatable {
    case topic(String)
    case not(FCMCondition)
    case and(FCMCondition, FCMCondition)
    case or(FCMCondition, FCMCondition)

    /// "You can include up to five topics in your conditional expression."
    public static let maxTopics = 5
    /// FCM's `fieldViolations` description for a condition it cannot read.
    public static let invalidDescription = "Invalid condition expression provided."

    /// Why a condition was refused: FCM says `invalidDescription` for each; `detail` is pushdeck's
    /// own note of where.
    public struct Invalid: Error, Sendable, Equatable {
        public var detail: String
    }

    /// Parses `text`; `Invalid` when it is not a condition FCM takes.
    public init(parsing text: String) throws(Invalid) {
        var parser = Parser(bytes: Array(text.utf8))
        let condition = try parser.or()
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw Invalid(detail: "unexpected text at byte \(parser.index)") }
        guard parser.topicCount <= Self.maxTopics else {
            throw Invalid(detail: "\(parser.topicCount) topics; a condition names at most \(Self.maxTopics)")
        }
        self = condition
    }

    /// Whether a device subscribed to `topics` is a target.
    public func matches(_ topics: Set<String>) -> Bool {
        switch self {
        case .topic(let name): topics.contains(name)
        case .not(let inner): !inner.matches(topics)
        case .and(let left, let right): left.matches(topics) && right.matches(topics)
        case .or(let left, let right): left.matches(topics) || right.matches(topics)
        }
    }

    /// The topics the condition names.
    public var topics: Set<String> {
        switch self {
        case .topic(let name): [name]
        case .not(let inner): inner.topics
        case .and(let left, let right), .or(let left, let right): left.topics.union(right.topics)
        }
    }

    /// Whether `name` is a topic name FCM takes: `[a-zA-Z0-9-_.~%]+` (the v1 reference's
    /// `Message.topic`: "Topic name to send a message to, e.g. "weather". Note: "/topics/" prefix
    /// should not be provided.", and the regular expression of its topic-management docs).
    public static func isTopicName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTopicByte)
    }

    static func isTopicByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "%")
    }

    /// Recursive descent over the bytes: or := and ('||' and)*; and := unary ('&&' unary)*;
    /// unary := '!' unary | '(' or ')' | QUOTED 'in' 'topics'.
    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var topicCount = 0
        var depth = 0
        /// Nesting deeper than this is refused before the stack could suffer (five topics need far less).
        static let maxDepth = 32

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        }

        mutating func take(_ token: String) -> Bool {
            skipSpace()
            let want = Array(token.utf8)
            guard index + want.count <= bytes.count, Array(bytes[index..<index + want.count]) == want else { return false }
            index += want.count
            return true
        }

        mutating func or() throws(Invalid) -> FCMCondition {
            var left = try and()
            while take("||") { left = .or(left, try and()) }
            return left
        }

        mutating func and() throws(Invalid) -> FCMCondition {
            var left = try unary()
            while take("&&") { left = .and(left, try unary()) }
            return left
        }

        mutating func unary() throws(Invalid) -> FCMCondition {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw Invalid(detail: "nested too deeply") }
            if take("!") { return .not(try unary()) }
            if take("(") {
                let inner = try or()
                guard take(")") else { throw Invalid(detail: "a ( without its ) before byte \(index)") }
                return inner
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "\"") else {
                throw Invalid(detail: "expected a quoted topic at byte \(index)")
            }
            let quote = bytes[index]
            let start = index + 1
            guard let end = bytes[start...].firstIndex(of: quote) else { throw Invalid(detail: "an unclosed quote at byte \(index)") }
            let name = String(decoding: bytes[start..<end], as: UTF8.self)
            guard FCMCondition.isTopicName(Substring(name)) else { throw Invalid(detail: "'\(name.prefix(40))' is not a topic name") }
            index = end + 1
            guard take("in"), take("topics") else { throw Invalid(detail: "expected \"in topics\" after '\(name.prefix(40))'") }
            // "in topics" must end there: `'a' in topicsX` is no condition.
            if index < bytes.count, FCMCondition.isTopicByte(bytes[index]) { throw Invalid(detail: "expected \"in topics\" after '\(name.prefix(40))'") }
            topicCount += 1
            return .topic(name)
        }
    }
}
