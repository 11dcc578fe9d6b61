import PushJSON

/// Reply objects of the wire (DESIGN §3): `{"ok":true,…}` or `{"ok":false,"error":"…"}`.
public enum Reply {
    /// `{"ok":true}` followed by `fields` in the order given: `Reply.ok(["id": 17, "badge": 2])`.
    public static func ok(_ fields: JSONObject = [:]) -> JSONObject {
        JSONObject([(key: "ok", value: .bool(true))] + fields.members)
    }

    /// `{"ok":false,"error":message}`: what was wrong, where, and what is accepted.
    public static func error(_ message: String) -> JSONObject {
        ["ok": false, "error": .string(message)]
    }

    public static func error(_ error: WireError) -> JSONObject { self.error(error.message) }
    public static func error(_ error: FramingError) -> JSONObject { self.error(error.description) }
}

extension JSON {
    /// The value as one wire line: compact JSON and `\n`.
    public var wireLine: [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes)
        bytes.append(0x0A)
        return bytes
    }
}

extension JSONObject {
    /// The object as one wire line: compact JSON and `\n`.
    public var wireLine: [UInt8] {
        var bytes: [UInt8] = []
        writeLine(into: &bytes)
        return bytes
    }

    /// Appends the object as one wire line (compact JSON and `\n`) to a write buffer.
    public func writeLine(into bytes: inout [UInt8]) {
        write(into: &bytes)
        bytes.append(0x0A)
    }
}
