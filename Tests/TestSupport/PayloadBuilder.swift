import PushCore
import PushJSON

/// Builds payload and request text for tests: APNs, Getui pass-through, JPush, wire requests.
public enum PayloadBuilder {
    /// An APNs payload: `aps` with the given alert and members, plus top-level `extra` members.
    public static func apns(
        alert: JSON? = nil, badge: JSON? = nil, app: String? = nil, aps extraAPS: JSONObject = [:],
        extra: JSONObject = [:]
    ) -> String {
        var aps = JSONObject()
        if let alert { aps["alert"] = alert }
        if let badge { aps["badge"] = badge }
        aps.members += extraAPS.members
        var payload = JSONObject()
        if let app { payload["Simulator Target Bundle"] = .string(app) }
        payload["aps"] = .object(aps)
        payload.members += extra.members
        return JSON.object(payload).compactText
    }

    /// A Getui pass-through message as the SDK hands it over.
    public static func getui(
        payload: JSON, appId: String? = nil, taskId: String? = "task-1", msgId: String? = "msg-1",
        offLine: JSON? = nil, autoBadge: JSON? = nil
    ) -> String {
        var object = JSONObject()
        if let appId { object["appId"] = .string(appId) }
        if let taskId { object["taskId"] = .string(taskId) }
        if let msgId { object["msgId"] = .string(msgId) }
        if let offLine { object["offLine"] = offLine }
        if let autoBadge { object["autoBadge"] = autoBadge }
        object["payload"] = payload
        return JSON.object(object).compactText
    }

    /// An STPushModel (the STPushView banner's message model) as the JSON string Getui carries in
    /// `payload`.
    public static func stPushModel(
        id: String = "5077", mid: String = "1270339", title: String, content: String, url: String = "3?_from=push",
        urlType: String = "3"
    ) -> JSON {
        let model: JSON = ["id": .string(id), "mid": .string(mid), "title": .string(title), "content": .string(content),
                           "url": .string(url), "urlType": .string(urlType)]
        return .string(model.compactText)
    }

    /// A request frame: `{"op":…, fields…}` as bytes.
    public static func request(_ op: String, _ fields: JSONObject = [:]) -> [UInt8] {
        Array(JSON.object(JSONObject([(key: "op", value: .string(op))] + fields.members)).compactText.utf8)
    }

    /// Raw request text as bytes (for requests a `JSON` value cannot express, like bad JSON).
    public static func raw(_ text: String) -> [UInt8] { Array(text.utf8) }
}
