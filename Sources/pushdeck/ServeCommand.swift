import Foundation
import PushCore
import PushServer
import PushStore

/// `pushdeck serve` and `pushdeck ui`: the process that owns the socket, the store and the loop.
enum ServeCommand {
    /// What both need: where the socket and store are and the loop's options.
    struct Setup {
        var socketPath: String
        var strictFolder: Bool
        var databasePath: String?
        var options: ServerOptions

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
        }

        /// Opens the store, binds the socket and builds the server; a failure names what and where.
        func makeServer(log: @escaping @Sendable (String) -> Void) throws -> Server {
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
            return try Server(store: store, listener: listener, signals: try SignalPipe(), options: options)
        }
    }

    static func serve(_ arguments: inout Arguments) throws -> Int32 {
        let setup = try Setup(&arguments)
        try arguments.finish()
        let server = try setup.makeServer(log: { printError("pushdeck: \($0)") })
        printError("pushdeck \(Version.current): listening on \(setup.socketPath), inbox \(setup.databasePath ?? "in memory")")
        server.run()
        return 0
    }

    static func ui(_ arguments: inout Arguments) throws -> Int32 {
        throw Failure(code: 2, message: "the terminal UI is not built yet; use 'pushdeck serve'")
    }
}
