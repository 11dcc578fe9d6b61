import Foundation
import PushCore
import PushJSON

/// Getui's REST API v2: `POST /v2/{appId}/auth` hands out a token (its `sign` checked
/// against the key `key add getui` registered, else any well-formed one), and
/// `/v2/{appId}/push/single/cid` and `/push/all` push with it (header `token`). An accepted push
/// becomes the same push request the socket takes, its body the payload (the decoder reads a v2
/// body: `notification` and `push_channel.ios` are APNs, `transmission` pass-through), under the
/// appId's app, recorded with `via: getui`, the cid and the request's ids. Refusals carry Getui's
/// codes with their HTTP statuses (`GetuiCode`) and change nothing.
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
    /// How far `/auth`'s `timestamp` may be from the server's clock, in milliseconds: ten
    /// minutes either way. Getui's auth page asks for the current time ("毫秒时间戳，请使用当前毫秒时间戳，
    /// 误差太大可能出错") and its server refuses one too far off; ten minutes covers any clock
    /// difference between a backend and this machine, and bounds how long a captured body can
    /// be replayed (vivo's push auth, the same sha-over-a-millisecond-timestamp scheme, allows
    /// the same ten minutes: "在vivo服务器当前utc时间戳前后十分钟区间内").
    public static let authTimestampWindow: Int64 = 10 * 60 * 1000

    public init(devices: DevicePolicy = .open, tokenSeconds: TimeInterval = Self.defaultTokenSeconds, sessions: GetuiSessions = GetuiSessions()) {
        self.devices = devices
        self.tokenSeconds = tokenSeconds
        self.sessions = sessions
    }

    enum Endpoint: String {
        case auth = "auth"
        case single = "push/single/cid"
        /// Getui's 别名单推 (its push API page; `pushToSingleByAlias` in GetuiLaboratory's
        /// getui-pushapi-php-client-v2 `GTPushApi.php`): `audience.alias`, one alias.
        case singleAlias = "push/single/alias"
        case batch = "push/single/batch/cid"
        case all = "push/all"
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        let path = request.pathOnly
        let rest = path.dropFirst(Self.pathPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), let endpoint = Endpoint(rawValue: String(rest[rest.index(after: slash)...])) else {
            return .respond(GetuiRefusal(.urlError, "no such API: \(path.prefix(100))").response)
        }
        let appId = String(rest[..<slash])
        guard !appId.isEmpty, JPushRoutes.isAppKey(appId) else {
            return .respond(GetuiRefusal(.urlError, "the path's appId is not one").response)
        }
        guard request.method == "POST" else {
            return .respond(GetuiRefusal(.methodNotAllowed, "\(endpoint.rawValue) takes POST").response)
        }
        // One parse: the checks read its tree, the decoder the tape itself.
        guard let tape = try? JSONTape.parse(request.body), case .object(let body) = tape.root.json else {
            return .respond(GetuiRefusal(.failed, "the body is not a JSON object").response)
        }
        if endpoint == .auth { return .respond(authenticate(appId: appId, body: body, context: context)) }

        guard let token = request.value("token"), sessions.isValid(token, appId: appId, now: context.now) else {
            return .respond(GetuiRefusal(.tokenInvalid).response)
        }
        if endpoint == .batch { return batch(appId: appId, body: body, path: path, context: context) }
        switch check(endpoint, appId: appId, body: body, text: tape.text, parsed: tape.root,
                     path: path, context: context) {
        case .failure(let refusal):
            return .respond(refusal.response)
        case .success(let accepted):
            guard !context.inbox.getuiRequestIds.contains(app: appId, requestId: accepted.requestId, now: context.now) else {
                return .respond(Self.repeated(accepted.requestId).response)
            }
            let terminated = context.inbox.appState == .terminated
            // The push records its request id in the inbox (with the push, in its transaction).
            return .request(.push(accepted.push)) { reply in
                guard reply.isOK else {
                    return GetuiRefusal(.systemBusy, "pushdeck could not store the push").response
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

    /// A refusal of the transport in Getui's shape, `{"code":…,"msg":…}` with the code's status
    /// from Getui's "返回码说明" tables: an unknown method is 405 (方法不支持, HTTP 405), no server
    /// behind the gateway 30019 (系统繁忙，请稍后重试, 403); a body or headers too large are 20001's
    /// `{param} size over limit` (400), bytes that are not HTTP and a request not whole in time
    /// 20001's `{param} is invalid` (400) — Getui lists no 408, 413 or 431.
    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse {
        switch refusal.kind {
        case .bodyTooLarge: GetuiRefusal.parameter(.sizeOverLimit("body"), refusal.detail).response
        case .headersTooLarge: GetuiRefusal.parameter(.sizeOverLimit("header"), refusal.detail).response
        case .badMethod: GetuiRefusal(.methodNotAllowed, refusal.detail).response
        case .malformed, .timeout: GetuiRefusal.parameter(.invalid("request"), refusal.detail).response
        case .unavailable: GetuiRefusal(.systemBusy, refusal.detail).response
        }
    }

    /// Getui's refusal of a `request_id` used within the day.
    static func repeated(_ requestId: String) -> GetuiRefusal {
        GetuiRefusal.parameter(.repeated("request_id"), "\(requestId) was used within the last day")
    }

    /// Online when the app runs; offline when it is terminated (held, or through APNs).
    static func status(_ reply: Reply, terminated: Bool) -> String {
        reply.pushReply?.fate.isWaiting == true || terminated ? "successed_offline" : "successed_online"
    }

    /// `push/single/batch/cid`: `msg_list` of single pushes, each checked as one; all or none.
    func batch(appId: String, body: JSONObject, path: String, context: GatewayContext) -> GatewayDecision {
        guard let listValue = body["msg_list"] else { return .respond(GetuiRefusal.parameter(.empty("msg_list")).response) }
        guard case .array(let list) = listValue else { return .respond(GetuiRefusal.parameter(.typeError("msg_list")).response) }
        guard !list.isEmpty else { return .respond(GetuiRefusal.parameter(.empty("msg_list")).response) }
        guard list.count <= Self.maxBatch else {
            return .respond(GetuiRefusal.parameter(.sizeOverLimit("msg_list"), "at most \(Self.maxBatch) messages").response)
        }
        var accepted: [Accepted] = []
        for (index, item) in list.enumerated() {
            guard case .object(let message) = item else {
                return .respond(GetuiRefusal.parameter(.typeError("msg_list"), "msg_list[\(index)] is not an object").response)
            }
            switch check(.single, appId: appId, body: message, text: item.compactText, path: path, context: context) {
            case .failure(let refusal):
                var located = refusal
                located.message += " (msg_list[\(index)])"
                return .respond(located.response)
            case .success(let one): accepted.append(one)
            }
        }
        // A repeat of one pushed before, or of one earlier in the list, refuses the whole list.
        var listed = Set<String>()
        for one in accepted {
            guard !context.inbox.getuiRequestIds.contains(app: appId, requestId: one.requestId, now: context.now),
                  listed.insert(one.requestId).inserted
            else {
                return .respond(Self.repeated(one.requestId).response)
            }
        }
        let terminated = context.inbox.appState == .terminated
        let messages = accepted
        return .requests(messages.map { .push($0.push) }) { replies in
            guard replies.allSatisfy(\.isOK) else {
                return GetuiRefusal(.systemBusy, "pushdeck could not store the pushes").response
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
            return GetuiRefusal.parameter(.empty("appkey")).response
        }
        let timestamp: String
        switch body["timestamp"] {
        case .string(let text)?: timestamp = text
        case .number(let number)?: timestamp = number.text
        default: return GetuiRefusal.parameter(.empty("timestamp"), "milliseconds, 13 digits").response
        }
        guard timestamp.utf8.count == 13, timestamp.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int64(timestamp) else {
            return GetuiRefusal.parameter(.invalid("timestamp"), "13 digits of milliseconds").response
        }
        let clock = Int64((context.now.timeIntervalSince1970 * 1000).rounded())
        guard abs(milliseconds - clock) <= Self.authTimestampWindow else {
            return GetuiRefusal.parameter(
                .invalid("timestamp"), "\(timestamp) is more than \(Self.authTimestampWindow / 60_000) minutes from the server's clock (\(clock)): sign the current time in milliseconds").response
        }
        guard let sign = body["sign"]?.stringValue, sign.utf8.count == 64,
              sign.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
        else {
            return GetuiRefusal.parameter(.invalid("sign"), "sha256(appkey+timestamp+mastersecret) in hex").response
        }
        if let key = context.inbox.providerKeys[appId], key.vendor == .getui {
            guard key.appKey == appKey else { return GetuiRefusal.parameter(.invalid("appkey"), "it does not match appId \(appId)").response }
            guard GetuiSessions.sha256Hex(appKey + timestamp + key.secret) == sign.lowercased() else {
                return GetuiRefusal.parameter(.invalid("sign"), "it does not match sha256(appkey+timestamp+mastersecret)").response
            }
        }
        let expires = context.now.addingTimeInterval(tokenSeconds)
        let token = sessions.issue(appId: appId, expires: expires, now: context.now)
        let expireTime = Int64((expires.timeIntervalSince1970 * 1000).rounded())
        return Self.answer(
            status: 200, code: 0, msg: "success",
            data: .object(["expire_time": .string(String(expireTime)), "token": .string(token)]))
    }

    // MARK: - Push

    struct Accepted: Sendable {
        var push: PushRequest
        var requestId: String
        var taskId: String
        var cid: String?
    }

    /// `parsed`: `text` as the request's parse already saw it (a batch's messages are parsed here).
    func check(_ endpoint: Endpoint, appId: String, body: JSONObject, text: String, parsed: JSONView? = nil, path: String,
               context: GatewayContext) -> Result<Accepted, GetuiRefusal> {
        guard let requestId = body["request_id"]?.stringValue else { return .failure(GetuiRefusal.parameter(.empty("request_id"))) }
        guard Self.requestIdLengths.contains(requestId.count) else {
            return .failure(GetuiRefusal.parameter(.invalid("request_id"), "10 to 32 characters"))
        }
        var kept: [String: String] = ["path": path, "request_id": requestId]
        if let settings = body["settings"] {
            guard case .object(let object) = settings else { return .failure(GetuiRefusal.parameter(.typeError("settings"))) }
            if let ttl = object["ttl"] {
                guard case .number(let number) = ttl, let value = Int64(number.text), value == -1 || (0...Self.maxTTL).contains(value) else {
                    return .failure(GetuiRefusal.parameter(.invalid("ttl"), "-1 or 0 to \(Self.maxTTL) ms"))
                }
                kept["ttl"] = String(value)
            }
        }

        var cid: String?
        switch endpoint {
        case .all:
            guard body["audience"] == .string("all") else { return .failure(GetuiRefusal.parameter(.invalid("audience"), "push/all takes \"all\"")) }
        case .singleAlias:
            guard case .object(let audience)? = body["audience"], case .array(let aliases)? = audience["alias"], aliases.count == 1,
                  let alias = aliases[0].stringValue, !alias.isEmpty
            else {
                return .failure(GetuiRefusal.parameter(.invalid("alias"), "audience.alias holds exactly one alias"))
            }
            // The cids the alias is bound to (`device add --alias`): the push is recorded under the first.
            let bound = context.inbox.devices.values
                .filter { $0.vendor == .getui && $0.app == appId && $0.unregisteredAt == nil && $0.alias == alias }
                .map(\.token).sorted()
            guard let first = bound.first else {
                return .failure(GetuiRefusal.parameter(
                    .targetUserInvalid, "no cid of appId \(appId) is bound to alias \(alias.prefix(40)) ('pushdeck device add CID --app \(appId) --vendor getui --alias \(alias.prefix(40))')"))
            }
            cid = first
            kept["cid"] = first
            kept["alias"] = alias
        default:
            guard case .object(let audience)? = body["audience"], case .array(let cids)? = audience["cid"], cids.count == 1,
                  let only = cids[0].stringValue, !only.isEmpty, only.utf8.count <= 128
            else {
                return .failure(GetuiRefusal.parameter(.invalid("cid"), "audience.cid holds exactly one cid"))
            }
            if let device = context.inbox.devices[only] {
                guard device.vendor == .getui, device.app == appId, device.unregisteredAt == nil else {
                    return .failure(GetuiRefusal.parameter(.targetUserInvalid, "cid \(only) is not a device of appId \(appId)"))
                }
            } else if devices == .strict {
                return .failure(GetuiRefusal.parameter(.targetUserInvalid, "cid \(only) is unknown ('pushdeck device add \(only) --app \(appId) --vendor getui', or --devices open)"))
            }
            cid = only
            kept["cid"] = only
        }

        guard case .object(let message)? = body["push_message"] else {
            return .failure(GetuiRefusal.parameter(.empty("push_message")))
        }
        let kinds = ["notification", "transmission", "revoke"].filter { message[$0] != nil }
        guard kinds.count == 1 else {
            return .failure(GetuiRefusal.parameter(.chooseOneOfNotificationTransmissionRevoke))
        }
        if let notification = message["notification"] {
            guard case .object(let object) = notification else { return .failure(GetuiRefusal.parameter(.typeError("notification"))) }
            for field in ["title", "body", "click_type"] {
                guard let value = object[field] else { return .failure(GetuiRefusal.parameter(.empty(field))) }
                guard value.stringValue != nil else { return .failure(GetuiRefusal.parameter(.typeError(field))) }
            }
        }
        if let transmission = message["transmission"], transmission.stringValue == nil {
            return .failure(GetuiRefusal.parameter(.typeError("transmission")))
        }
        if message["revoke"] != nil {
            return .failure(GetuiRefusal.parameter(.invalid("revoke"), "pushdeck does not revoke messages"))
        }
        if let channel = body["push_channel"] {
            guard case .object(let object) = channel else { return .failure(GetuiRefusal.parameter(.typeError("push_channel"))) }
            if let problem = Self.iosProblem(object["ios"]) { return .failure(problem) }
        }

        let taskId = "RASS_" + Self.monthDay(context.now) + "_" + GetuiSessions.randomHex(bytes: 16)
        kept["taskid"] = taskId
        guard let root = parsed ?? (try? JSONTape.parse(Array(text.utf8)))?.root else {
            return .failure(GetuiRefusal(.failed, "the body is not JSON"))
        }
        var push = PushRequest(payloadText: text, app: appId, parsed: root, via: .getui, token: cid, headers: kept)
        do {
            // Decoded once, here, and handed on: the inbox takes it as it is.
            push.decoded = try PushDecoder().decode(push)
        } catch {
            return .failure(GetuiRefusal.parameter(.invalid("push_message"), error.message))
        }
        return .success(Accepted(push: push, requestId: requestId, taskId: taskId, cid: cid))
    }

    /// What is wrong with `push_channel.ios`, if anything, as Getui's 20001 names it.
    static func iosProblem(_ ios: JSON?) -> GetuiRefusal? {
        guard let ios else { return nil }
        guard case .object(let object) = ios else { return .parameter(.typeError("ios")) }
        if let aps = object["aps"] {
            guard case .object(let apsObject) = aps else { return .parameter(.typeError("aps")) }
            switch apsObject["alert"] {
            case nil, .string?, .object?: break
            default: return .parameter(.typeError("alert"), "push_channel.ios.aps.alert is a string or an object")
            }
        }
        if let badge = object["auto_badge"] {
            let digits = badge.stringValue.map { $0.first == "+" || $0.first == "-" ? $0.dropFirst() : Substring($0) } ?? ""
            guard !digits.isEmpty, digits.utf8.count <= 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return .parameter(.invalid("auto_badge"), "\"+N\", \"-N\" or \"N\"")
            }
        }
        if let payload = object["payload"], payload.stringValue == nil { return .parameter(.typeError("payload")) }
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
