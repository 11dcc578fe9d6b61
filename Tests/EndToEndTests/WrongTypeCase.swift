import PushCore
import PushJSON

/// One request with one field holding a value of a kind that field does not take.
///
/// Generated from a table of the wire's op → fields, each field with what it accepts, crossed
/// with values of every JSON kind; the values a field does take are left out, so every case must
/// be refused. `null` is not among them: it means "absent" on the wire.
struct WrongTypeCase {
    var op: String
    var field: String
    var request: JSON

    /// A field of a request and what it accepts.
    struct Field: Sendable {
        var name: String
        /// The rest of a valid request this field goes into.
        var base: JSONObject
        var accepts: @Sendable (JSON) -> Bool
    }

    static let values: [JSON] = [
        true, false, 0, 1, -1, .number(JSONNumber(text: "1.5")), .number(JSONNumber(text: "1e999")),
        .number(JSONNumber(text: "-1e999")), .number(JSONNumber(text: "123456789012345678901234567890")),
        .number(JSONNumber(text: "-123456789012345678901234567890")), "", "x", "on", "apns", "foreground",
        "badge.changed", "\u{0}", "\u{202E}override", [], [1], ["x"], [true], [[1]], [:], ["a": 1],
        ["aps": ["alert": "x"]],
    ]

    static let fields: [(op: String, fields: [Field])] = [
        ("push", [
            Field(name: "payload", base: ["op": "push"], accepts: { $0.objectValue != nil }),
            Field(name: "app", base: pushBase, accepts: isAppId),
            Field(name: "channel", base: pushBase, accepts: { ["apns", "transparent"].contains($0.stringValue ?? "") }),
            Field(name: "offline", base: pushBase, accepts: isBool),
        ]),
        ("read", [
            Field(name: "id", base: ["op": "read"], accepts: isId),
            Field(name: "ids", base: ["op": "read"], accepts: isIdList),
            Field(name: "all", base: ["op": "read"], accepts: { $0 == true }),
            Field(name: "app", base: ["op": "read", "all": true], accepts: isAppId),
        ]),
        ("delete", [
            Field(name: "id", base: ["op": "delete"], accepts: isId),
            Field(name: "ids", base: ["op": "delete"], accepts: isIdList),
        ]),
        ("badge", [
            Field(name: "app", base: ["op": "badge"], accepts: isAppId),
            Field(name: "set", base: ["op": "badge"], accepts: { ($0.intValue ?? -1) >= 0 && ($0.intValue ?? 0) <= Int(Int32.max) }),
            Field(name: "clear", base: ["op": "badge"], accepts: isBool),
            Field(name: "sync", base: ["op": "badge"], accepts: isBool),
        ]),
        ("mode", [Field(name: "set", base: ["op": "mode"], accepts: { ["on", "off"].contains($0.stringValue ?? "") })]),
        ("app", [
            Field(name: "state", base: ["op": "app"],
                  accepts: { ["foreground", "background", "terminated"].contains($0.stringValue ?? "") }),
        ]),
        ("list", [
            Field(name: "limit", base: ["op": "list"], accepts: { (1...1000).contains($0.intValue ?? 0) }),
            Field(name: "unread", base: ["op": "list"], accepts: isBool),
            Field(name: "before", base: ["op": "list"], accepts: isId),
            Field(name: "app", base: ["op": "list"], accepts: isAppId),
        ]),
        ("subscribe", [
            Field(name: "topics", base: ["op": "subscribe"], accepts: { value in
                value.arrayValue?.allSatisfy { Topic(rawValue: $0.stringValue ?? "") != nil } ?? false
            }),
        ]),
        ("ping", [Field(name: "extra", base: ["op": "ping"], accepts: { _ in false })]),
        ("op", [Field(name: "op", base: [:], accepts: { Request.ops.contains($0.stringValue ?? "") })]),
    ]

    /// Every case, grouped by op in table order.
    static var all: [WrongTypeCase] {
        fields.flatMap { op, fields in
            fields.flatMap { field in
                values.filter { !field.accepts($0) }.map { value in
                    var request = field.base
                    request[field.name] = value
                    return WrongTypeCase(op: op, field: field.name, request: .object(request))
                }
            }
        }
    }

    private static let pushBase: JSONObject = ["op": "push", "payload": ["aps": ["alert": "x"]]]
    private static func isBool(_ value: JSON) -> Bool { value.boolValue != nil }
    private static func isAppId(_ value: JSON) -> Bool { !(value.stringValue ?? "").isEmpty }
    private static func isId(_ value: JSON) -> Bool {
        guard let text = value.numberValue?.text, let id = Int64(text) else { return false }
        return id > 0 && !text.hasPrefix("+")
    }
    private static func isIdList(_ value: JSON) -> Bool {
        guard let ids = value.arrayValue, !ids.isEmpty else { return false }
        return ids.allSatisfy(isId)
    }
}
