import Foundation
import PushCore
import PushJSON

/// JPush's Device API v3, the part that sets what audiences find a device by:
/// `GET /v3/devices/{registration_id}` (its tags and alias) and `POST /v3/devices/{registration_id}`
/// with `{"tags":{"add":[…],"remove":[…]}` or `""` to clear, `"alias":"…"` or `""` to clear}`, as
/// github.com/jpush/jpush-docs `zh/jpush/server/push/rest_api_v3_device.md` ("设置设备的别名与
/// 标签") defines them: 200 with no body. `mobile` is taken and not kept.
///
/// JPush's limits hold, each refused with the Device API's 7002 (请求参数非法, "需严格遵守文档参数类型与值说明":
/// its table has no code of its own for them) and the device left as it was — the whole request
/// is checked before any of it is applied:
/// - a device holds at most 1 000 tags, an add or a remove at most 100 tags of at most 1 000
///   bytes together (the same page: "一次 add/remove tag 的上限均为 100 个，且总长度均不能超过 1000 字节",
///   "一个设备（registrationID）能设置的 tag 上限为 1000 个");
/// - a tag or an alias is 1 to 40 bytes of UTF-8 made of letters, digits, `_`, Chinese characters
///   and `@!#$&*+=.|` (the tag and alias calls of `zh/jpush/client/Android/android_api.md` in the
///   same repository: "有效的标签组成：字母（区分大小写）、数字、下划线、汉字、特殊字符@!#$&*+=.|",
///   "每个 tag 命名长度限制为 40 字节").
///
/// A change goes into the inbox as `device add` would make it (the device keeps its app, state
/// and registration); under `--devices open` an unknown registration id is registered to the
/// appKey, as its first push would.
struct JPushDeviceAPI {
    static let pathPrefix = "/v3/devices/"
    /// JPush: one add or remove takes at most 100 tags, of at most 1 000 bytes together.
    static let maxTagsPerChange = 100
    static let maxBytesPerChange = 1000
    /// JPush: a device holds at most 1 000 tags.
    static let maxTagsPerDevice = 1000
    /// JPush: a tag or an alias is at most 40 bytes of UTF-8.
    static let maxNameBytes = 40

    var devices: DevicePolicy
    var credentials: JPushCredentials

    func decide(_ request: HTTPRequest, path: String, context: GatewayContext) -> GatewayDecision {
        let id = String(path.dropFirst(Self.pathPrefix.count))
        guard let token = Device.normalizedToken(id), token == id else {
            return .respond(JPushDeviceRefusal(.invalidParameter, "'\(id.prefix(64))' is not a registration id").response)
        }
        let appKey: String
        switch credentials.parse(request.value("authorization")) {
        case .failure(let refusal):
            return .respond(JPushDeviceRefusal(request.values("authorization").isEmpty ? .noCredentials : .authenticationFailed, refusal.message).response)
        case .success(let (key, secret)):
            guard JPushRoutes.isAppKey(key) else { return .respond(JPushDeviceRefusal(.invalidAppKey, "'\(key.prefix(64))'").response) }
            if let registered = context.inbox.providerKeys[key], registered.vendor == .jpush, registered.secret != secret {
                return .respond(JPushDeviceRefusal(.authenticationFailed, "the master secret does not match appKey \(key)").response)
            }
            appKey = key
        }
        let known = context.inbox.devices[token]
        if let known, known.vendor != .jpush || known.app != appKey {
            return .respond(JPushDeviceRefusal(.invalidParameter, "registration id \(token) is not a device of appKey \(appKey)").response)
        }
        switch request.method {
        case "GET":
            guard let known else {
                return .respond(JPushDeviceRefusal(.invalidParameter, "registration id \(token) is unknown").response)
            }
            let body: JSON = .object(["tags": .array(known.tags.map(JSON.string)), "alias": .string(orNull: known.alias), "mobile": .null])
            return .respond(HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json")], body: Array(body.compactText.utf8)))
        case "POST":
            guard known != nil || devices == .open else {
                return .respond(JPushDeviceRefusal(.invalidParameter, "registration id \(token) is unknown ('pushdeck device add \(token) --app \(appKey) --vendor jpush', or --devices open)").response)
            }
            var device = known ?? Device(token: token, app: appKey, vendor: .jpush)
            switch Self.change(request.body, of: device) {
            case .failure(let refusal): return .respond(refusal.response)
            case .success(let changed): device = changed
            }
            return .request(.device(.add(device))) { reply in
                reply.isOK
                    ? HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json")])
                    : JPushDeviceRefusal(.internalError).response
            }
        default:
            return .respond(JPushDeviceRefusal(.invalidParameter, "\(request.method) is not served; GET or POST /v3/devices/{registration_id}").response)
        }
    }

    /// The device with the body's tags and alias applied, or the refusal of the first thing
    /// wrong with the body (then nothing of it applies).
    static func change(_ body: [UInt8], of device: Device) -> Result<Device, JPushDeviceRefusal> {
        guard let tape = try? JSONTape.parse(body), tape.root.kind == .object else {
            return .failure(JPushDeviceRefusal(.invalidParameter, "the body is not a JSON object"))
        }
        var tags = device.tags
        if let tagsValue = tape.root["tags"] {
            if tagsValue.kind == .string && tagsValue.string == "" {
                tags = []
            } else {
                guard tagsValue.kind == .object else { return .failure(JPushDeviceRefusal(.invalidParameter, "tags must be {\"add\":[…],\"remove\":[…]} or \"\"")) }
                var changes: [String: [String]] = [:]
                for name in ["add", "remove"] {
                    guard let list = tagsValue[name] else { continue }
                    let items = list.elements
                    let texts = items.compactMap(\.string)
                    guard list.kind == .array, texts.count == items.count, texts.count <= Self.maxTagsPerChange,
                          texts.reduce(0, { $0 + $1.utf8.count }) <= Self.maxBytesPerChange
                    else {
                        return .failure(JPushDeviceRefusal(
                            .invalidParameter, "tags.\(name) must be a list of at most \(Self.maxTagsPerChange) tags of at most \(Self.maxBytesPerChange) bytes together"))
                    }
                    if let bad = texts.first(where: { !Self.isTagOrAlias($0) }) {
                        return .failure(JPushDeviceRefusal(.invalidParameter, "tag '\(bad.prefix(40))' \(Self.nameRule)"))
                    }
                    changes[name] = texts
                }
                // One pass over the device's tags, however many the request names.
                let removed = Set(changes["remove"] ?? [])
                var kept = Set(tags)
                kept.subtract(removed)
                kept.formUnion(changes["add"] ?? [])
                // A device already past the limit (its tags set by `device add`) may only shrink.
                guard kept.count <= Self.maxTagsPerDevice || kept.count < tags.count else {
                    return .failure(JPushDeviceRefusal(
                        .invalidParameter, "a device holds at most \(Self.maxTagsPerDevice) tags; this one has \(tags.count) and would have \(kept.count)"))
                }
                tags = Array(kept)
            }
        }
        var alias = device.alias
        if let aliasValue = tape.root["alias"] {
            guard let text = aliasValue.string, text.isEmpty || Self.isTagOrAlias(text) else {
                return .failure(JPushDeviceRefusal(.invalidParameter, "alias must be a string (\"\" removes it) that \(Self.nameRule)"))
            }
            alias = text.isEmpty ? nil : text
        }
        return .success(Device(
            token: device.token, app: device.app, vendor: device.vendor, unregisteredAt: device.unregisteredAt, offline: device.offline,
            tags: tags, alias: alias))
    }

    static let nameRule = "is 1 to 40 bytes of letters, digits, _, Chinese characters and @!#$&*+=.|"

    /// Whether `text` is a tag or an alias as JPush takes them (see the type's comment).
    static func isTagOrAlias(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= Self.maxNameBytes && text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
            default: return "_@!#$&*+=.|".unicodeScalars.contains(scalar) || scalar.properties.isIdeographic
            }
        }
    }
}

/// The Device API's own codes ("业务返回码" of `rest_api_v3_device.md` in github.com/jpush/jpush-docs),
/// with their HTTP statuses and descriptions.
enum JPushDeviceError: Int, Sendable, CaseIterable {
    case internalError = 7000
    case noCredentials = 7001
    case invalidParameter = 7002
    case authenticationFailed = 7004
    case invalidAppKey = 7008
    case partlyInvalid = 7013
    case busy = 7030

    static let table: [JPushDeviceError: (status: Int, message: String)] = [
        .internalError: (500, "内部错误"),
        .noCredentials: (401, "校验信息为空"),
        .invalidParameter: (400, "请求参数非法"),
        .authenticationFailed: (401, "校验失败"),
        .invalidAppKey: (400, "appkey 不存在"),
        .partlyInvalid: (400, "部分请求参数非法"),
        .busy: (503, "系统繁忙，稍后重试"),
    ]

    var status: Int { Self.table[self]?.status ?? 500 }
    var message: String { Self.table[self]?.message ?? "内部错误" }
}

/// A Device API refusal: `{"error":{"code":7xxx,"message":"…"}}` with the code's status.
struct JPushDeviceRefusal: Error, Equatable {
    var error: JPushDeviceError
    var message: String

    init(_ error: JPushDeviceError, _ detail: String? = nil) {
        self.error = error
        self.message = detail.map { "\(error.message): \($0)" } ?? error.message
    }

    var response: HTTPResponse {
        let body: JSON = .object(["error": .object(["code": .number(JSONNumber(error.rawValue)), "message": .string(message)])])
        return HTTPResponse(status: error.status, headers: [HTTPHeader("content-type", "application/json")], body: Array(body.compactText.utf8))
    }
}
