import PushJSON

// MARK: - The `device` and `key` ops on the wire: the gateway's devices and the vendors' keys

extension RequestFields {
    /// A required non-empty string.
    func requiredText(_ key: String, _ what: String) throws(WireError) -> String {
        guard let value = object[key], value != .null else {
            throw WireError("\"\(key)\" is required for op \(op) \(object["action"]?.stringValue ?? ""): \(what)")
        }
        guard case .string(let text) = value, !text.isEmpty else {
            throw WireError("\"\(key)\" must be \(what); got \(Self.describe(value))")
        }
        return text
    }

    /// The op's `action`, one of `actions`.
    static func action(of op: String, _ object: JSONObject, _ actions: [String]) throws(WireError) -> String {
        guard case .string(let action)? = object["action"], actions.contains(action) else {
            let got = object["action"].map(describe) ?? "nothing"
            throw WireError("\"action\" must be one of \(actions.joined(separator: ", ")) for op \(op); got \(got)")
        }
        return action
    }

    /// A device token: APNs hex digits (lower-cased), or a JPush registration id / Getui cid.
    func token(_ key: String) throws(WireError) -> String {
        let token = try requiredText(key, "a device token (hex digits, or a JPush registration id / Getui cid)")
        // An FCM registration token (it has a ':'), taken as it is.
        if token.contains(":"), Device.isFCMToken(Substring(token)) { return token }
        guard let normalized = Device.normalizedToken(token) else {
            throw WireError("\"\(key)\" must be a device token: hex digits, or a registration id / cid of letters, digits, '-' and '_'; got \"\(token)\"")
        }
        return normalized
    }
}

extension DeviceCommand {
    public static let actions = ["add", "list", "remove", "unregister", "online", "offline"]
    /// The actions of the wire: those, and FCM's topic management (the gateway's, no command's).
    static let wireActions = actions + ["subscribe", "unsubscribe"]

    /// Decodes a `{"op":"device","action":…}` object.
    init(_ object: JSONObject) throws(WireError) {
        switch try RequestFields.action(of: "device", object, Self.wireActions) {
        case let action where action == "subscribe" || action == "unsubscribe":
            let fields = try RequestFields(op: "device", object, accepted: ["action", "tokens", "topic"])
            let topic = try fields.requiredText("topic", "an FCM topic name")
            guard FCMCondition.isTopicName(Substring(topic)) else {
                throw WireError("\"topic\" must be a topic name of [a-zA-Z0-9-_.~%]; got \"\(topic.prefix(60))\"")
            }
            let items = object["tokens"]?.arrayValue ?? []
            let tokens = items.compactMap(\.stringValue)
            guard !tokens.isEmpty, tokens.count == items.count, tokens.allSatisfy({ Device.isFCMToken(Substring($0)) }) else {
                throw WireError("\"tokens\" must be a non-empty list of FCM registration tokens")
            }
            self = .topics(tokens: tokens, topic: topic, subscribe: action == "subscribe")
        case "add":
            let fields = try RequestFields(op: "device", object, accepted: ["action", "token", "app", "vendor", "tags", "alias", "platform", "kind"])
            let vendor = try fields.choice("vendor", Vendor.self) ?? .apns
            let token: String
            if vendor == .fcm, case .string(let text)? = object["token"], Device.isFCMToken(Substring(text)) {
                token = text  // FCM tokens are taken exactly as written (':', '-', '_', any case).
            } else {
                token = try fields.token("token")
            }
            let app = try fields.requiredText("app", "the app the token belongs to (bundle id, appKey or appId)")
            var tags: [String] = []
            if let value = object["tags"], value != .null {
                let items = value.arrayValue ?? []
                let texts = items.compactMap(\.stringValue)
                guard value.arrayValue != nil, texts.count == items.count, texts.allSatisfy(Device.isTagOrAlias) else {
                    throw WireError("\"tags\" must be a list of tags, each 1 to 40 bytes with no control characters; got \(RequestFields.describe(value))")
                }
                tags = texts
            }
            let alias = object["alias"].isAbsent ? nil : try fields.requiredText("alias", "the device's alias")
            if let alias, !Device.isTagOrAlias(alias) {
                throw WireError("\"alias\" must be 1 to 40 bytes with no control characters; got \"\(alias.prefix(60))\"")
            }
            let platform = try fields.choice("platform", DevicePlatform.self)
            if platform != nil && vendor != .fcm { throw WireError("\"platform\" goes with \"vendor\":\"fcm\"") }
            let kind = try fields.choice("kind", DeviceKind.self) ?? .app
            if kind.isLiveActivity && vendor != .apns {
                throw WireError("\"kind\": \(kind.rawValue) is a Live Activity token, which only APNs has; got vendor \(vendor.rawValue)")
            }
            if kind.isLiveActivity && !Device.isHexToken(token) {
                throw WireError("\"kind\": \(kind.rawValue) needs an APNs token (hex digits); got \"\(token)\"")
            }
            self = .add(Device(token: token, app: app, vendor: vendor, tags: tags, alias: alias, platform: platform, kind: kind))
        case "list":
            _ = try RequestFields(op: "device", object, accepted: ["action"])
            self = .list
        case "remove":
            let fields = try RequestFields(op: "device", object, accepted: ["action", "token"])
            self = .remove(token: try fields.token("token"))
        case let state where state == "online" || state == "offline":
            // Without a token: the socket's default device.
            let fields = try RequestFields(op: "device", object, accepted: ["action", "token"])
            self = .setOffline(token: object["token"].isAbsent ? nil : try fields.token("token"), state == "offline")
        default:
            let fields = try RequestFields(op: "device", object, accepted: ["action", "token"])
            self = .unregister(token: try fields.token("token"))
        }
    }

    /// The request object a client sends for this command.
    public var wireObject: JSONObject {
        switch self {
        case .add(let device):
            {
                var object: JSONObject = [
                    "op": "device", "action": "add", "token": .string(device.token), "app": .string(device.app),
                    "vendor": .string(device.vendor.rawValue),
                ]
                if !device.tags.isEmpty { object["tags"] = .array(device.tags.map(JSON.string)) }
                if let alias = device.alias { object["alias"] = .string(alias) }
                if device.vendor == .fcm, let platform = device.platform { object["platform"] = .string(platform.rawValue) }
                if device.kind != .app { object["kind"] = .string(device.kind.rawValue) }
                return object
            }()
        case .list: ["op": "device", "action": "list"]
        case .remove(let token): ["op": "device", "action": "remove", "token": .string(token)]
        case .unregister(let token): ["op": "device", "action": "unregister", "token": .string(token)]
        case .setOffline(let token, let offline):
            token.map { ["op": "device", "action": offline ? "offline" : "online", "token": .string($0)] }
                ?? ["op": "device", "action": offline ? "offline" : "online"]
        case .topics(let tokens, let topic, let subscribe):
            ["op": "device", "action": subscribe ? "subscribe" : "unsubscribe", "tokens": .array(tokens.map(JSON.string)), "topic": .string(topic)]
        }
    }
}

extension KeyCommand {
    public static let actions = ["add", "list", "remove"]

    /// Decodes a `{"op":"key","action":…}` object.
    init(_ object: JSONObject) throws(WireError) {
        switch try RequestFields.action(of: "key", object, Self.actions) {
        case "add":
            let fields = try RequestFields(
                op: "key", object, accepted: ["action", "vendor", "id", "team", "appKey", "secret", "environment"])
            let vendor = try fields.choice("vendor", Vendor.self) ?? .apns
            let id = try fields.requiredText("id", "the key's id (APNs: the 10-character key id)")
            let secret = try fields.requiredText("secret", "the key itself (APNs: the .p8 file's PEM text)")
            let team = object["team"].isAbsent ? nil : try fields.requiredText("team", "the team id")
            let appKey = object["appKey"].isAbsent ? nil : try fields.requiredText("appKey", "the app key")
            if vendor == .apns && team == nil {
                throw WireError("\"team\" is required for an APNs key: the team id the provider token's iss names")
            }
            let environment = try fields.choice("environment", APNsEnvironment.self)
            if vendor != .apns && environment != nil { throw WireError("\"environment\" goes with an APNs key only") }
            self = .add(ProviderKey(id: id, vendor: vendor, team: team, appKey: appKey, secret: secret, environment: environment))
        case "list":
            _ = try RequestFields(op: "key", object, accepted: ["action"])
            self = .list
        default:
            let fields = try RequestFields(op: "key", object, accepted: ["action", "id"])
            self = .remove(id: try fields.requiredText("id", "the key's id"))
        }
    }

    /// The request object a client sends for this command.
    public var wireObject: JSONObject {
        switch self {
        case .add(let key):
            var object: JSONObject = ["op": "key", "action": "add", "vendor": .string(key.vendor.rawValue), "id": .string(key.id)]
            if let team = key.team { object["team"] = .string(team) }
            if let appKey = key.appKey { object["appKey"] = .string(appKey) }
            object["secret"] = .string(key.secret)
            if let environment = key.environment { object["environment"] = .string(environment.rawValue) }
            return object
        case .list: return ["op": "key", "action": "list"]
        case .remove(let id): return ["op": "key", "action": "remove", "id": .string(id)]
        }
    }
}
