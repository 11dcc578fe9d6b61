import Foundation
import PushBus
import PushCore
import PushGateway
import PushClient
import PushServer
import PushSystem
import PushStore
import PushTerminal
import PushUIHost

/// `pushdeck serve` and `pushdeck ui`: the process that owns the socket, the store and the loop.
enum ServeCommand {
    /// What both need: where the socket and store are and the loop's options.
    struct Setup {
        var socketPath: String
        var strictFolder: Bool
        var databasePath: String?
        var options: ServerOptions
        /// `--gateway [HOST:PORT]`, with `--tls-cert`/`--tls-key`: the vendors' HTTP APIs on one port.
        var gateway: GatewaySetup?
        /// `--mqtt URL` with `--mqtt-ca`, `--mqtt-user`, `--mqtt-id`: the team bus.
        var bus: BusConfiguration?

        init(_ arguments: inout Arguments) throws(UsageError) {
            let environment = ProcessInfo.processInfo.environment
            let socketFlag = try arguments.option("--socket")
            socketPath = Locations.socketPath(flag: socketFlag, environment: environment)
            // Only the default folders are pushdeck's own to hold to 0700; a folder the user
            // names is theirs (the socket itself is still 0600 and checks the peer's uid).
            strictFolder = socketFlag == nil && (environment["PUSHDECK_SOCKET"] ?? "").isEmpty
            let databaseFlag = try arguments.option("--db")
            let memory = arguments.flag("--memory")
            // Only a --db of the command line conflicts: --memory wins over $PUSHDECK_DB and the config file.
            if memory && arguments.onCommandLine.contains("--db") {
                throw UsageError("--db and --memory cannot be used together", command: arguments.command)
            }
            databasePath = memory ? nil : Locations.databasePath(flag: databaseFlag, environment: environment)
            options = ServerOptions()
            // Checked against CommandTable's ranges and words (the config file is checked by the same).
            if let value = try arguments.checkedOption("--banner-seconds").flatMap(Double.init) {
                options.bannerSeconds = value
            }
            if let bytes = try arguments.checkedOption("--max-payload").flatMap({ Int($0) }) {
                options.maxPayloadBytes = bytes
            }
            if let bytes = try arguments.checkedOption("--max-request").flatMap({ Int($0) }) {
                options.maxObjectBytes = bytes
            }
            if let policy = try arguments.checkedOption("--devices").flatMap(DevicePolicy.init(rawValue:)) {
                options.devicePolicy = policy
            }
            options.manualClock = try arguments.checkedOption("--clock") == "manual"
            gateway = try GatewaySetup(&arguments, environment: environment)
            bus = try Self.busConfiguration(&arguments, environment: environment)
        }

        /// Nil without `--mqtt` (then its companions are refused as meaningless). The password
        /// comes from `$PUSHDECK_MQTT_PASSWORD` only: a flag would be in every user's `ps`.
        static func busConfiguration(_ arguments: inout Arguments, environment: [String: String]) throws(UsageError) -> BusConfiguration? {
            let url = try arguments.option("--mqtt")
            let ca = try arguments.option("--mqtt-ca")
            let user = try arguments.option("--mqtt-user")
            let id = try arguments.option("--mqtt-id")
            let watchAll = arguments.flag("--watch-all")
            guard let url else {
                if ca != nil || user != nil || id != nil || watchAll {
                    throw UsageError("--mqtt-ca, --mqtt-user, --mqtt-id and --watch-all go with --mqtt", command: arguments.command)
                }
                return nil
            }
            let password = environment["PUSHDECK_MQTT_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
            if password != nil && user == nil {
                throw UsageError("$PUSHDECK_MQTT_PASSWORD is set but --mqtt-user is not: the broker needs both", command: arguments.command)
            }
            do {
                var configuration = try BusConfiguration(
                    url: url, caFile: ca, user: user, password: password, id: id ?? BusConfiguration.defaultId(environment: environment))
                configuration.watchAll = watchAll
                return configuration
            } catch {
                throw UsageError(error.message, command: arguments.command)
            }
        }
    }

    static func serve(_ arguments: inout Arguments) throws -> Int32 {
        let setup = try Setup(&arguments)
        try arguments.finish()
        let (server, databaseLock, gateway) = try ServerBuilder.build(
            setup, signals: try SignalPipe(keepingIgnored: [SIGHUP]), log: { printError("pushdeck: \($0)") })
        printError("pushdeck \(Version.current): listening on \(setup.socketPath), inbox \(setup.databasePath ?? "in memory")")
        if let gateway {
            printError("pushdeck: gateway on \(gateway.address)\(gateway.configuration.caPath.map { ", CA \($0)" } ?? "")")
        }
        if let bus = setup.bus {
            printError("pushdeck: team bus \(bus.url) as \(bus.id)")
        }
        withExtendedLifetime(databaseLock) { server.run() }
        return 0
    }

    /// `notes`: lines to show on the status line (the server's log lines join them).
    static func ui(_ arguments: inout Arguments, notes: Notes = Notes()) throws -> Int32 {
        let setup = try Setup(&arguments)
        let noColor = arguments.flag("--no-color")
        try arguments.finish()
        let environment = ProcessInfo.processInfo.environment
        // Before anything else touches the terminal: a clear line and exit 2, never a garbled screen.
        if let problem = TerminalCheck.run(environment: environment) {
            throw Failure(code: 2, message: "\(problem)")
        }
        // The UI owns the signals (SIGWINCH is a resize, the others a clean exit).
        let signals = try SignalPipe(signals: [SIGWINCH, SIGINT, SIGTERM, SIGHUP])
        let (server, databaseLock, _) = try ServerBuilder.build(setup, signals: nil, log: { notes.add($0) })
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(noColor: noColor || CursesTerminal.noColorRequested(environment))
        } catch {
            throw Failure(code: 2, message: "\(error)")
        }
        let ui = TerminalUI(terminal: terminal, signals: signals, notes: notes, trace: Trace(path: environment["PUSHDECK_TRACE"]))
        withExtendedLifetime(databaseLock) { server.run(host: ui) }
        terminal.restore()
        return 0
    }
}
