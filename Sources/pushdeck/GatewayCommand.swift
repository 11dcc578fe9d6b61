import Foundation
import PushJSON
import PushCore
import PushGateway
import PushClient

/// `--gateway [HOST:PORT]`, `--tls-cert`, `--tls-key` of `ui` and `serve`.
struct GatewaySetup {
    var address: GatewayAddress
    var tls: TLSMaterial?
    var tlsFolder: String
    /// How long a Getui token lives (`--getui-token-seconds`, for tests; a day by default).
    var getuiTokenSeconds: TimeInterval = GetuiRoutes.defaultTokenSeconds
    /// How long a request may take from its first byte (`--request-timeout`, for tests).
    var limits = GatewayLimits()
    /// `--control-token`: the bearer token the control API wants (else loopback peers only).
    var controlToken: String?

    /// Nil when `--gateway` is not given (then `--tls-*` are refused as meaningless).
    init?(_ arguments: inout Arguments, environment: [String: String]) throws(UsageError) {
        let value = arguments.optionalValue("--gateway", bare: GatewayAddress.defaultValue)
        let certificate = try arguments.option("--tls-cert")
        let key = try arguments.option("--tls-key")
        let tokenSeconds = try arguments.option("--getui-token-seconds")
        let requestTimeout = try arguments.option("--request-timeout")
        let controlToken = try arguments.checkedOption("--control-token")
        guard let value else {
            if certificate != nil || key != nil {
                throw UsageError("--tls-cert and --tls-key go with --gateway", command: arguments.command)
            }
            if controlToken != nil {
                throw UsageError("--control-token goes with --gateway (the control API is on the gateway port)", command: arguments.command)
            }
            return nil
        }
        do {
            address = try GatewayAddress(parsing: value)
        } catch {
            throw UsageError("--gateway takes \(error.message.replacingOccurrences(of: "'\(value)' is not ", with: "")); got '\(value)'", command: arguments.command)
        }
        switch (certificate, key) {
        case (let certificate?, let key?): tls = TLSMaterial(certificatePath: certificate, keyPath: key)
        case (nil, nil): tls = nil
        default: throw UsageError("--tls-cert and --tls-key go together", command: arguments.command)
        }
        tlsFolder = TLSMaterial.folder(environment: environment)
        self.controlToken = controlToken
        if let tokenSeconds {
            guard let seconds = Double(tokenSeconds), seconds > 0, seconds <= GetuiRoutes.defaultTokenSeconds else {
                throw UsageError("--getui-token-seconds takes seconds from 0 to 86400; got '\(tokenSeconds)'", command: arguments.command)
            }
            getuiTokenSeconds = seconds
        }
        if let requestTimeout {
            let defaultSeconds = limits.requestTimeout / 1000
            guard let seconds = Double(requestTimeout), seconds > 0, seconds <= Double(defaultSeconds) else {
                throw UsageError(
                    "--request-timeout takes seconds from 0 to \(defaultSeconds); got '\(requestTimeout)'", command: arguments.command)
            }
            limits.requestTimeout = Int64((seconds * 1000).rounded())
        }
    }

    /// Makes (or reuses) the certificate and listens.
    func start(devices: DevicePolicy, log: @escaping @Sendable (String) -> Void) throws -> Gateway {
        let material = try tls ?? TLSMaterial.local(in: tlsFolder)
        var configuration = GatewayConfiguration(
            address: address, certificatePath: material.certificatePath, keyPath: material.keyPath, caPath: material.caPath)
        configuration.limits = limits
        return try Gateway(configuration: configuration, routes: ProviderRoutes(devices: devices, getuiTokenSeconds: getuiTokenSeconds, controlToken: controlToken),
            log: log)
    }
}

/// `pushdeck gateway [ca | token [--key-id K] [--team T] | credentials VENDOR [--json]]`: asks the
/// running pushdeck where its gateway listens, or what a backend calls it with.
enum GatewayCommand {
    /// The vendors `credentials` names.
    static let credentialVendors = Vendor.allCases.map(\.rawValue)

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let keyId = try arguments.option("--key-id")
        let team = try arguments.option("--team")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        let word = words.first
        if (keyId != nil || team != nil) && word != "token" {
            throw UsageError("--key-id and --team go with 'token'", command: arguments.command)
        }
        if json && word != "credentials" { throw UsageError("--json goes with 'credentials'", command: arguments.command) }
        switch word {
        case nil, "ca":
            guard words.count == 1 || word == nil else { throw UsageError("'ca' takes nothing more", command: arguments.command) }
            let reply = try ClientCommands.typedReply(.gateway, socket: socket)
            guard case .gateway(let address, let ca) = reply else { throw ClientCommands.unexpected(reply, to: "gateway") }
            if word == "ca" {
                guard let ca else {
                    throw Failure.refused("the gateway uses the certificate given with --tls-cert; pushdeck made no CA")
                }
                writeLine(ca)
            } else {
                writeLine(address)
            }
        case "token":
            guard words.count == 1 else { throw UsageError("'token' takes no more words (--key-id K, --team T)", command: arguments.command) }
            let query = CredentialsQuery(vendor: .apns, keyId: try nonEmpty(keyId, "--key-id", arguments), team: try nonEmpty(team, "--team", arguments))
            let reply = try ClientCommands.typedReply(.credentials(query), socket: socket)
            guard case .credentials(.apns(_, _, let token, _), _) = reply else { throw ClientCommands.unexpected(reply, to: "gateway token") }
            writeLine(token)
        case "credentials":
            let vendors = SettingValue.either(credentialVendors)
            guard words.count == 2, credentialVendors.contains(words[1]) else {
                throw UsageError("'credentials' takes one vendor: \(vendors)", command: arguments.command)
            }
            guard let vendor = Vendor(rawValue: words[1]) else {
                throw UsageError("'credentials' takes one vendor: \(vendors)", command: arguments.command)
            }
            let reply = try ClientCommands.typedReply(.credentials(CredentialsQuery(vendor: vendor)), socket: socket)
            guard case .credentials(let credentials, let address) = reply else { throw ClientCommands.unexpected(reply, to: "gateway credentials") }
            if case .fcm(let serviceAccount, let registered) = credentials {
                return try fcmCredentials(serviceAccount: serviceAccount, registered: registered, address: address, json: json)
            }
            let lines = credentialLines(credentials, address: address)
            if json {
                let members = lines.map { (key: $0.key, value: JSON.string($0.value)) } + [(key: "registered", value: JSON.bool(credentials.registered))]
                writeLine(JSON.object(JSONObject(members)).compactText)
            } else {
                let width = lines.map(\.label.count).max() ?? 0
                for line in lines { writeLine(line.label + ":" + String(repeating: " ", count: width - line.label.count + 2) + line.value) }
                if !credentials.registered {
                    writeLine("(no \(vendor.rawValue) key is registered, so the gateway takes any well-formed credentials, these too;")
                    writeLine(" 'pushdeck key add \(vendor.rawValue) ...' makes it check them)")
                }
            }
        default:
            throw UsageError("takes nothing, 'ca', 'token' or 'credentials VENDOR', not '\(words.joined(separator: " "))'", command: arguments.command)
        }
        return 0
    }

    /// `credentials fcm`: a ready service-account key file whose `token_uri` is the gateway's
    /// `/token` (on its TLS address); with no FCM key registered, its `private_key` a throwaway
    /// RSA key made here, which the gateway takes while none is. `--json` prints the file itself.
    static func fcmCredentials(serviceAccount text: String, registered: Bool, address: String, json: Bool) throws -> Int32 {
        guard case .object(var file)? = try? JSON.parse(Array(text.utf8)) else {
            throw Failure.refused("the running pushdeck sent no service account")
        }
        let base = "https://" + tlsAddress(address)
        file["token_uri"] = .string(base + FCMRoutes.tokenPath)
        if file["private_key"]?.stringValue?.isEmpty ?? true {
            do {
                file["private_key"] = .string(try RS256.makePrivateKeyPEM())
            } catch {
                throw Failure(code: 1, message: "cannot make an RSA key: \(error.description)")
            }
        }
        if json {
            writeLine(JSON.object(file).prettyText)
            return 0
        }
        let project = file["project_id"]?.stringValue ?? ""
        let lines: [(String, String)] = [
            ("project", project), ("client email", file["client_email"]?.stringValue ?? ""),
            ("token URI", base + FCMRoutes.tokenPath), ("send URL", base + "/v1/projects/\(project)/messages:send"),
        ]
        let width = lines.map(\.0.count).max() ?? 0
        for line in lines { writeLine(line.0 + ":" + String(repeating: " ", count: width - line.0.count + 2) + line.1) }
        if !registered {
            writeLine("(no fcm key is registered, so the gateway takes any well-formed assertion; the --json")
            writeLine(" file's private_key is a throwaway key made now; 'pushdeck key add fcm ...' makes it check them)")
        }
        writeLine("'pushdeck gateway credentials fcm --json > service-account.json' writes the key file; with firebase-admin:")
        writeLine("  firebase_admin.initialize_app(credentials.Certificate(\"service-account.json\"))")
        writeLine("  messaging._MessagingService.FCM_URL = \"\(base)/v1/projects/{0}/messages:send\"")
        writeLine("and trust the gateway's CA: REQUESTS_CA_BUNDLE=$(pushdeck gateway ca)")
        return 0
    }

    private static func nonEmpty(_ value: String?, _ name: String, _ arguments: Arguments) throws(UsageError) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty else { throw UsageError("\(name) takes a non-empty value", command: arguments.command) }
        return value
    }

    /// What a vendor's SDK is configured with, from a `credentials` reply: a label for people, a
    /// key for `--json`, and the value. The base URL is the gateway's TLS address (its
    /// certificate names localhost; trust `pushdeck gateway ca`).
    static func credentialLines(_ credentials: GatewayCredentials, address: String) -> [(label: String, key: String, value: String)] {
        let base = "https://" + tlsAddress(address)
        switch credentials {
        case .jpush(let appKey, let masterSecret, _):
            // JPush Push API v3: "Authorization: Basic base64(appKey:masterSecret)".
            let basic = "Basic " + Data("\(appKey):\(masterSecret)".utf8).base64EncodedString()
            return [("app key", "appKey", appKey), ("master secret", "masterSecret", masterSecret),
                    ("authorization", "authorization", basic), ("push URL", "pushURL", base + "/v3/push")]
        case .getui(let appId, let appKey, let masterSecret, _):
            // Getui REST API v2: every call's URL is BaseUrl/{appId}/..., BaseUrl https://restapi.getui.com/v2.
            return [("app id", "appId", appId), ("app key", "appKey", appKey),
                    ("master secret", "masterSecret", masterSecret), ("base URL", "baseURL", base + "/v2/" + appId)]
        case .apns(let keyId, let team, let token, _):
            return [("key id", "keyId", keyId), ("team", "team", team), ("token", "token", token),
                    ("push URL", "pushURL", base + "/3/device/")]
        case .fcm(let serviceAccount, _):
            return [("service account", "serviceAccount", serviceAccount), ("token URI", "tokenURI", base + FCMRoutes.tokenPath)]
        }
    }

    /// HOST:PORT a client dials: a wildcard host (every address) is reached on localhost.
    static func tlsAddress(_ address: String) -> String {
        for wildcard in ["0.0.0.0:", "[::]:"] where address.hasPrefix(wildcard) {
            return "localhost:" + address.dropFirst(wildcard.count)
        }
        return address.hasPrefix("127.0.0.1:") ? "localhost:" + address.dropFirst("127.0.0.1:".count) : address
    }
}
