import Foundation
import PushCore
import PushJSON

/// Getui's REST API v2 (DESIGN §8): `POST /v2/{appId}/auth` hands out a token (its `sign` checked
/// against the key `key add getui` registered, else any well-formed one), and
/// `/v2/{appId}/push/single/cid` and `/push/all` push with it (header `token`). An accepted push
/// becomes the same push request the socket takes, its body the payload (the decoder reads a v2
/// body: `notification` and `push_channel.ios` are APNs, `transmission` pass-through), under the
/// appId's app, recorded with `via: getui`, the cid and the request's ids. Refusals carry Getui's
/// codes (`GetuiCode`) and change nothing.
public struct GetuiRoutes: GatewayRoutes {
    public var devices: DevicePolicy
    /// How long a token lives: a day, as Getui's (`--getui-token-seconds` shortens it for tests).
    public var tokenSeconds: TimeInterval
    public let sessions: GetuiSessions

    public static let defaultTokenSeconds: TimeInterval = 86_400
    public static let pathPrefix = "/v2/"
    /// `settings.ttl` in milliseconds: -1 (no offline) up to three days.
    public static let maxTTL: Int64 = 3 * 24 * 3600 * 1000
    public static let requestIdLengths = 10...32
    /// Getui's batch push takes at most 200 messages.
    public static let maxBatch = 200

    public init(devices: DevicePolicy = .open, tokenSeconds: TimeInterval = Self.defaultTokenSeconds, sessions: GetuiSessions = GetuiSessions()) {
        self.devices = devices
        self.tokenSeconds = tokenSeconds
        self.sessions = sessions
    }

    enum Endpoint: String {
        case auth = "auth"
        case single = "push/single/cid"
        case batch = "push/single/batch/cid"
        case all = "push/all"
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        let path = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let rest = path.dropFirst(Self.pathPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), let endpoint = Endpoint(rawValue: String(rest[rest.index(after: slash)...])) else {
            return .respond(GetuiRefusal(.invalidRequest, "no such API: \(path.prefix(100))", status: 404).response)
        }
        let appId = String(rest[..<slash])
        guard !appId.isEmpty, JPushRoutes.isAppKey(appId) else {
            return .respond(GetuiRefusal(.invalidRequest, "the path's appId is not one", status: 404).response)
        }
        guard request.method == "POST" else {
            return .respond(GetuiRefusal(.invalidRequest, "\(endpoint.rawValue) takes POST", status: 405).response)
        }
        guard case .object(let body)? = try? JSON.parse(request.body) else {
            return .respond(GetuiRefusal(.invalidRequest, "the body is not a JSON object").response)
        }
        if endpoint == .auth { return .respond(authenticate(appId: appId, body: body, context: context)) }

        guard let token = request.values("token").first, sessions.isValid(token, appId: appId, now: context.now) else {
            return .respond(GetuiRefusal(.tokenInvalid).response)
        }
        if endpoint == .batch { return batch(appId: appId, body: body, path: path, context: context) }
        switch check(endpoint, appId: appId, body: body, text: String(decoding: request.body, as: UTF8.self), path: path, context: context) {
        case .failure(let refusal):
            return .respond(refusal.response)
        case .success(let accepted):
            guard sessions.firstUse(of: accepted.requestId, appId: appId, now: context.now) else {
                return .respond(GetuiRefusal(.repeatedMessage, "request_id \(accepted.requestId) was used before").response)
            }
            let terminated = context.inbox.appState == .terminated
            let sessions = self.sessions
            return .request(.push(accepted.push)) { reply in
                guard reply.isOK else {
                    sessions.forget(accepted.requestId, appId: appId)
                    return Self.answer(status: 500, code: 30000, msg: "server error", data: nil)
                }
                let data: JSON
                switch endpoint {
                case .all: data = .object(["taskid": .string(accepted.taskId)])
                default: data = .object([accepted.taskId: .object([accepted.cid ?? "": .string(Self.status(reply, terminated: terminated))])])
                }
                return Self.answer(status: 200, code: 0, msg: "success", data: data)
            }
        }
    }

    /// Online when the app runs; offline when it is terminated (held, or through APNs).
    static func status(_ reply: Reply, terminated: Bool) -> String {
        reply.pushReply?.fate.isWaiting == true || terminated ? "successed_offline" : "successed_online"
    }

    /// `push/single/batch/cid`: `msg_list` of single pushes, each checked as one; all or none.
    func batch(appId: String, body: JSONObject, path: String, context: GatewayContext) -> GatewayDecision {
        guard case .array(let list)? = body["msg_list"], (1...Self.maxBatch).contains(list.count) else {
            return .respond(GetuiRefusal(.invalidRequest, "msg_list must hold 1 to \(Self.maxBatch) messages").response)
        }
        var accepted: [Accepted] = []
        for (index, item) in list.enumerated() {
            guard case .object(let message) = item else {
                return .respond(GetuiRefusal(.invalidRequest, "msg_list[\(index)] must be an object").response)
            }
            switch check(.single, appId: appId, body: message, text: item.compactText, path: path, context: context) {
            case .failure(let refusal):
                return .respond(GetuiRefusal(refusal.code, "msg_list[\(index)]: " + refusal.message).response)
            case .success(let one): accepted.append(one)
            }
        }
        var recorded: [String] = []
        for one in accepted {
            guard sessions.firstUse(of: one.requestId, appId: appId, now: context.now) else {
                for id in recorded { sessions.forget(id, appId: appId) }
                return .respond(GetuiRefusal(.repeatedMessage, "request_id \(one.requestId) was used before").response)
            }
            recorded.append(one.requestId)
        }
        let terminated = context.inbox.appState == .terminated
        let sessions = self.sessions
        let messages = accepted
        let requestIds = recorded
        return .requests(messages.map { .push($0.push) }) { replies in
            guard replies.allSatisfy(\.isOK) else {
                for id in requestIds { sessions.forget(id, appId: appId) }
                return Self.answer(status: 500, code: 30000, msg: "server error", data: nil)
            }
            var data = JSONObject()
            for (one, reply) in zip(messages, replies) {
                data[one.taskId] = .object([one.cid ?? "": .string(Self.status(reply, terminated: terminated))])
            }
            return Self.answer(status: 200, code: 0, msg: "success", data: .object(data))
        }
    }

    /// `{"code":…,"msg":…,"data":…}`.
    static func answer(status: Int, code: Int, msg: String, data: JSON?) -> HTTPResponse {
        var object: JSONObject = ["code": .number(JSONNumber(code)), "msg": .string(msg)]
        if let data { object["data"] = data }
        return HTTPResponse(
            status: status, headers: [HTTPHeader("content-type", "application/json;charset=utf-8")],
            body: Array(JSON.object(object).compactText.utf8))
    }

    // MARK: - Auth

    /// `{"sign","timestamp","appkey"}` → a token, when the sign is sha256(appkey + timestamp +
    /// mastersecret) of the registered key (with none registered, any 64-hex-digit sign).
    func authenticate(appId: String, body: JSONObject, context: GatewayContext) -> HTTPResponse {
        guard let appKey = body["appkey"]?.stringValue, !appKey.isEmpty else {
            return GetuiRefusal(.invalidRequest, "appkey is required").response
        }
        let timestamp: String
        switch body["timestamp"] {
        case .string(let text)?: timestamp = text
        case .number(let number)?: timestamp = number.text
        default: return GetuiRefusal(.invalidRequest, "timestamp (ms, 13 digits) is required").response
        }
        guard timestamp.utf8.count == 13, timestamp.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return GetuiRefusal(.invalidRequest, "timestamp must be 13 digits of milliseconds").response
        }
        guard let sign = body["sign"]?.stringValue, sign.utf8.count == 64,
              sign.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
        else {
            return GetuiRefusal(.invalidRequest, "sign must be sha256(appkey+timestamp+mastersecret) in hex").response
        }
        if let key = context.inbox.providerKeys[appId], key.vendor == .getui {
            guard key.appKey == appKey else { return GetuiRefusal(.invalidAppKey, "appkey does not match appId \(appId)").response }
            guard GetuiSessions.sha256Hex(appKey + timestamp + key.secret) == sign.lowercased() else {
                return GetuiRefusal(.invalidRequest, "sign does not match sha256(appkey+timestamp+mastersecret)").response
            }
        }
        let expires = context.now.addingTimeInterval(tokenSeconds)
        let token = sessions.issue(appId: appId, expires: expires, now: context.now)
        let milliseconds = Int64((expires.timeIntervalSince1970 * 1000).rounded())
        return Self.answer(
            status: 200, code: 0, msg: "success",
            data: .object(["expire_time": .string(String(milliseconds)), "token": .string(token)]))
    }

    // MARK: - Push

    struct Accepted: Sendable {
        var push: PushRequest
        var requestId: String
        var taskId: String
        var cid: String?
    }

    func check(_ endpoint: Endpoint, appId: String, body: JSONObject, text: String, path: String, context: GatewayContext) -> Result<Accepted, GetuiRefusal> {
        guard let requestId = body["request_id"]?.stringValue else { return .failure(GetuiRefusal(.invalidRequest, "request_id is required")) }
        guard Self.requestIdLengths.contains(requestId.count) else {
            return .failure(GetuiRefusal(.invalidRequest, "request_id must be 10 to 32 characters"))
        }
        var kept: [String: String] = ["path": path, "request_id": requestId]
        if let settings = body["settings"] {
            guard case .object(let object) = settings else { return .failure(GetuiRefusal(.invalidRequest, "settings must be an object")) }
            if let ttl = object["ttl"] {
                guard case .number(let number) = ttl, let value = Int64(number.text), value == -1 || (0...Self.maxTTL).contains(value) else {
                    return .failure(GetuiRefusal(.invalidRequest, "settings.ttl must be -1 or 0 to \(Self.maxTTL) ms"))
                }
                kept["ttl"] = String(value)
            }
        }

        var cid: String?
        switch endpoint {
        case .all:
            guard body["audience"] == .string("all") else { return .failure(GetuiRefusal(.invalidRequest, "push/all takes audience \"all\"")) }
        default:
            guard case .object(let audience)? = body["audience"], case .array(let cids)? = audience["cid"], cids.count == 1,
                  let only = cids[0].stringValue, !only.isEmpty, only.utf8.count <= 128
            else {
                return .failure(GetuiRefusal(.invalidRequest, "audience.cid must hold exactly one cid"))
            }
            if let device = context.inbox.devices[only] {
                guard device.vendor == .getui, device.app == appId, device.unregisteredAt == nil else {
                    return .failure(GetuiRefusal(.invalidRequest, "cid \(only) is not a device of appId \(appId)"))
                }
            } else if devices == .strict {
                return .failure(GetuiRefusal(.invalidRequest, "cid \(only) is unknown ('pushdeck device add \(only) --app \(appId) --vendor getui', or --devices open)"))
            }
            cid = only
            kept["cid"] = only
        }

        guard case .object(let message)? = body["push_message"] else {
            return .failure(GetuiRefusal(.invalidRequest, "push_message is required"))
        }
        let kinds = ["notification", "transmission", "revoke"].filter { message[$0] != nil }
        guard kinds.count == 1 else {
            return .failure(GetuiRefusal(.invalidRequest, "push_message takes one of notification, transmission, revoke"))
        }
        if let notification = message["notification"] {
            guard case .object(let object) = notification, object["title"]?.stringValue != nil, object["body"]?.stringValue != nil,
                  object["click_type"]?.stringValue != nil
            else {
                return .failure(GetuiRefusal(.invalidRequest, "push_message.notification needs title, body and click_type strings"))
            }
        }
        if let transmission = message["transmission"], transmission.stringValue == nil {
            return .failure(GetuiRefusal(.invalidRequest, "push_message.transmission must be a string"))
        }
        if message["revoke"] != nil {
            return .failure(GetuiRefusal(.invalidRequest, "pushdeck does not revoke messages"))
        }
        if let channel = body["push_channel"] {
            guard case .object(let object) = channel else { return .failure(GetuiRefusal(.invalidRequest, "push_channel must be an object")) }
            if let problem = Self.iosProblem(object["ios"]) { return .failure(GetuiRefusal(.invalidRequest, problem)) }
        }

        let taskId = "RASS_" + Self.monthDay(context.now) + "_" + GetuiSessions.randomHex(bytes: 16)
        kept["taskid"] = taskId
        guard (try? JSONTape.parse(Array(text.utf8))) != nil else {
            return .failure(GetuiRefusal(.invalidRequest, "the body is not JSON"))
        }
        let push = PushRequest(payloadText: text, app: appId, via: .getui, token: cid, headers: kept)
        do {
            _ = try PushDecoder().decode(push)
        } catch {
            return .failure(GetuiRefusal(.invalidRequest, error.message))
        }
        return .success(Accepted(push: push, requestId: requestId, taskId: taskId, cid: cid))
    }

    /// What is wrong with `push_channel.ios`, if anything.
    static func iosProblem(_ ios: JSON?) -> String? {
        guard let ios else { return nil }
        guard case .object(let object) = ios else { return "push_channel.ios must be an object" }
        if let aps = object["aps"] {
            guard case .object(let apsObject) = aps else { return "push_channel.ios.aps must be an object" }
            switch apsObject["alert"] {
            case nil, .string?, .object?: break
            default: return "push_channel.ios.aps.alert must be a string or an object"
            }
        }
        if let badge = object["auto_badge"] {
            guard let text = badge.stringValue else { return "push_channel.ios.auto_badge must be \"+N\", \"-N\" or \"N\"" }
            let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.utf8.count <= 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return "push_channel.ios.auto_badge must be \"+N\", \"-N\" or \"N\""
            }
        }
        if let payload = object["payload"], payload.stringValue == nil { return "push_channel.ios.payload must be a string" }
        return nil
    }

    /// `MMdd` in UTC, as Getui's task ids carry it.
    static func monthDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.month, .day], from: date)
        return String(format: "%02d%02d", parts.month ?? 1, parts.day ?? 1)
    }
}
