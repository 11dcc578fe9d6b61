import PushJSON
import PushGateway

/// What an option's value may be, checked the same way whether it comes from the command line,
/// the environment or the config file — so the three never disagree on what is accepted.
enum SettingValue: Sendable, Equatable {
    /// A file or socket path (a non-empty string).
    case path
    /// A number of seconds above `above`, at most `atMost`.
    case seconds(above: Double, atMost: Double)
    /// A whole number in the range.
    case whole(ClosedRange<Int>)
    /// One of the words.
    case choice([String])
    /// The gateway's `HOST:PORT`; in the config file also `true` (the default address) or `false`.
    case address
    /// A flag: `true` or `false` in the config file.
    case flag
    /// A bearer token: RFC 6750 §2.1's `b64token` (letters, digits, `-._~+/`, then `=`s).
    case token
    /// Text the option's own parser checks (`phrase` says what): the team bus's broker URL,
    /// user and instance id.
    case text(String)

    /// What is accepted, as the end of "--x takes …" and "\"x\" must be …".
    var phrase: String {
        switch self {
        case .path: "a path"
        case .seconds(let above, let atMost): "a number of seconds above \(Self.format(above)) (at most \(Self.format(atMost)))"
        case .whole(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .choice(let words): Self.either(words)
        case .address: "HOST:PORT (like \(GatewayAddress.defaultValue)), true for that default, or false"
        case .flag: "true or false"
        case .token: "a bearer token: letters, digits and - . _ ~ + / (then = signs), as RFC 6750 allows"
        case .text(let phrase): phrase
        }
    }

    /// Whether the command line's text is accepted.
    func accepts(_ text: String) -> Bool {
        switch self {
        case .path: !text.isEmpty
        case .seconds(let above, let atMost): Double(text).map { $0 > above && $0 <= atMost } ?? false
        case .whole(let range): Int(text).map(range.contains) ?? false
        case .choice(let words): words.contains(text)
        case .address: (try? GatewayAddress(parsing: text)) != nil
        case .flag: false
        case .token: Self.isBearerToken(text)
        case .text: !text.isEmpty
        }
    }

    /// The config file's value as the command line would give it: `.some(nil)` when it turns the
    /// option off (`false`), nil when it is not accepted.
    func given(fromFile value: JSON) -> Settings.Given?? {
        switch (self, value) {
        case (.flag, .bool(let on)), (.address, .bool(let on)):
            return .some(on ? .bare : nil)
        case (.seconds, .number(let number)), (.whole, .number(let number)):
            return accepts(number.text) ? .some(.value(number.text)) : nil
        case (.path, .string(let text)), (.choice, .string(let text)), (.address, .string(let text)), (.token, .string(let text)), (.text, .string(let text)):
            return accepts(text) ? .some(.value(text)) : nil
        default:
            return nil
        }
    }

    /// RFC 6750 §2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isBearerToken(_ text: String) -> Bool {
        let body = text.reversed().drop { $0 == "=" }
        return !body.isEmpty && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~+/".contains($0)) }
    }

    /// "open or strict", "apns, jpush or getui".
    static func either(_ words: [String]) -> String {
        guard words.count > 1, let last = words.last else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
