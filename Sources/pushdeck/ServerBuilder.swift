import Foundation
import PushBus
import PushCore
import PushJSON
import PushGateway
import PushServer
import PushStore
import PushSystem

/// Server assembly: the socket's listener, the store and its lock, the server, and with
/// `--gateway` the provider gateway in the server's loop. The only place that knows both the
/// server (PushServer) and the gateway (PushGateway): neither module imports the other.
enum ServerBuilder {
    /// Binds the socket, locks and opens the store, and builds the server; a failure names
    /// what and where. The socket comes first: a start refused there (another server, a
    /// file in the way) must not have created or migrated a database. The database lock
    /// comes back with the server: hold it until the server has stopped.
    static func build(
        _ setup: ServeCommand.Setup, signals: SignalPipe?, log: @escaping @Sendable (String) -> Void
    ) throws -> (server: Server, databaseLock: LockFile?, gateway: Gateway?) {
        let socketPath = setup.socketPath, strictFolder = setup.strictFolder, databasePath = setup.databasePath
        var options = setup.options
        options.log = log
        let listener: Listener
        do {
            listener = try Listener(path: socketPath, strictFolder: strictFolder)
        } catch {
            throw Failure.refused(error.message)
        }
        var databaseLock: LockFile?
        let store: Store
        do {
            if let databasePath {
                let folder = (databasePath as NSString).deletingLastPathComponent
                if !folder.isEmpty {
                    try FileManager.default.createDirectory(
                        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                }
                databaseLock = try Self.lockDatabase(databasePath)
                // The inbox holds what apps were sent: a new file (and its -wal and -shm,
                // which SQLite gives the database's mode) is private, wherever --db puts it.
                let previous = umask(0o077)
                defer { umask(previous) }
                store = try Store(path: databasePath)
            } else {
                store = try Store.inMemory()
            }
        } catch let failure as Failure {
            listener.close()
            throw failure
        } catch {
            listener.close()
            throw Failure.refused("cannot open the inbox \(databasePath ?? ":memory:"): \(error)")
        }
        let server: Server
        do {
            server = try Server(
                store: store, listener: listener, signals: signals, options: options,
                time: options.manualClock ? ManualTime(now: SystemTime().now, wall: Date()) : SystemTime())
        } catch {
            store.close()
            listener.close()
            throw Failure.refused("cannot load the inbox \(databasePath ?? ":memory:"): \(error)")
        }
        var gateway: Gateway?
        if let gatewaySetup = setup.gateway {
            do {
                // With a team bus an unknown token is another instance's device, whatever
                // --devices says: the gateway lets it through and the engine forwards it.
                let devices = setup.bus == nil ? options.devicePolicy : .open
                let started = try gatewaySetup.start(devices: devices, log: log)
                attach(started, to: server)
                gateway = started
            } catch {
                listener.close()
                store.close()
                throw Failure.refused("\(error)")
            }
        }
        if let busConfiguration = setup.bus {
            do {
                let bus = try Bus(busConfiguration, outbox: try store.outbox(), log: log)
                let inLoop = BusInLoop(bus, server: server)
                bus.attach(inLoop)
                server.attach(bus: inLoop)
            } catch {
                gateway?.close()
                listener.close()
                store.close()
                throw Failure.refused("\(error)")
            }
        }
        return (server, databaseLock, gateway)
    }

    /// One writer per database: `<db>.lock` is held for the server's life, so a second server
    /// on the same file stops at once instead of overwriting acknowledged changes.
    private static func lockDatabase(_ path: String) throws -> LockFile {
        do {
            return try LockFile(path: path + ".lock")
        } catch {
            switch error {
            case .held(let lockPath, let pid):
                let holder = pid.map { "pid \($0)" } ?? "another process"
                throw Failure.refused(
                    "the inbox \(path) is in use by another pushdeck server (\(holder) holds \(lockPath)); "
                        + "stop it first, or pass another --db")
            case .system(let failure):
                throw Failure.refused("cannot lock the inbox \(path): \(failure)")
            }
        }
    }

    /// Runs `gateway` in `server`'s loop: the gateway's requests go through the server's request
    /// handling like a socket client's and are answered after the turn's commit, and both
    /// listeners share the server's accept pause (they share the one descriptor table).
    static func attach(_ gateway: Gateway, to server: Server) {
        let inLoop = GatewayInLoop(gateway, server: server)
        gateway.attach(inLoop)
        gateway.share(server.acceptPause)
        server.attach(gateway: inLoop, faultVocabulary: ProviderRoutes.faultVocabulary)
    }
}

/// The provider gateway as the server sees it (a participant of its loop that answers the
/// `gateway` requests) and the server as the gateway sees it (where its requests go).
final class GatewayInLoop: AttachedGateway, GatewaySink {
    let gateway: Gateway
    /// The server owns this object (as a participant of its loop), so it outlives it.
    unowned let server: Server
    /// The control API's long-polls, judged after each commit.
    let expects = ControlExpects()

    init(_ gateway: Gateway, server: Server) {
        self.gateway = gateway
        self.server = server
    }

    // MARK: A participant of the server's loop

    func pollEntries(into entries: inout [pollfd]) { gateway.pollEntries(into: &entries) }
    func ready(_ entry: pollfd, server: Server) { gateway.ready(entry) }
    func deadline(after now: Instant) -> Instant? {
        let own = gateway.timeout().map { Instant(nanoseconds: now.nanoseconds + $0 * 1_000_000) }
        return [own, expects.deadline()].compactMap { $0 }.min { $0.nanoseconds < $1.nanoseconds }
    }
    func turnEnded(server: Server) {
        // The long-polls answered by this turn's commit are written in the same turn.
        expects.turnEnded(server: server)
        gateway.turnEnded()
    }
    func readAhead() { gateway.readAhead() }
    var hasAhead: Bool { gateway.hasAhead }
    func handleAhead(server: Server) { gateway.handleAhead() }

    // MARK: What the server asks of its gateway

    var addressDescription: String { gateway.address.description }
    func gatewayReply() -> Reply { gateway.infoReply() }
    func credentialsReply(_ query: CredentialsQuery, keys: [ProviderKey], now: Date) -> Reply {
        gateway.credentialsReply(query, keys: keys, now: now)
    }
    func close() { gateway.close() }

    // MARK: Where the gateway's requests go

    func gatewayContext() -> GatewayContext { GatewayContext(inbox: server.inboxView, now: server.wallNow) }
    func gatewayNow() -> Date { server.wallNow }
    func submit(_ request: Request, completion: @escaping (Reply) -> Void) { server.submit(request, completion: completion) }
    func expect(_ query: [QueryItem], completion: @escaping (HTTPResponse) -> Void) {
        expects.start(query, server: server, completion: completion)
    }
    func arriveProviderRequest() -> Int { server.arriveProviderRequest() }
    func logProviderRequest(_ record: consuming ProviderRequestRecord) { server.logProviderRequest(record) }
    func fireFault(vendor: Via, path: String, streamIndex: Int, summary: () -> (tokens: [String], app: String?)) -> FiredFault? {
        server.fireFault(vendor: vendor, path: path, streamIndex: streamIndex, summary: summary)
    }
}

/// The team bus as the server sees it (a participant of its loop) and the server as the bus
/// sees it (where pushes by the bus go, where receipts are written, the inbox it reports).
final class BusInLoop: AttachedBus, BusSink {
    let bus: Bus
    /// The server owns this object (as a participant of its loop), so it outlives it.
    unowned let server: Server

    init(_ bus: Bus, server: Server) {
        self.bus = bus
        self.server = server
    }

    // MARK: A participant of the server's loop

    func pollEntries(into entries: inout [pollfd]) { bus.pollEntries(into: &entries) }
    func ready(_ entry: pollfd, server: Server) { bus.ready(entry) }
    func deadline(after now: Instant) -> Instant? {
        bus.timeout().map { Instant(nanoseconds: now.nanoseconds + $0 * 1_000_000) }
    }
    func turnEnded(server: Server) { bus.turnEnded() }

    // MARK: What the server asks of its bus

    var link: BusLink { bus.link }
    var statusLine: String { bus.statusLine }
    func publish(_ remote: RemotePush, wire: [UInt8]?, acknowledged: ((Bool) -> Void)?) {
        bus.publish(remote, wire: wire, acknowledged: acknowledged)
    }
    func wire(_ remote: RemotePush) -> [UInt8] { bus.wire(remote) }
    func busReply() -> Reply { .bus(bus.report()) }
    func announce(line: ArraySlice<UInt8>) {
        bus.announce(Array(line))
        bus.inboxChanged()
    }
    func discardAnnouncements() { bus.discardAnnouncements() }
    func close() { bus.close() }

    // MARK: Where the bus's pushes go

    func submit(_ request: Request, completion: @escaping (Reply) -> Void) { server.submit(request, completion: completion) }
    func record(_ change: StoreChange) { server.record(change) }
    var revision: Int { server.revision }
    var deviceTokens: [String] { Array(server.inbox.devices.keys) }

    func stateFields() -> [(key: String, value: JSON)] {
        let inbox = server.inbox
        var badges: [(key: String, value: JSON)] = []
        for app in Set(inbox.badges.keys).sorted() {
            let badge = inbox.badge(of: app)
            badges.append((app, .object(JSONObject([("badge", .number(JSONNumber(badge.icon))), ("serverBadge", .number(JSONNumber(badge.server)))]))))
        }
        return [
            ("mode", .string(inbox.mode.rawValue)), ("app", .string(inbox.appState.rawValue)),
            ("unread", .number(JSONNumber(inbox.totalUnread))), ("badges", .object(JSONObject(badges))),
            ("devices", .array(inbox.devices.keys.sorted().map { .string($0) })),
        ]
    }
}
