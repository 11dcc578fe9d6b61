import Foundation
import PushCore
import PushGateway
import PushServer
import PushStore
import PushTerminal

/// `pushdeck serve` and `pushdeck ui`: the process that owns the socket, the store and the loop.
enum ServeCommand {
    /// What both need: where the socket and store are and the loop's options.
    struct Setup {
        var socketPath: String
        var strictFolder: Bool
        var databasePath: String?
        var options: ServerOptions
        /// `--gateway [HOST:PORT]`, with `--tls-cert`/`--tls-key` (DESIGN §8).
        var gateway: GatewaySetup?

        init(_ arguments: inout Arguments) throws(UsageError) {
            let environment = ProcessInfo.processInfo.environment
            let socketFlag = try arguments.option("--socket")
            socketPath = Locations.socketPath(flag: socketFlag, environment: environment)
            // Only the default folders are pushdeck's own to hold to 0700; a folder the user
            // names is theirs (the socket itself is still 0600 and checks the peer's uid).
            strictFolder = socketFlag == nil && (environment["PUSHDECK_SOCKET"] ?? "").isEmpty
            let databaseFlag = try arguments.option("--db")
            let memory = arguments.flag("--memory")
            if memory && databaseFlag != nil {
                throw UsageError("--db and --memory cannot be used together", command: arguments.command)
            }
            databasePath = memory ? nil : Locations.databasePath(flag: databaseFlag, environment: environment)
            options = ServerOptions()
            if let seconds = try arguments.option("--banner-seconds") {
                guard let value = Double(seconds), value > 0, value <= 3600 else {
                    throw UsageError("--banner-seconds takes a number of seconds above 0 (at most 3600), not '\(seconds)'", command: arguments.command)
                }
                options.bannerSeconds = value
            }
            if let bytes = try arguments.intOption("--max-payload", in: 256...(1 << 20)) {
                options.maxPayloadBytes = bytes
            }
            if let bytes = try arguments.intOption("--max-request", in: 1024...(16 << 20)) {
                options.maxObjectBytes = bytes
            }
            if let policy = try arguments.option("--devices") {
                guard let known = DevicePolicy(rawValue: policy) else {
                    throw UsageError("--devices takes open or strict, not '\(policy)'", command: arguments.command)
                }
                options.devicePolicy = known
            }
            gateway = try GatewaySetup(&arguments, environment: environment)
        }

        /// Opens the store, binds the socket and builds the server; a failure names what and where.
        func makeServer(signals: SignalPipe?, log: @escaping @Sendable (String) -> Void) throws -> Server {
            var options = options
            options.log = log
            let store: Store
            do {
                if let databasePath {
                    let folder = (databasePath as NSString).deletingLastPathComponent
                    if !folder.isEmpty {
                        try FileManager.default.createDirectory(
                            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    }
                    store = try Store(path: databasePath)
                } else {
                    store = try Store.inMemory()
                }
            } catch {
                throw Failure.refused("cannot open the inbox \(databasePath ?? ":memory:"): \(error)")
            }
            let listener: Listener
            do {
                listener = try Listener(path: socketPath, strictFolder: strictFolder)
            } catch {
                store.close()
                throw Failure.refused(error.message)
            }
            let server = try Server(store: store, listener: listener, signals: signals, options: options)
            if let gateway {
                do {
                    server.attach(gateway: try gateway.start(devices: options.devicePolicy, log: log))
                } catch {
                    listener.close()
                    store.close()
                    throw Failure.refused("\(error)")
                }
            }
            return server
        }
    }

    static func serve(_ arguments: inout Arguments) throws -> Int32 {
        let setup = try Setup(&arguments)
        try arguments.finish()
        let server = try setup.makeServer(signals: try SignalPipe(), log: { printError("pushdeck: \($0)") })
        printError("pushdeck \(Version.current): listening on \(setup.socketPath), inbox \(setup.databasePath ?? "in memory")")
        if let gateway = server.gateway {
            printError("pushdeck: gateway on \(gateway.address)\(gateway.configuration.caPath.map { ", CA \($0)" } ?? "")")
        }
        server.run()
        return 0
    }

    static func ui(_ arguments: inout Arguments) throws -> Int32 {
        let setup = try Setup(&arguments)
        try arguments.finish()
        let environment = ProcessInfo.processInfo.environment
        // Before anything else touches the terminal: a clear line and exit 2, never a garbled screen.
        if let problem = TerminalCheck.run(environment: environment) {
            throw Failure(code: 2, message: "\(problem)")
        }
        let notes = Notes()
        // The UI owns the signals (SIGWINCH is a resize, the others a clean exit).
        let signals = try SignalPipe(signals: [SIGWINCH, SIGINT, SIGTERM, SIGHUP])
        let server = try setup.makeServer(signals: nil, log: { notes.add($0) })
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(noColor: CursesTerminal.noColorRequested(environment))
        } catch {
            throw Failure(code: 2, message: "\(error)")
        }
        let ui = TerminalUI(terminal: terminal, signals: signals, notes: notes, trace: Trace(path: environment["PUSHDECK_TRACE"]))
        server.run(host: ui)
        terminal.restore()
        return 0
    }
}
