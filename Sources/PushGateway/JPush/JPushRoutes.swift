import Foundation
import PushCore
import PushJSON

/// JPush's Push API v3: `POST /v3/push` and `POST /v3/push/validate`, HTTP Basic
/// `appKey:masterSecret`, refused with JPush's codes and statuses (`JPushError`). An accepted push
/// becomes the same push request the socket takes, its body the payload (the decoder reads a
/// push-API body: `notification` is APNs, `message` pass-through), under the appKey's app,
/// recorded with `via: jpush`, the registration id and the request's ids and options.
/// `validate` checks the same and delivers nothing. A refusal changes nothing. `/v3/devices/{id}`
/// is JPush's Device API (`JPushDeviceAPI`): the tags and alias audiences find a device by.
public struct JPushRoutes: GatewayRoutes {
    /// What an unknown registration id gets (`--devices`): registered, or 1011.
    public var devices: DevicePolicy
    /// The Basic credentials already taken apart (a backend sends the same on every push).
    let credentials = JPushCredentials()

    public init(devices: DevicePolicy = .open) { self.devices = devices }

    public static let pathPrefix = "/v3/"
    public static let pushPath = "/v3/push"
    public static let validatePath = "/v3/push/validate"
    /// JPush's 1005 (its "调用返回" table and the `notification.ios` section of
    /// jpush/jpush-docs `zh/jpush/server/push/rest_api_v3_push.md`): the iOS notification,
    /// `"ios":{ }` and what the braces hold, at most 2000 bytes of UTF-8; the iOS message at most 4000.
    public static let maxIOSNotificationBytes = 2000
    public static let maxMessageBytes = 4000
    /// JPush keeps offline messages at most 10 days (`time_to_live` in seconds).
    public static let maxTimeToLive = 864_000
    /// The most registration ids one push names.
    public static let maxRegistrationIds = 1000
    public static let platforms: Set<String> = ["ios", "android", "winphone", "hmos", "quickapp"]

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        let path = request.pathOnly
        if path.hasPrefix(JPushDeviceAPI.pathPrefix) {
            return JPushDeviceAPI(devices: devices, credentials: credentials).decide(request, path: path, context: context)
        }
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

    /// A refusal of the transport in JPush's shape, `{"error":{"code":…,"message":…}}` with the
    /// code's status from JPush's "Call Return" table: a body too large is 1005 ("Message body is
    /// too large", 400), an unknown method 1001 (405), no server behind the gateway 1030 (503,
    /// "try again later" in JPush's HTTP status rules). JPush's HTTP status rules answer an
    /// invalid request 400 with "the corresponding description" and list no 408, 413 or 431, so
    /// oversized headers, bytes that are not HTTP and a request not whole in time are 1003 (400)
    /// with what was wrong.
    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse {
        switch refusal.kind {
        case .bodyTooLarge: JPushRefusal(.tooLarge, refusal.detail).response
        case .badMethod: JPushRefusal(.postOnly).response
        case .unavailable: JPushRefusal(.timeout, refusal.detail).response
        case .headersTooLarge, .malformed, .timeout: JPushRefusal(.invalidParameter, refusal.detail).response
        }
    }

    /// `{"sendno":"…","msg_id":"…"}`, 200.
    static func success(sendno: String, msgId: String) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(32 + sendno.utf8.count + msgId.utf8.count)
        JSON.writeObject(strings: [(key: "sendno", value: sendno), (key: "msg_id", value: msgId)], into: &body)
        return HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json")], body: body)
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
        let path = request.pathOnly
        guard path == Self.pushPath || path == Self.validatePath else {
            return .failure(JPushRefusal(.invalidParameter, "no such API: \(path.prefix(100)) (pushdeck answers /v3/push and /v3/push/validate)"))
        }
        guard request.method == "POST" else { return .failure(JPushRefusal(.postOnly)) }
        let appKey: String
        switch credentials.parse(request.value("authorization")) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let (key, secret)):
            guard Self.isAppKey(key) else { return .failure(JPushRefusal(.invalidAppKey, "'\(key.prefix(64))'")) }
            if let registered = context.inbox.providerKeys[key], registered.vendor == .jpush, registered.secret != secret {
                return .failure(JPushRefusal(.authenticationFailed, "the master secret does not match appKey \(key)"))
            }
            appKey = key
        }
        // One parse, in place (a tape, no tree): the checks read it, and so does the inbox.
        guard let tape = try? JSONTape.parse(request.body), tape.root.kind == .object else {
            return .failure(JPushRefusal(.invalidParameter, "the body is not a JSON object"))
        }
        let body = tape.root

        // platform: "all" or a list that names iOS (pushdeck is an iOS device).
        guard let platform = body["platform"] else { return .failure(JPushRefusal(.missingParameter, "platform")) }
        switch platform.kind {
        case .string where platform.string == "all": break
        case .array where !platform.elements.isEmpty:
            let items = platform.elements
            let names = items.compactMap(\.string)
            guard names.count == items.count, names.allSatisfy(Self.platforms.contains) else {
                return .failure(JPushRefusal.invalid("platform", "It must be \"all\" or a list of ios, android, winphone, hmos, quickapp."))
            }
            guard names.contains("ios") else { return .failure(JPushRefusal(.noTarget, "platform does not include ios")) }
        default:
            return .failure(JPushRefusal.invalid("platform", "It must be \"all\" or a list of ios, android, winphone, hmos, quickapp."))
        }

        // audience: "all" or JPush's selectors (resolved against the devices below).
        guard let audienceValue = body["audience"] else { return .failure(JPushRefusal(.missingParameter, "audience")) }
        let audience: JPushAudience
        do {
            audience = try JPushAudience(audienceValue)
        } catch {
            return .failure(error)
        }

        // notification and/or message.
        let notification = body["notification"]
        let message = body["message"]
        guard notification != nil || message != nil else {
            return .failure(JPushRefusal(.missingParameter, "notification or message"))
        }
        if let notification {
            guard notification.kind == .object else { return .failure(JPushRefusal.invalid("notification", "It must be an object.")) }
            if let problem = Self.iosProblem(notification["ios"]) { return .failure(problem) }
        }
        if let message {
            guard message.kind == .object else { return .failure(JPushRefusal.invalid("message", "It must be an object.")) }
            guard let content = message["msg_content"] else { return .failure(JPushRefusal(.missingParameter, "message.msg_content")) }
            guard content.kind == .string else { return .failure(JPushRefusal.invalid("msg_content", "It must be a string.")) }
        }
        // 1005 as JPush's table words the iOS limits: `"ios":{…}` at most 2000 bytes, the message
        // at most 4000.
        let iosBytes = Self.iosNotificationBytes(notification)
        guard iosBytes <= Self.maxIOSNotificationBytes else {
            return .failure(JPushRefusal(.tooLarge, "the iOS notification (\"ios\":{…}) holds \(iosBytes) bytes; the limit is \(Self.maxIOSNotificationBytes)"))
        }
        let messageBytes = message.map { Self.compactBytes($0) } ?? 0
        guard messageBytes <= Self.maxMessageBytes else {
            return .failure(JPushRefusal(.tooLarge, "the message holds \(messageBytes) bytes; the limit is \(Self.maxMessageBytes)"))
        }

        // options.
        var kept: [String: String] = ["path": path]
        var sendno = "0"
        var overrideMsgId: String?
        if let object = body["options"] {
            guard object.kind == .object else { return .failure(JPushRefusal.invalid("options", "It must be an object.")) }
            func integer(_ name: String, in range: ClosedRange<Int64>) -> Result<String?, JPushRefusal> {
                guard let value = object[name] else { return .success(nil) }
                guard let number = value.number, let int = Int64(number.text), range.contains(int) else {
                    return .failure(JPushRefusal.invalid(name, "It must be an integer from \(range.lowerBound) to \(range.upperBound)."))
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
                guard let flag = production.bool else { return .failure(JPushRefusal.invalid("apns_production", "It must be true or false.")) }
                kept["apns_production"] = flag ? "true" : "false"
            }
            if let collapse = object["apns_collapse_id"] {
                guard let text = collapse.string, text.utf8.count <= 64 else {
                    return .failure(JPushRefusal.invalid("apns_collapse_id", "It must be a string of at most 64 bytes."))
                }
                kept["apns_collapse_id"] = text
            }
        }

        // The devices the audience reaches: this appKey's (unknown registration ids registered
        // when open); none is JPush's 1011.
        let registrationIds: [String]
        switch audience.resolve(appKey: appKey, inbox: context.inbox, devices: devices) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let ids): registrationIds = ids
        }

        var random = RandomBytes()
        let msgId = overrideMsgId ?? String(UInt64.random(in: 1_000_000_000_000_000...9_000_000_000_000_000, using: &random))
        kept["sendno"] = sendno
        kept["msg_id"] = msgId
        if let overrideMsgId { kept["override_msg_id"] = overrideMsgId }
        if !registrationIds.isEmpty { kept["registration_id"] = registrationIds.joined(separator: ",") }
        // One device shows the push once; it is recorded under the first id it reaches.
        var push = PushRequest(
            payloadText: tape.text, app: appKey, parsed: tape.root, via: .jpush, token: registrationIds.first, headers: kept)
        do {
            // Decoded once, here, and handed on: the inbox takes it as it is.
            push.decoded = try PushDecoder().decode(push)
        } catch {
            return .failure(JPushRefusal(.invalidParameter, error.message))
        }
        return .success(Accepted(push: push, sendno: sendno, msgId: msgId, validateOnly: path == Self.validatePath))
    }

    /// The bytes of `"ios":{…}` as JPush hands it on for iOS: `notification.ios`, its `alert`
    /// taken from `notification.alert` when it has none; compact JSON in UTF-8 (JPush: "一个汉字
    /// 占用 3 个字节").
    static func iosNotificationBytes(_ notification: JSONView?) -> Int {
        guard let notification, notification.kind == .object else { return 0 }
        let label = #""ios":"#.utf8.count
        let alert = notification["alert"].map { #","alert":"#.utf8.count + compactBytes($0) } ?? 0
        guard let ios = notification["ios"] else { return alert == 0 ? 0 : label + 2 + alert - 1 }
        return label + compactBytes(ios) + (ios.kind == .object && ios["alert"] == nil ? alert : 0)
    }

    /// How many bytes `value` takes written as compact JSON with its text in UTF-8: whitespace
    /// outside strings is not counted, and a `\uXXXX` escape counts as the UTF-8 of its
    /// character — what a backend's JSON library wrote (Python's escapes every CJK character)
    /// does not change it. Only strings with escapes are read again (`escapedStringBytes`).
    static func compactBytes(_ value: JSONView) -> Int {
        value.compactSize(escaped: escapedStringBytes)
    }

    /// The compact UTF-8 size of a string written with escapes, from its bytes as written
    /// (quotes included, already checked by the parser): `\"`, `\\` and the one-letter escapes
    /// stay two bytes, a `\uXXXX` counts as its character's UTF-8 (a surrogate pair's two escapes
    /// make 4 bytes) but stays an escape for a control character, `"` or `\`.
    private static func escapedStringBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var index = 0
        let end = bytes.count
        while index < end {
            // Plain ASCII text, skipped as the parser skips it (by words and blocks), a byte each.
            let plainEnd = JSONParser.plainASCIIPrefixEnd(bytes, from: index)
            count += plainEnd - index
            index = plainEnd
            guard index < end else { break }
            if bytes[index] == 0x5C, index + 5 < end, bytes[index + 1] == 0x75 {
                let unit = hexValue(bytes, index + 2)
                switch unit {
                case 0..<0x80: count += unit == 0x22 || unit == 0x5C ? 2 : unit < 0x20 ? 6 : 1
                case 0x80..<0x800: count += 2
                case 0xD800..<0xDC00: count += 4
                case 0xDC00..<0xE000: break
                default: count += 3
                }
                index += 6
            } else if bytes[index] == 0x5C {
                count += 2
                index += 2
            } else {
                count += 1
                index += 1
            }
        }
        return count
    }

    private static func hexValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var value = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: Int
            switch byte {
            case 0x30...0x39: digit = Int(byte - 0x30)
            case 0x41...0x46: digit = Int(byte - 0x41 + 10)
            case 0x61...0x66: digit = Int(byte - 0x61 + 10)
            default: digit = 0
            }
            value = value * 16 + digit
        }
        return value
    }

    /// An appKey is letters, digits, `-`, `_` and `.` (JPush's are 24 hex digits; names are fine here).
    static func isAppKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 128 && key.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// What is wrong with `notification.ios`, if anything (as JPush's 1003 names it): an object
    /// whose `alert` is a string or an object and whose `badge` is an integer ≥ 0 or
    /// `"+N"`/`"-N"`/`"N"`.
    static func iosProblem(_ ios: JSONView?) -> JPushRefusal? {
        guard let ios else { return nil }
        guard ios.kind == .object else { return .invalid("ios", "notification.ios must be an object.") }
        if let alert = ios["alert"], alert.kind != .string && alert.kind != .object {
            return .invalid("alert", "notification.ios.alert must be a string or an object.")
        }
        let badgeProblem = JPushRefusal.invalid("badge", "notification.ios.badge must be an integer ≥ 0 or \"+N\"/\"-N\".")
        guard let badge = ios["badge"] else { return nil }
        switch badge.kind {
        case .number:
            guard let value = badge.number?.int, value >= 0 else { return badgeProblem }
        case .string:
            let text = badge.string ?? ""
            let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.utf8.count <= 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return badgeProblem }
        default: return badgeProblem
        }
        return nil
    }
}
