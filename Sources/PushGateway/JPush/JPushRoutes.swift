import Foundation
import PushCore
import PushJSON

/// JPush's Push API v3 (DESIGN §8): `POST /v3/push` and `POST /v3/push/validate`, HTTP Basic
/// `appKey:masterSecret`, refused with JPush's codes and statuses (`JPushError`). An accepted push
/// becomes the same push request the socket takes, its body the payload (the decoder reads a
/// push-API body: `notification` is APNs, `message` pass-through), under the appKey's app,
/// recorded with `via: jpush`, the registration id and the request's ids and options.
/// `validate` checks the same and delivers nothing. A refusal changes nothing.
public struct JPushRoutes: GatewayRoutes {
    /// What an unknown registration id gets (`--devices`): registered, or 1011.
    public var devices: DevicePolicy

    public init(devices: DevicePolicy = .open) { self.devices = devices }

    public static let pathPrefix = "/v3/"
    public static let pushPath = "/v3/push"
    public static let validatePath = "/v3/push/validate"
    /// JPush: a notification and a message together hold at most 4000 bytes.
    public static let maxContentBytes = 4000
    /// JPush keeps offline messages at most 10 days (`time_to_live` in seconds).
    public static let maxTimeToLive = 864_000
    /// The most registration ids one push names.
    public static let maxRegistrationIds = 1000
    public static let platforms: Set<String> = ["ios", "android", "winphone", "hmos", "quickapp"]

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        let accepted: Accepted
        switch check(request, context: context) {
        case .failure(let refusal): return .respond(refusal.response)
        case .success(let value): accepted = value
        }
        let ok = Self.success(sendno: accepted.sendno, msgId: accepted.msgId)
        if accepted.validateOnly { return .respond(ok) }
        return .request(.push(accepted.push)) { reply in
            // The store failed (or the inbox refused what the route let through): JPush's 1000.
            reply.isOK ? ok : JPushRefusal(.internalError).response
        }
    }

    /// `{"sendno":"…","msg_id":"…"}`, 200.
    static func success(sendno: String, msgId: String) -> HTTPResponse {
        let body: JSON = .object(["sendno": .string(sendno), "msg_id": .string(msgId)])
        return HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json")], body: Array(body.compactText.utf8))
    }

    // MARK: - Validation

    struct Accepted {
        var push: PushRequest
        var sendno: String
        var msgId: String
        var validateOnly: Bool
    }

    /// Every check, in JPush's order: path, method, authentication, body, platform, audience,
    /// content, options, then the devices.
    func check(_ request: HTTPRequest, context: GatewayContext) -> Result<Accepted, JPushRefusal> {
        let path = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard path == Self.pushPath || path == Self.validatePath else {
            return .failure(JPushRefusal(.invalidParameter, "no such API: \(path.prefix(100)) (pushdeck answers /v3/push and /v3/push/validate)"))
        }
        guard request.method == "POST" else { return .failure(JPushRefusal(.postOnly)) }
        let appKey: String
        switch Self.credentials(request.values("authorization").first) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let (key, secret)):
            guard Self.isAppKey(key) else { return .failure(JPushRefusal(.invalidAppKey, "'\(key.prefix(64))'")) }
            if let registered = context.inbox.providerKeys[key], registered.vendor == .jpush, registered.secret != secret {
                return .failure(JPushRefusal(.authenticationFailed, "the master secret does not match appKey \(key)"))
            }
            appKey = key
        }
        guard case .object(let body)? = try? JSON.parse(request.body) else {
            return .failure(JPushRefusal(.invalidParameter, "the body is not a JSON object"))
        }

        // platform: "all" or a list that names iOS (pushdeck is an iOS device).
        guard let platform = body["platform"] else { return .failure(JPushRefusal(.missingParameter, "platform")) }
        switch platform {
        case .string("all"): break
        case .array(let items) where !items.isEmpty:
            let names = items.compactMap(\.stringValue)
            guard names.count == items.count, names.allSatisfy(Self.platforms.contains) else {
                return .failure(JPushRefusal(.invalidParameter, "platform must be \"all\" or a list of ios, android, winphone, hmos, quickapp"))
            }
            guard names.contains("ios") else { return .failure(JPushRefusal(.noTarget, "platform does not include ios")) }
        default:
            return .failure(JPushRefusal(.invalidParameter, "platform must be \"all\" or a list of ios, android, winphone, hmos, quickapp"))
        }

        // audience: "all" or registration ids (tags, aliases and segments name no device here).
        guard let audience = body["audience"] else { return .failure(JPushRefusal(.missingParameter, "audience")) }
        var registrationIds: [String] = []
        switch audience {
        case .string("all"): break
        case .object(let selectors):
            guard let ids = selectors["registration_id"] else {
                return .failure(JPushRefusal(.noTarget, "pushdeck resolves only audience \"all\" and registration_id"))
            }
            guard case .array(let items) = ids, !items.isEmpty, items.count <= Self.maxRegistrationIds,
                  items.allSatisfy({ ($0.stringValue.map { !$0.isEmpty && $0.utf8.count <= 128 }) ?? false })
            else {
                return .failure(JPushRefusal(.invalidParameter, "audience.registration_id must be a list of 1 to \(Self.maxRegistrationIds) ids"))
            }
            registrationIds = items.compactMap(\.stringValue)
        default:
            return .failure(JPushRefusal(.invalidParameter, "audience must be \"all\" or an object"))
        }

        // notification and/or message.
        let notification = body["notification"]
        let message = body["message"]
        guard notification != nil || message != nil else {
            return .failure(JPushRefusal(.missingParameter, "notification or message"))
        }
        if let notification {
            guard case .object(let object) = notification else { return .failure(JPushRefusal(.invalidParameter, "notification must be an object")) }
            if let problem = Self.iosProblem(object["ios"]) { return .failure(JPushRefusal(.invalidParameter, problem)) }
        }
        if let message {
            guard case .object(let object) = message else { return .failure(JPushRefusal(.invalidParameter, "message must be an object")) }
            guard let content = object["msg_content"] else { return .failure(JPushRefusal(.missingParameter, "message.msg_content")) }
            guard content.stringValue != nil else { return .failure(JPushRefusal(.invalidParameter, "message.msg_content must be a string")) }
        }
        let contentBytes = (notification?.compactText.utf8.count ?? 0) + (message?.compactText.utf8.count ?? 0)
        guard contentBytes <= Self.maxContentBytes else {
            return .failure(JPushRefusal(.tooLarge, "notification and message hold \(contentBytes) bytes; the limit is \(Self.maxContentBytes)"))
        }

        // options.
        var kept: [String: String] = ["path": path]
        var sendno = "0"
        var overrideMsgId: String?
        if let options = body["options"] {
            guard case .object(let object) = options else { return .failure(JPushRefusal(.invalidParameter, "options must be an object")) }
            func integer(_ name: String, in range: ClosedRange<Int64>) -> Result<String?, JPushRefusal> {
                guard let value = object[name] else { return .success(nil) }
                guard case .number(let number) = value, let int = Int64(number.text), range.contains(int) else {
                    return .failure(JPushRefusal(.invalidParameter, "options.\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)"))
                }
                return .success(String(int))
            }
            switch integer("sendno", in: Int64(Int32.min)...Int64(Int32.max)) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let value): if let value { sendno = value }
            }
            switch integer("time_to_live", in: 0...Int64(Self.maxTimeToLive)) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let value): kept["time_to_live"] = value
            }
            switch integer("override_msg_id", in: 0...Int64.max) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let value): overrideMsgId = value
            }
            if let production = object["apns_production"] {
                guard let flag = production.boolValue else { return .failure(JPushRefusal(.invalidParameter, "options.apns_production must be true or false")) }
                kept["apns_production"] = flag ? "true" : "false"
            }
            if let collapse = object["apns_collapse_id"] {
                guard let text = collapse.stringValue, text.utf8.count <= 64 else {
                    return .failure(JPushRefusal(.invalidParameter, "options.apns_collapse_id must be a string of at most 64 bytes"))
                }
                kept["apns_collapse_id"] = text
            }
        }

        // The devices: each registration id one of this appKey's, or registered when open.
        for id in registrationIds {
            if let device = context.inbox.devices[id] {
                guard device.vendor == .jpush, device.app == appKey else {
                    return .failure(JPushRefusal(.noTarget, "registration id \(id) is not a device of appKey \(appKey)"))
                }
                guard device.unregisteredAt == nil else {
                    return .failure(JPushRefusal(.noTarget, "registration id \(id) was unregistered"))
                }
            } else if devices == .strict {
                return .failure(JPushRefusal(.noTarget, "registration id \(id) is unknown ('pushdeck device add \(id) --app \(appKey) --vendor jpush', or --devices open)"))
            }
        }

        let msgId = overrideMsgId ?? String(UInt64.random(in: 1_000_000_000_000_000...9_000_000_000_000_000))
        kept["sendno"] = sendno
        kept["msg_id"] = msgId
        if let overrideMsgId { kept["override_msg_id"] = overrideMsgId }
        if !registrationIds.isEmpty { kept["registration_id"] = registrationIds.joined(separator: ",") }
        // One device shows the push once; it is recorded under the first id it names.
        let payloadText = String(decoding: request.body, as: UTF8.self)
        guard (try? JSONTape.parse(request.body)) != nil else {
            return .failure(JPushRefusal(.invalidParameter, "the body is not a JSON object"))
        }
        let push = PushRequest(
            payloadText: payloadText, app: appKey, via: .jpush, token: registrationIds.first, headers: kept)
        do {
            _ = try PushDecoder().decode(push)
        } catch {
            return .failure(JPushRefusal(.invalidParameter, error.message))
        }
        return .success(Accepted(push: push, sendno: sendno, msgId: msgId, validateOnly: path == Self.validatePath))
    }

    /// `Authorization: Basic base64(appKey:masterSecret)`, taken apart; 1004 when it is not one.
    static func credentials(_ header: String?) -> Result<(String, String), JPushRefusal> {
        guard let header else { return .failure(JPushRefusal(.authenticationFailed, "no Authorization header")) }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":")
        else {
            return .failure(JPushRefusal(.authenticationFailed, "Authorization must be Basic base64(appKey:masterSecret)"))
        }
        return .success((String(text[..<colon]), String(text[text.index(after: colon)...])))
    }

    /// An appKey is letters, digits, `-`, `_` and `.` (JPush's are 24 hex digits; names are fine here).
    static func isAppKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 128 && key.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// What is wrong with `notification.ios`, if anything: an object whose `alert` is a string or
    /// an object and whose `badge` is an integer ≥ 0 or `"+N"`/`"-N"`/`"N"`.
    static func iosProblem(_ ios: JSON?) -> String? {
        guard let ios else { return nil }
        guard case .object(let object) = ios else { return "notification.ios must be an object" }
        switch object["alert"] {
        case nil, .string?, .object?: break
        default: return "notification.ios.alert must be a string or an object"
        }
        switch object["badge"] {
        case nil: break
        case .number(let number)?:
            guard let value = number.int, value >= 0 else { return "notification.ios.badge must be an integer ≥ 0 or \"+N\"/\"-N\"" }
        case .string(let text)?:
            let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.utf8.count <= 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return "notification.ios.badge must be an integer ≥ 0 or \"+N\"/\"-N\""
            }
        default: return "notification.ios.badge must be an integer ≥ 0 or \"+N\"/\"-N\""
        }
        return nil
    }
}
