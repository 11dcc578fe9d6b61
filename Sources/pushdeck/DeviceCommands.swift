import Foundation
import PushCore
import PushGateway
import PushClient
import PushTUI
import PushJSON

/// `pushdeck device …` and `pushdeck key …`: the gateway's devices and the
/// vendors' keys, kept by the running pushdeck.
enum DeviceCommands {
    // MARK: - device

    static func device(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let app = try arguments.option("--app")
        let vendorName = try arguments.option("--vendor")
        let tags = try arguments.options("--tag")
        let alias = try arguments.option("--alias")
        let platformName = try arguments.option("--platform")
        let kindName = try arguments.option("--kind")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        let actions = DeviceCommand.actions.joined(separator: ", ")
        guard let action = words.first else { throw UsageError("give an action: \(actions)", command: "device") }
        func token(fcm: Bool = true) throws(UsageError) -> String {
            guard words.count == 2 else { throw UsageError("device \(action) takes one TOKEN", command: "device") }
            // An FCM registration token (it has a ':'), taken exactly as written.
            if fcm, words[1].contains(":"), Device.isFCMToken(Substring(words[1])) { return words[1] }
            guard let token = Device.normalizedToken(words[1]) else {
                throw UsageError("'\(words[1])' is not a device token (APNs: hex digits, an even number of them; JPush/Getui: letters, digits, - and _)", command: "device")
            }
            return token
        }
        func refuseOptions() throws(UsageError) {
            if app != nil || vendorName != nil || !tags.isEmpty || alias != nil || platformName != nil || kindName != nil {
                throw UsageError("--app, --vendor, --platform, --kind, --tag and --alias go with device add", command: "device")
            }
        }
        let command: DeviceCommand
        switch action {
        case "add":
            var vendor = Vendor.apns
            if let vendorName {
                guard let known = Vendor(rawValue: vendorName) else {
                    throw UsageError("--vendor takes apns, jpush, getui or fcm, not '\(vendorName)'", command: "device")
                }
                vendor = known
            }
            let added: String
            if vendor == .fcm {
                guard words.count == 2 else { throw UsageError("device add takes one TOKEN", command: "device") }
                guard Device.isFCMToken(Substring(words[1])) else {
                    throw UsageError("'\(words[1].prefix(60))' is not an FCM registration token: letters, digits, ':', '-' and '_'", command: "device")
                }
                added = words[1]
            } else {
                added = try token(fcm: false)
            }
            guard let app, !app.isEmpty else { throw UsageError("device add needs --app BUNDLE (the app the token belongs to)", command: "device") }
            var platform: DevicePlatform?
            if let platformName {
                guard vendor == .fcm else { throw UsageError("--platform goes with --vendor fcm", command: "device") }
                guard let known = DevicePlatform(rawValue: platformName) else {
                    throw UsageError("--platform takes android or ios, not '\(platformName)'", command: "device")
                }
                platform = known
            }
            for name in tags + (alias.map { [$0] } ?? []) where !Device.isTagOrAlias(name) {
                throw UsageError("'\(name.prefix(60))' is not a tag or alias: 1 to 40 bytes, no control characters", command: "device")
            }
            var kind = DeviceKind.app
            if let kindName {
                guard let known = DeviceKind(rawValue: kindName) else {
                    throw UsageError("--kind takes \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(kindName)'", command: "device")
                }
                guard vendor == .apns, Device.isHexToken(added) || !known.isLiveActivity else {
                    throw UsageError("--kind \(known.rawValue) is a Live Activity token: an APNs token (hex digits)", command: "device")
                }
                kind = known
            }
            command = .add(Device(token: added, app: app, vendor: vendor, tags: tags, alias: alias, platform: platform, kind: kind))
        case "list":
            try refuseOptions()
            guard words.count == 1 else { throw UsageError("device list takes no TOKEN", command: "device") }
            command = .list
        case "remove":
            try refuseOptions()
            command = .remove(token: try token())
        case "unregister":
            try refuseOptions()
            command = .unregister(token: try token())
        case "online", "offline":
            // Without TOKEN: the socket's default device (pushes with no known device token).
            try refuseOptions()
            command = .setOffline(token: words.count == 1 ? nil : try token(), action == "offline")
        default:
            throw UsageError("unknown action '\(action)'; device takes \(actions)", command: "device")
        }
        let client = try SocketClient(path: socket)
        let (reply, line) = try ClientCommands.ask(Request.device(command), client)
        if case .list = command {
            guard case .devices(let devices, let defaultOffline) = reply else { throw Failure.unreadable(reply) }
            // `--json` prints the devices as the server wrote them, every field of each.
            writeLine(json ? JSON.array(line.members.first { $0.key == "devices" }?.value.arrayValue ?? []).compactText
                : table(devices, defaultDevice: defaultOffline ? "offline" : "online"))
        } else {
            ClientCommands.printReply(line, json: json, sentence(command, reply: reply))
        }
        return 0
    }

    /// What a device command did, in one line.
    static func sentence(_ command: DeviceCommand, reply: Reply) -> String {
        switch command {
        case .add(let added):
            var line = "device \(added.token) added: \(added.vendor.rawValue), app \(added.app)"
            if let platform = added.platform { line += ", " + platform.rawValue }
            if !added.tags.isEmpty { line += ", tags " + added.tags.joined(separator: ",") }
            if let alias = added.alias { line += ", alias " + alias }
            if added.kind != .app { line += ", kind " + added.kind.rawValue }
            return line
        case .list: return ""
        case .remove(let token): return "device \(token) removed"
        case .unregister(let token):
            var since = ""
            if case .device(let device) = reply, let date = device.unregisteredAt { since = " since \(RFC3339.string(from: date))" }
            return "device \(token) unregistered\(since): APNs answers 410 Unregistered"
        case .setOffline(let token, let offline):
            let name = token.map { "device \($0)" } ?? "the default device (socket pushes without a device token)"
            return offline ? "\(name) is offline: its pushes are stored until 'pushdeck device online'" : "\(name) is online"
        case .topics(let tokens, let topic, let subscribe):
            return "\(tokens.count) device(s) \(subscribe ? "subscribed to" : "unsubscribed from") topic \(topic)"
        }
    }

    /// The device list as a person reads it: one aligned row per device with the reply's words
    /// (`online`/`offline`, when it was unregistered, its tags and alias), then the socket's
    /// default device.
    static func table(_ devices: [Device], defaultDevice: String = "online") -> String {
        let defaultLine = "default device (socket pushes without a device token): \(defaultDevice)"
        guard !devices.isEmpty else {
            return "no devices (a push through the gateway registers its token; or 'pushdeck device add')\n" + defaultLine
        }
        let rows = devices.map { device -> [String] in
            [
                device.token, device.app, device.vendor.rawValue, device.offline ? "offline" : "online",
                device.unregisteredAt.map(RFC3339.string(from:)) ?? "-",
                device.tags.isEmpty ? "-" : device.tags.joined(separator: ","), device.alias ?? "-",
            ]
        }
        return TextTable.render(header: ["TOKEN", "APP", "VENDOR", "STATE", "UNREGISTERED", "TAGS", "ALIAS"], rows: rows)
            + "\n" + defaultLine
    }

    // MARK: - key

    static func key(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let keyId = try arguments.option("--key-id")
        let team = try arguments.option("--team")
        let p8 = try arguments.option("--p8")
        let appKey = try arguments.option("--app-key")
        let appId = try arguments.option("--app-id")
        let masterSecret = try arguments.option("--master-secret")
        let serviceAccount = try arguments.option("--service-account")
        let app = try arguments.option("--app")
        let environmentText = try arguments.option("--environment")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        let actions = KeyCommand.actions.joined(separator: ", ")
        var environment: APNsEnvironment?
        if let environmentText {
            guard let known = APNsEnvironment(rawValue: environmentText) else {
                throw UsageError("--environment must be sandbox or production (leave it out for both); got \(environmentText)", command: "key")
            }
            environment = known
        }
        guard let action = words.first else { throw UsageError("give an action: \(actions)", command: "key") }
        let given = [keyId, team, p8, appKey, appId, masterSecret, serviceAccount, app, environmentText].contains { $0 != nil }
        let command: KeyCommand
        switch action {
        case "add":
            guard words.count == 2, let vendor = Vendor(rawValue: words[1]) else {
                throw UsageError("key add takes a vendor: apns, jpush, getui or fcm", command: "key")
            }
            if vendor == .fcm {
                let others = [("--key-id", keyId), ("--team", team), ("--p8", p8), ("--app-key", appKey), ("--app-id", appId), ("--master-secret", masterSecret)]
                if let extra = others.first(where: { $0.1 != nil }) { throw UsageError("\(extra.0) does not go with key add fcm", command: "key") }
                command = .add(try fcmKey(serviceAccount: serviceAccount, app: app))
            } else {
                if let extra = [("--service-account", serviceAccount), ("--app", app)].first(where: { $0.1 != nil }) {
                    throw UsageError("\(extra.0) goes with key add fcm", command: "key")
                }
                if vendor != .apns && environment != nil { throw UsageError("--environment goes with key add apns", command: "key") }
                var key = try providerKey(vendor, keyId: keyId, team: team, p8: p8, appKey: appKey, appId: appId, masterSecret: masterSecret)
                key.environment = environment
                command = .add(key)
            }
        case "list":
            guard words.count == 1, !given else { throw UsageError("key list takes nothing more", command: "key") }
            command = .list
        case "remove":
            guard words.count == 2, !given else { throw UsageError("key remove takes one ID", command: "key") }
            command = .remove(id: words[1])
        default:
            throw UsageError("unknown action '\(action)'; key takes \(actions)", command: "key")
        }
        let client = try SocketClient(path: socket)
        let (reply, replyLine) = try ClientCommands.ask(Request.key(command), client)
        if case .list = command {
            guard case .keys(let keys) = reply else { throw Failure.unreadable(reply) }
            if json {
                writeLine(JSON.array(keys.map(\.wireJSON)).compactText)
            } else if keys.isEmpty {
                writeLine("no keys (the gateway takes any well-formed credential until one is added)")
            } else {
                writeLine(TextTable.render(header: ["ID", "VENDOR", "TEAM", "APP KEY"], rows: keys.map { key in
                    [key.id, key.vendor.rawValue, key.team ?? "-", key.appKey ?? "-"]
                }))
            }
        } else {
            let line: String
            switch command {
            case .add(let key):
                if key.vendor == .fcm {
                    let project = key.team ?? ""
                    line = "fcm key \(key.id) added (project \(project), default app \(key.appKey ?? project)): /token now takes only assertions it signed"
                } else {
                    let detail = [key.team.map { "team \($0)" }, key.appKey.map { "appKey \($0)" },
                                  key.environment.map { "\($0.rawValue) only" }].compactMap { $0 }
                    line = "\(key.vendor.rawValue) key \(key.id) added" + (detail.isEmpty ? "" : " (" + detail.joined(separator: ", ") + ")")
                        + (key.vendor == .apns ? ": gateway requests must now carry a provider token it signed" : "")
                }
            case .remove(let id): line = "key \(id) removed"
            case .list: line = ""
            }
            ClientCommands.printReply(replyLine, json: json, line)
        }
        return 0
    }

    /// `key add fcm --service-account FILE [--app PACKAGE]`: the key file Firebase's console hands
    /// out, checked (a service account's, with an RSA private key) before it is sent.
    private static func fcmKey(serviceAccount: String?, app: String?) throws -> ProviderKey {
        guard let serviceAccount else {
            throw UsageError("key add fcm needs --service-account FILE (the JSON key file of Firebase's console: Project settings, Service accounts)", command: "key")
        }
        if let app, app.isEmpty { throw UsageError("--app takes a package name, not nothing", command: "key") }
        guard let data = FileManager.default.contents(atPath: serviceAccount) else {
            throw Failure(code: 2, message: "cannot read \(serviceAccount): no such file or not readable")
        }
        do {
            return try ServiceAccount(parsing: Array(data)).providerKey(app: app)
        } catch {
            throw Failure(code: 2, message: "\(serviceAccount) is not a service account's key file: \(error.description)")
        }
    }

    /// The key `key add VENDOR` describes, checked before it is sent (an APNs .p8 must be a P-256 key).
    private static func providerKey(
        _ vendor: Vendor, keyId: String?, team: String?, p8: String?, appKey: String?, appId: String?, masterSecret: String?
    ) throws -> ProviderKey {
        func refuse(_ options: [(String, String?)]) throws(UsageError) {
            if let extra = options.first(where: { $0.1 != nil }) {
                throw UsageError("\(extra.0) does not go with key add \(vendor.rawValue)", command: "key")
            }
        }
        switch vendor {
        case .apns:
            try refuse([("--app-key", appKey), ("--app-id", appId), ("--master-secret", masterSecret)])
            guard let keyId, let team, let p8 else {
                throw UsageError("key add apns needs --key-id K --team T --p8 FILE", command: "key")
            }
            guard let data = FileManager.default.contents(atPath: p8) else {
                throw Failure(code: 2, message: "cannot read \(p8): no such file or not readable")
            }
            let pem = String(decoding: data, as: UTF8.self)
            do {
                try ES256.checkPrivateKey(pem: pem)
            } catch {
                throw Failure(code: 2, message: "\(p8) is not an APNs signing key: \(error)")
            }
            return ProviderKey(id: keyId, vendor: .apns, team: team, secret: pem)
        case .jpush:
            try refuse([("--key-id", keyId), ("--team", team), ("--p8", p8), ("--app-id", appId)])
            guard let appKey, let masterSecret else {
                throw UsageError("key add jpush needs --app-key K --master-secret S", command: "key")
            }
            return ProviderKey(id: appKey, vendor: .jpush, secret: masterSecret)
        case .getui:
            try refuse([("--key-id", keyId), ("--team", team), ("--p8", p8)])
            guard let appId, let appKey, let masterSecret else {
                throw UsageError("key add getui needs --app-id I --app-key K --master-secret S", command: "key")
            }
            return ProviderKey(id: appId, vendor: .getui, appKey: appKey, secret: masterSecret)
        case .fcm:
            return try fcmKey(serviceAccount: nil, app: nil)
        }
    }
}
