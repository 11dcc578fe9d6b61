import Foundation
import PushCore
import PushGateway
import PushServer

/// `--gateway [HOST:PORT]`, `--tls-cert`, `--tls-key` of `ui` and `serve`.
struct GatewaySetup {
    var address: GatewayAddress
    var tls: TLSMaterial?
    var tlsFolder: String
    /// How long a Getui token lives (`--getui-token-seconds`, for tests; a day by default).
    var getuiTokenSeconds: TimeInterval = GetuiRoutes.defaultTokenSeconds
    /// How long a request may take from its first byte (`--request-timeout`, for tests).
    var limits = GatewayLimits()

    /// Nil when `--gateway` is not given (then `--tls-*` are refused as meaningless).
    init?(_ arguments: inout Arguments, environment: [String: String]) throws(UsageError) {
        let value = arguments.optionalValue("--gateway", bare: GatewayAddress.defaultValue)
        let certificate = try arguments.option("--tls-cert")
        let key = try arguments.option("--tls-key")
        let tokenSeconds = try arguments.option("--getui-token-seconds")
        let requestTimeout = try arguments.option("--request-timeout")
        guard let value else {
            if certificate != nil || key != nil {
                throw UsageError("--tls-cert and --tls-key go with --gateway", command: arguments.command)
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
        return try Gateway(configuration: configuration, routes: ProviderRoutes(devices: devices, getuiTokenSeconds: getuiTokenSeconds), log: log)
    }
}

/// `pushdeck gateway [ca]`: asks the running pushdeck where its gateway listens.
enum GatewayCommand {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let words = try arguments.positionals()
        guard words.count <= 1, words.first.map({ $0 == "ca" }) ?? true else {
            throw UsageError("takes nothing or 'ca', not '\(words.joined(separator: " "))'", command: arguments.command)
        }
        let client = try SocketClient(path: socket)
        let reply = try ClientCommands.expectOK(client.request(.gateway))
        if words.first == "ca" {
            guard let ca = reply["ca"]?.stringValue else {
                throw Failure.refused("the gateway uses the certificate given with --tls-cert; pushdeck made no CA")
            }
            writeLine(ca)
        } else {
            writeLine(reply["address"]?.stringValue ?? "")
        }
        return 0
    }
}
