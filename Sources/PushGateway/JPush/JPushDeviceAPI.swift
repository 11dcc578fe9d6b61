import Foundation
import PushCore
import PushJSON

/// JPush's Device API v3, the part that sets what audiences find a device by:
/// `GET /v3/devices/{registration_id}` (its tags and alias) and `POST /v3/devices/{registration_id}`
/// with `{"tags":{"add":[…],"remove":[…]}` or `""` to clear, `"alias":"…"` or `""` to clear}`, as
/// github.com/jpush/jpush-docs `zh/jpush/server/push/rest_api_v3_device.md` ("设置设备的别名与
/// 标签") defines them: 200 with no body, an add or remove at most 100 tags. `mobile` is taken
/// and not kept. A change goes into the inbox as `device add` would make it (the device keeps its
/// app, state and registration); under `--devices open` an unknown registration id is registered
/// to the appKey, as its first push would.
struct JPushDeviceAPI {
    static let pathPrefix = "/v3/devices/"
    /// JPush: one add or remove takes at most 100 tags.
    static let maxTagsPerChange = 100

    var devices: DevicePolicy
    var credentials: JPushCredentials

    func decide(_ request: HTTPRequest, path: String, context: GatewayContext) -> GatewayDecision {
        let id = String(path.dropFirst(Self.pathPrefix.count))
        guard let token = Device.normalizedToken(id), token == id else {
            return .respond(JPushDeviceRefusal(.invalidParameter, "'\(id.prefix(64))' is not a registration id").response)
        }
        let appKey: String
        switch credentials.parse(request.values("authorization").first) {
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

    /// The device with the body's tags and alias applied.
    static func change(_ body: [UInt8], of device: Device) -> Result<Device, JPushDeviceRefusal> {
        guard let tape = try? JSONTape.parse(body), tape.root.kind == .object else {
            return .failure(JPushDeviceRefusal(.invalidParameter, "the body is not a JSON object"))
        }
        var device = device
        if let tags = tape.root["tags"] {
            if tags.kind == .string && tags.string == "" {
                device.tags = []
            } else {
                guard tags.kind == .object else { return .failure(JPushDeviceRefusal(.invalidParameter, "tags must be {\"add\":[…],\"remove\":[…]} or \"\"")) }
                var changes: [String: [String]] = [:]
                for name in ["add", "remove"] {
                    guard let list = tags[name] else { continue }
                    let items = list.elements
                    let texts = items.compactMap(\.string)
                    guard list.kind == .array, texts.count == items.count, texts.count <= Self.maxTagsPerChange, texts.allSatisfy(Device.isTagOrAlias) else {
                        return .failure(JPushDeviceRefusal(
                            .invalidParameter, "tags.\(name) must be a list of at most \(Self.maxTagsPerChange) tags of 1 to 40 bytes"))
                    }
                    changes[name] = texts
                }
                device = Device(
                    token: device.token, app: device.app, vendor: device.vendor, unregisteredAt: device.unregisteredAt, offline: device.offline,
                    tags: device.tags.filter { !(changes["remove"] ?? []).contains($0) } + (changes["add"] ?? []), alias: device.alias)
            }
        }
        if let alias = tape.root["alias"] {
            guard let text = alias.string, text.isEmpty || Device.isTagOrAlias(text) else {
                return .failure(JPushDeviceRefusal(.invalidParameter, "alias must be a string of at most 40 bytes (\"\" removes it)"))
            }
            device.alias = text.isEmpty ? nil : text
        }
        return .success(device)
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
