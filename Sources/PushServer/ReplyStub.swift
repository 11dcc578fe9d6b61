// TEMPORARY until core-wire lands Reply in PushCore.
import PushCore
enum Reply {
    static func ok(_ fields: JSONObject = [:]) -> JSONObject { JSONObject([(key: "ok", value: .bool(true))] + fields.members) }
    static func error(_ message: String) -> JSONObject { ["ok": false, "error": .string(message)] }
    static func line(_ json: JSON) -> [UInt8] { Array((json.compactText + "\n").utf8) }
    static func line(_ object: JSONObject) -> [UInt8] { line(.object(object)) }
}
