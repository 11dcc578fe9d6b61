import PushJSON

/// The fields of one request object, read with validation: each refusal names the field and
/// says what is accepted. `null` counts as absent, as a client serializing `nil` would send it.
struct RequestFields {
    let op: String
    let object: JSONObject

    /// Refuses members other than `op` and `accepted`.
    init(op: String, _ object: JSONObject, accepted: [String]) throws(WireError) {
        self.op = op
        self.object = object
        for key in object.keys where key != "op" && !accepted.contains(key) {
            let list = accepted.isEmpty ? "it takes no other fields" : "accepted: \(accepted.joined(separator: ", "))"
            throw WireError("unknown field \"\(key)\" for op \(op); \(list)")
        }
    }

    private func value(_ key: String) -> JSON? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func bool(_ key: String) throws(WireError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else {
            throw WireError("\"\(key)\" must be true or false; got \(Self.describe(value))")
        }
        return bool
    }

    /// An app id: a non-empty string.
    func app(_ key: String) throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value, !text.isEmpty else {
            throw WireError("\"\(key)\" must be an app id, a non-empty string like com.example.shop; got \(Self.describe(value))")
        }
        return text
    }

    /// A non-empty string of at most `maxBytes` UTF-8 bytes, or one of `among` when given.
    func text(_ key: String, expected: String, maxBytes: Int = Int.max, among: [String]? = nil) throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= maxBytes,
              among.map({ $0.contains(text) }) ?? true
        else {
            throw WireError("\"\(key)\" must be \(expected); got \(Self.describe(value))")
        }
        return text
    }

    /// One of an enum's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(WireError) -> T?
    where T.RawValue == String {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value, let choice = T(rawValue: text) else {
            let accepted = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw WireError("\"\(key)\" must be one of \(accepted); got \(Self.describe(value))")
        }
        return choice
    }

    func integer(_ key: String, in range: ClosedRange<Int>, expected: String) throws(WireError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, let int = number.int, range.contains(int) else {
            throw WireError("\"\(key)\" must be \(expected); got \(Self.describe(value))")
        }
        return int
    }

    /// A number of seconds (a fraction allowed) within `range`.
    func seconds(_ key: String, in range: ClosedRange<Double>) throws(WireError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.double.isFinite, range.contains(number.double) else {
            throw WireError("\"\(key)\" must be a number of seconds from \(JSONNumber(Int(range.lowerBound))) to \(JSONNumber(Int(range.upperBound))); got \(Self.describe(value))")
        }
        return number.double
    }

    func id(_ key: String) throws(WireError) -> Int64? {
        guard let value = value(key) else { return nil }
        return try Self.id(value, path: key)
    }

    /// `id` or `ids` (one of them, required) — or, for `read`, `"all": true` handled by the caller.
    func targetIds(for op: String, orAll: Bool) throws(WireError) -> [Int64] {
        let needs = orAll ? "\"id\", \"ids\" or \"all\": true" : "\"id\" or \"ids\""
        switch (value("id"), value("ids")) {
        case (nil, nil):
            throw WireError("\(op) needs \(needs) (message ids are positive integers)")
        case (.some, .some):
            throw WireError("\(op) takes \(needs), only one of them")
        case (.some(let single), nil):
            return [try Self.id(single, path: "id")]
        case (nil, .some(let list)):
            guard case .array(let elements) = list else {
                throw WireError("\"ids\" must be an array of positive integer message ids; got \(Self.describe(list))")
            }
            guard !elements.isEmpty else { throw WireError("\"ids\" is empty; give at least one message id") }
            guard elements.count <= Request.maxIds else {
                throw WireError("\"ids\" has \(elements.count) ids; at most \(Request.maxIds) are accepted per request")
            }
            var ids: [Int64] = []
            ids.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                ids.append(try Self.id(element, path: "ids[\(index)]"))
            }
            return ids
        }
    }

    /// Bus topics; absent or empty means all.
    func topics(_ key: String) throws(WireError) -> [Topic] {
        guard let value = value(key) else { return [] }
        let accepted = Topic.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let elements) = value else {
            throw WireError("\"\(key)\" must be an array of topics (empty for all): \(accepted); got \(Self.describe(value))")
        }
        var topics: [Topic] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element, let topic = Topic(rawValue: text) else {
                throw WireError("\"\(key)[\(index)]\" must be one of \(accepted); got \(Self.describe(element))")
            }
            if !topics.contains(topic) { topics.append(topic) }
        }
        return topics
    }

    /// A message id: a positive integer written without fraction or exponent.
    static func id(_ value: JSON, path: String) throws(WireError) -> Int64 {
        guard case .number(let number) = value else {
            throw WireError("\"\(path)\" must be a positive integer message id; got \(describe(value))")
        }
        let text = number.text
        let isWhole = !text.isEmpty && text.utf8.allSatisfy { $0 >= ascii("0") && $0 <= ascii("9") || $0 == ascii("-") }
        guard isWhole else {
            throw WireError("\"\(path)\" must be a positive integer message id (a whole number like 17); got \(text)")
        }
        guard !text.hasPrefix("-") else {
            throw WireError("\"\(path)\" must be a positive integer message id (1 or more); got \(text)")
        }
        guard let id = Int64(text) else {
            throw WireError("\"\(path)\" is out of range: \(text) (message ids go from 1 to \(Int64.max))")
        }
        guard id > 0 else {
            throw WireError("\"\(path)\" must be a positive integer message id (1 or more); got \(text)")
        }
        return id
    }

    /// A value as an error message shows it: short scalars as written, others by kind.
    static func describe(_ value: JSON) -> String {
        switch value {
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return JSON.string(shown).compactText
        case .number(let number): return number.text
        case .bool(let bool): return bool ? "true" : "false"
        default: return value.kindName
        }
    }
}

extension RequestFields {
    /// A value read in place, as error messages show it (see `describe(_:)`).
    static func describe(_ value: JSONView) -> String {
        describe(value.json)
    }
}
