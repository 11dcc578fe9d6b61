import CMosquitto
import Foundation
import Glibc
import PushCore
import PushJSON

/// What the bus needs of the server it is attached to (the executable wires it): where pushes
/// by the bus go, where its outbox bookkeeping is written, and the inbox it reports.
public protocol BusSink: AnyObject {
    /// Hands a push by the bus to the server's request handling (the engine); `completion`
    /// gets its reply after the turn's commit.
    func submit(_ request: Request, completion: @escaping (Reply) -> Void)
    /// Writes a change into the turn's transaction.
    func record(_ change: StoreChange)
    /// Counts the server's store writes: when it moved, the devices may have changed.
    var revision: Int { get }
    /// The tokens of the devices registered here (the push topics to subscribe to).
    var deviceTokens: [String] { get }
    /// The instance's state as `instances/{id}/state` carries it, without `bus` and `online`.
    func stateFields() -> [(key: String, value: JSON)]
}

/// The team bus: one MQTT connection (libmosquitto, MQTT 5, a persistent session) driven from
/// the server's `poll(2)` loop — its socket, `mosquitto_loop_read`/`loop_write`/`loop_misc`,
/// `mosquitto_want_write`; libmosquitto runs no thread of its own here, and its callbacks run
/// inside those calls, on the loop thread.
///
/// Pushes for tokens registered elsewhere leave through the outbox (`publish`); pushes for
/// tokens registered here arrive on `pushdeck/v1/devices/{token}/push` and go to the engine; a
/// receipt goes back to the sender after the commit. libmosquitto acknowledges a QoS 1 message
/// (PUBACK) *before* it calls the message callback (lib/handle_publish.c, `handle__publish`:
/// `send__puback` comes ahead of `callback__on_message`), so the broker's acknowledgement says
/// nothing about the owner's store: the receipt, published after the owner's commit, does.
public final class Bus {
    public let configuration: BusConfiguration
    private let mosq: OpaquePointer
    private let log: (String) -> Void
    private weak var sink: (any BusSink)?

    // MARK: Connection state

    public enum State: Equatable, Sendable {
        /// Not connected yet, or between attempts: `attempt` failed attempts so far.
        case reconnecting(attempt: Int)
        /// TCP (and TLS) is up, the CONNACK is awaited.
        case connecting(attempt: Int)
        case connected
        /// The broker refused the connection (its CONNACK reason); retried with backoff.
        case refused(String, attempt: Int)
        /// Another live instance has this id: no retry.
        case duplicate
        case closed
    }
    public private(set) var state: State = .reconnecting(attempt: 0)
    private var nextAttempt: Date = .distantPast
    /// The longest wait between two connection attempts.
    public static let maxBackoff: TimeInterval = 30

    // MARK: Outbox

    struct Pending {
        var push: RemotePush
        var due: Date
        var delay: TimeInterval
    }
    /// Pushes published and not yet receipted, by id: published again at `due`, 5 s after the
    /// first time, doubling to 60 s, until the receipt or the push's expiry.
    private var outbox: [String: Pending] = [:]
    public static let firstRetry: TimeInterval = 5
    public static let maxRetry: TimeInterval = 60
    /// Gateway answers waiting for the broker's PUBACK, by message id.
    private var acknowledgements: [Int32: (id: String, deadline: Date, done: (Bool) -> Void)] = [:]
    /// No request waits longer than this for a PUBACK (the answer must come within 5 s).
    public static let acknowledgementTimeout: TimeInterval = 4

    // MARK: Subscriptions, instances

    private var subscribed: Set<String> = []
    private var seenRevision = -1
    /// The last retained state of each instance seen, by id.
    public private(set) var instances: [String: JSONObject] = [:]
    /// A random nonce in this process's state: a live state of this id with another is another instance.
    private let session = RandomUUID.text()
    private var stateDirty = true
    private var lastStatePublished: Date = .distantPast
    private var lastStateText = ""
    /// At most this often is the retained state published (a few times a second).
    public static let stateInterval: TimeInterval = 0.25
    /// Counts of what came by the bus, for `pushdeck bus`.
    public private(set) var received = 0
    public private(set) var refusedPushes = 0
    private let now: () -> Date

    /// The largest MQTT packet this client takes (MQTT 5 Maximum Packet Size in CONNECT): the
    /// broker drops a larger message for it instead of sending it, so a 10 MB publish is never
    /// read into memory; the push decoder's own limit (`RemotePush.maxWireBytes`) is lower still.
    public static let maxPacketBytes: UInt32 = 1 << 20

    public init(_ configuration: BusConfiguration, outbox restored: [RemotePush], log: @escaping (String) -> Void,
                now: @escaping () -> Date = Date.init) throws(WireError) {
        _ = Self.libraryReady
        guard let mosq = mosquitto_new(configuration.id, false, nil) else {
            throw WireError("cannot make an MQTT client: \(String(cString: strerror(errno)))")
        }
        self.mosq = mosq
        self.configuration = configuration
        self.log = log
        self.now = now
        let start = now()
        for push in restored { outbox[push.id] = Pending(push: push, due: start, delay: Self.firstRetry) }
        mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        // Every packet goes out at once (TCP_NODELAY, which libmosquitto sets on each socket it
        // opens, lib/net_mosq.c `net__socket_connect`). With Nagle's algorithm on, a small packet
        // written while an earlier one is unacknowledged waits for that ACK, and the peer delays
        // its ACK (Linux: up to 40 ms, tcp(7) TCP_QUICKACK): a receipt or a PUBACK right after a
        // push then took ~40 ms on loopback, and a push one at a time ~90 ms at worst.
        mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)
        // Every packet waits in libmosquitto's queue until the turn ends (`flush`). Without
        // this, libmosquitto writes each packet as it is made (lib/packet_mosq.c
        // `packet__queue` writes at once unless the client is "threaded" or inside a
        // callback): a PUBACK, a push, a receipt, an event — one write(2) and one TCP segment
        // each, and one wake-up of the broker each. This marks the client as driven by another
        // thread's loop (`mosq_ts_external`: no thread of libmosquitto's own is started or
        // cancelled), which is what the poll loop is.
        mosquitto_threaded_set(mosq, true)
        if let user = configuration.user {
            mosquitto_username_pw_set(mosq, user, configuration.password)
        }
        if configuration.tls {
            if let ca = configuration.caFile {
                let rc = mosquitto_tls_set(mosq, ca, nil, nil, nil, nil)
                guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                    mosquitto_destroy(mosq)
                    throw WireError("--mqtt-ca \(ca): \(String(cString: mosquitto_strerror(rc)))")
                }
            } else {
                mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            }
        }
        // The last will: the broker publishes it (retained) when this instance goes without a goodbye.
        let will = JSON.object(JSONObject([("online", false), ("session", .string(session))])).compactText
        mosquitto_will_set_v5(mosq, Self.stateTopic(configuration.id), Int32(will.utf8.count), will, 1, true, nil)
        mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_v5_callback_set(mosq) { _, object, rc, _, _ in Bus.from(object)?.connected(rc) }
        mosquitto_disconnect_v5_callback_set(mosq) { _, object, rc, _ in Bus.from(object)?.disconnected(rc) }
        mosquitto_publish_v5_callback_set(mosq) { _, object, mid, reason, _ in Bus.from(object)?.acknowledged(mid, reason: reason) }
        mosquitto_message_v5_callback_set(mosq) { _, object, message, _ in
            guard let message else { return }
            Bus.from(object)?.arrived(message.pointee)
        }
    }

    deinit { mosquitto_destroy(mosq) }

    private static let libraryReady: Int32 = mosquitto_lib_init()

    private static func from(_ object: UnsafeMutableRawPointer?) -> Bus? {
        object.map { Unmanaged<Bus>.fromOpaque($0).takeUnretainedValue() }
    }

    public func attach(_ sink: any BusSink) { self.sink = sink }

    // MARK: - Topics

    public static let root = "pushdeck/v1"
    public static func stateTopic(_ id: String) -> String { "\(root)/instances/\(id)/state" }
    public static func eventsTopic(_ id: String) -> String { "\(root)/instances/\(id)/events" }
    static let pushPrefix = "\(root)/devices/"
    static let pushSuffix = "/push"
    static let statesFilter = "\(root)/instances/+/state"
    static let eventsFilter = "\(root)/instances/+/events"

    /// A token that can stand as one topic level (no `/`, `+`, `#`, nothing empty).
    static func isTopicLevel(_ token: String) -> Bool {
        !token.isEmpty && !token.contains("/") && !token.contains("+") && !token.contains("#") && !token.contains("\0")
    }

    // MARK: - What the server and the engine are told

    public var link: BusLink {
        if case .connected = state { return .connected }
        return .disconnected(statusLine)
    }

    public var statusLine: String {
        switch state {
        case .connected: "bus connected"
        case .connecting(let attempt), .reconnecting(let attempt): "bus reconnecting (\(attempt))"
        case .refused(let reason, _): "bus refused: \(reason)"
        case .duplicate: "bus refused: another live pushdeck uses the id \(configuration.id)"
        case .closed: "bus closed"
        }
    }

    /// `pushdeck bus`: the connection, the outbox, and every instance seen with its last state.
    public func report() -> JSONObject {
        var seen: [(key: String, value: JSON)] = []
        for (id, state) in instances.sorted(by: { $0.key < $1.key }) { seen.append((id, .object(state))) }
        return JSONObject([
            ("ok", true), ("bus", .string(statusLine)), ("broker", .string(configuration.url)), ("id", .string(configuration.id)),
            ("outbox", .number(JSONNumber(outbox.count))), ("received", .number(JSONNumber(received))),
            ("watchAll", .bool(configuration.watchAll)),
            ("refused", .number(JSONNumber(refusedPushes))), ("instances", .object(JSONObject(seen))),
        ])
    }

    // MARK: - In the poll loop

    public func pollEntries(into entries: inout [pollfd]) {
        let fd = mosquitto_socket(mosq)
        guard fd >= 0 else { return }
        var events = Int16(POLLIN)
        if mosquitto_want_write(mosq) { events |= Int16(POLLOUT) }
        entries.append(pollfd(fd: fd, events: events, revents: 0))
    }

    public func ready(_ entry: pollfd) {
        if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            // libmosquitto 2.0's `mosquitto_loop_read` ignores its max_packets: it reads as many
            // packets as it has QoS > 0 messages in flight, at least one (lib/loop.c) — so often
            // one packet a call, one push or receipt a turn, one commit each. Everything already
            // on the socket is read in this turn instead (up to `packetsPerTurn`), and the turn
            // commits it at once; what arrives later wakes the poll again.
            var packets = 0
            repeat {
                let rc = mosquitto_loop_read(mosq, 1)
                guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                    lost(rc)
                    break
                }
                packets += 1
            } while packets < Self.packetsPerTurn && hasInput()
        }
        if entry.revents & Int16(POLLOUT) != 0, mosquitto_socket(mosq) >= 0 {
            let rc = mosquitto_loop_write(mosq, 64)
            if rc != MOSQ_ERR_SUCCESS.rawValue { lost(rc) }
        }
    }

    /// The most packets read from the broker in one turn (so a flood still lets the loop's other
    /// clients and the screen have their turn).
    public static let packetsPerTurn = 512

    /// Bytes are waiting on the broker's socket (a peek, which takes nothing from it).
    private func hasInput() -> Bool {
        let fd = mosquitto_socket(mosq)
        guard fd >= 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// Milliseconds until the bus needs a turn without input (a connection attempt, a
    /// republish, a keep-alive, an acknowledgement's timeout, a state update), or nil.
    public func timeout() -> Int64? {
        let current = now()
        var next: [Date] = []
        switch state {
        case .reconnecting, .refused: next.append(nextAttempt)
        case .connected:
            if let due = outbox.values.map(\.due).min() { next.append(due) }
            if stateDirty { next.append(lastStatePublished.addingTimeInterval(Self.stateInterval)) }
            next.append(current.addingTimeInterval(Double(configuration.keepalive) / 2))
        case .connecting: next.append(min(current.addingTimeInterval(1), connectingSince.addingTimeInterval(Self.connectTimeout)))
        case .duplicate, .closed: break
        }
        if let deadline = acknowledgements.values.map(\.deadline).min() { next.append(deadline) }
        guard let soonest = next.min() else { return nil }
        return max(0, Int64((soonest.timeIntervalSince(current) * 1000).rounded(.up)))
    }

    /// The turn ended (its commit is done): connect when due, keep the connection alive,
    /// follow the devices, republish what is due, publish the state.
    public func turnEnded() {
        let current = now()
        switch state {
        case .reconnecting(let attempt), .refused(_, let attempt):
            if current >= nextAttempt { connect(attempt: attempt) }
        case .connecting(let attempt) where current.timeIntervalSince(connectingSince) >= Self.connectTimeout:
            // The broker's address took no connection (or sent no CONNACK) in time: the next
            // attempt closes this socket and opens another.
            failedToReach(attempt: attempt, "no answer within \(Int(Self.connectTimeout)) s")
        case .connected, .connecting:
            let rc = mosquitto_loop_misc(mosq)
            if rc != MOSQ_ERR_SUCCESS.rawValue && rc != MOSQ_ERR_NO_CONN.rawValue { lost(rc) }
        case .duplicate, .closed:
            break
        }
        expireAcknowledgements(at: current)
        guard case .connected = state else {
            // Receipts wait for the connection (the sender publishes its push again meanwhile,
            // and a repeat is receipted again); events are a live view and go.
            announcements.removeAll()
            return
        }
        if let sink, sink.revision != seenRevision {
            seenRevision = sink.revision
            followDevices(sink.deviceTokens)
            stateDirty = true
        }
        republishDue(at: current)
        if !receipts.isEmpty { publishReceipts() }
        if !announcements.isEmpty { publishAnnouncements() }
        if stateDirty && current.timeIntervalSince(lastStatePublished) >= Self.stateInterval { publishState(at: current) }
        flush()
    }

    /// Writes what libmosquitto queued in the turn (every packet is only queued, see `init`).
    /// libmosquitto writes each packet with its own write(2); the socket is corked meanwhile
    /// (TCP_CORK, tcp(7)), so the turn's packets leave together in as few segments as they fill,
    /// and the broker reads them in one wake-up — uncorking sends the rest at once, so nothing
    /// waits for a later turn.
    private func flush() {
        let fd = mosquitto_socket(mosq)
        guard fd >= 0 && mosquitto_want_write(mosq) else { return }
        var on: Int32 = 1
        let corked = setsockopt(fd, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
        let rc = mosquitto_loop_write(mosq, 64)
        if corked {
            var off: Int32 = 0
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        if rc != MOSQ_ERR_SUCCESS.rawValue { lost(rc) }
    }

    // MARK: - Connecting

    private func connect(attempt: Int) {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), configuration.sessionExpiry)
        mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), Self.maxPacketBytes)
        // libmosquitto 2.0 takes CONNECT properties (the session expiry, the packet size) only
        // in `mosquitto_connect_bind_v5`, which waits in connect(2) — a broker address that
        // drops packets would stall the loop (and the screen) for minutes. Its non-blocking
        // `mosquitto_connect_bind_async` takes none, but sends the ones the client holds: in
        // lib/connect.c `mosquitto_connect_bind_v5` stores its properties on the client before
        // it checks the port (`mosquitto__connect_init` refuses -1 with MOSQ_ERR_INVAL, before
        // any socket), and `mosquitto__reconnect` sends `mosq->connect_properties` with the
        // CONNECT. So: store them with port -1, then connect without blocking. The TCP (and
        // TLS) handshake and the CONNACK then come through the poll loop like every packet.
        let stored = mosquitto_connect_bind_v5(mosq, configuration.host, -1, configuration.keepalive, nil, properties)
        var rc = stored == MOSQ_ERR_INVAL.rawValue ? MOSQ_ERR_SUCCESS.rawValue : stored
        if rc == MOSQ_ERR_SUCCESS.rawValue {
            rc = mosquitto_connect_bind_async(mosq, configuration.host, Int32(configuration.port), configuration.keepalive, nil)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            failedToReach(attempt: attempt, Self.describe(rc))
            return
        }
        state = .connecting(attempt: attempt)
        connectingSince = now()
        flush()
    }

    /// The longest a connection attempt may take (TCP, TLS, CONNACK) before the next one.
    public static let connectTimeout: TimeInterval = 10
    private var connectingSince: Date = .distantPast

    /// An attempt failed before the broker answered: logged on the first and every tenth.
    private func failedToReach(attempt: Int, _ reason: String) {
        let failed = attempt + 1
        if failed == 1 || failed % 10 == 0 {
            log("bus: cannot reach the broker \(configuration.address): \(reason); retrying")
        }
        state = .reconnecting(attempt: failed)
        nextAttempt = now().addingTimeInterval(Self.backoff(failed))
    }

    /// 0.5 s after the first failure, doubling to `maxBackoff`.
    static func backoff(_ attempt: Int) -> TimeInterval {
        min(maxBackoff, 0.5 * pow(2, Double(min(attempt, 10) - 1)))
    }

    private static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }

    private func connected(_ rc: Int32) {
        let attempt: Int
        switch state {
        case .connecting(let count), .reconnecting(let count), .refused(_, let count): attempt = count
        default: attempt = 0
        }
        guard rc == 0 else {
            // MQTT 5 CONNACK reason codes (mosquitto_reason_string): 134 bad user name or password, 135 not authorised.
            var reason = String(cString: mosquitto_reason_string(rc))
            if rc == 134 || rc == 135 { reason += " (check --mqtt-user and $PUSHDECK_MQTT_PASSWORD)" }
            log("bus: the broker \(configuration.address) refused the connection: \(reason); pushdeck goes on locally and retries")
            state = .refused(reason, attempt: attempt + 1)
            nextAttempt = now().addingTimeInterval(Self.backoff(attempt + 1))
            return
        }
        if attempt > 0 || lastStatePublished != .distantPast { log("bus: connected to \(configuration.address) as \(configuration.id)") }
        state = .connected
        subscribed = []
        lastStateText = ""
        var mid: Int32 = 0
        mosquitto_subscribe_v5(mosq, &mid, BusReceipt.topic(sender: configuration.id), 1, 0, nil)
        mosquitto_subscribe_v5(mosq, &mid, Self.statesFilter, 1, 0, nil)
        if configuration.watchAll { mosquitto_subscribe_v5(mosq, &mid, Self.eventsFilter, 0, 0, nil) }
        seenRevision = -1
        if let sink {
            seenRevision = sink.revision
            followDevices(sink.deviceTokens)
        }
        // Everything not receipted goes again now (same ids: the owner takes each once).
        let current = now()
        for id in outbox.keys { outbox[id]?.due = current }
        stateDirty = true
    }

    private func disconnected(_ rc: Int32) {
        guard case .connected = state else { return }
        lost(rc)
    }

    /// The connection went: answers waiting for an acknowledgement get false, the next attempt
    /// is scheduled. Local work goes on.
    private func lost(_ rc: Int32) {
        switch state {
        case .closed, .duplicate: return
        case .refused(let reason, let attempt):
            state = .refused(reason, attempt: attempt)
            return
        case .connected:
            log("bus: lost the broker \(configuration.address) (\(Self.describe(rc))); reconnecting")
            state = .reconnecting(attempt: 1)
            nextAttempt = now().addingTimeInterval(Self.backoff(1))
        case .connecting(let attempt), .reconnecting(let attempt):
            // The non-blocking connect failed (refused, unreachable) or TLS did.
            failedToReach(attempt: attempt, Self.describe(rc))
        }
        let waiting = acknowledgements
        acknowledgements = [:]
        for (_, entry) in waiting { entry.done(false) }
    }

    public func close() {
        if case .connected = state {
            if !receipts.isEmpty { publishReceipts() }
            let goodbye = JSON.object(JSONObject([("online", false), ("session", .string(session))])).compactText
            mosquitto_publish_v5(mosq, nil, Self.stateTopic(configuration.id), Int32(goodbye.utf8.count), goodbye, 1, true, nil)
            mosquitto_disconnect_v5(mosq, 0, nil)
            flush()
        }
        state = .closed
    }

    // MARK: - Subscriptions

    private func followDevices(_ tokens: [String]) {
        // A watch-only instance takes no device's pushes: they stay their owners'.
        let wanted = configuration.watchAll ? [] : Set(tokens.filter(Self.isTopicLevel))
        for token in wanted.subtracting(subscribed) {
            var mid: Int32 = 0
            mosquitto_subscribe_v5(mosq, &mid, RemotePush.topic(token: token), 1, 0, nil)
        }
        for token in subscribed.subtracting(wanted) {
            var mid: Int32 = 0
            mosquitto_unsubscribe_v5(mosq, &mid, RemotePush.topic(token: token), nil)
        }
        subscribed = wanted
    }

    // MARK: - Sending

    /// Publishes a push the turn committed to the outbox (`wire`: its message, `wire(_:)`, when
    /// the caller has it already); `acknowledged` hears the broker's PUBACK.
    public func publish(_ remote: RemotePush, wire: [UInt8]? = nil, acknowledged: ((Bool) -> Void)?) {
        let current = now()
        outbox[remote.id] = Pending(push: remote, due: current.addingTimeInterval(Self.firstRetry), delay: Self.firstRetry)
        let mid = send(remote, wire: wire)
        guard let acknowledged else { return }
        guard let mid else {
            acknowledged(false)
            return
        }
        acknowledgements[mid] = (remote.id, current.addingTimeInterval(Self.acknowledgementTimeout), acknowledged)
    }

    /// The message published for `remote`: the push, its source, its id, this instance as its sender.
    public func wire(_ remote: RemotePush) -> [UInt8] {
        var bytes: [UInt8] = []
        remote.wireJSON(sender: configuration.id).write(into: &bytes)
        return bytes
    }

    /// One QoS 1 publish of `remote`; its message id, or nil when it could not be sent.
    private func send(_ remote: RemotePush, wire: [UInt8]? = nil) -> Int32? {
        guard case .connected = state else { return nil }
        let bytes = wire ?? self.wire(remote)
        var mid: Int32 = 0
        let rc = bytes.withUnsafeBytes { buffer in
            mosquitto_publish_v5(mosq, &mid, remote.topic, Int32(buffer.count), buffer.baseAddress, 1, false, nil)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            log("bus: could not publish push \(remote.id): \(Self.describe(rc)); it stays in the outbox")
            return nil
        }
        return mid
    }

    private func acknowledged(_ mid: Int32, reason: Int32) {
        guard let entry = acknowledgements.removeValue(forKey: mid) else { return }
        // MQTT 5 PUBACK reason codes below 0x80 are successes (0x10: no matching subscribers
        // yet — the push stays in the outbox and goes again until its owner's receipt).
        entry.done(reason < 0x80)
    }

    private func expireAcknowledgements(at current: Date) {
        for (mid, entry) in acknowledgements where entry.deadline <= current {
            acknowledgements[mid] = nil
            entry.done(false)
        }
    }

    private func republishDue(at current: Date) {
        for (id, pending) in outbox where pending.due <= current {
            if pending.push.expiresAt <= current {
                outbox[id] = nil
                sink?.record(.outboxRemove(id: id))
                log("bus: push \(id) for \(pending.push.token.prefix(200)) expired without a receipt from its owner")
                continue
            }
            _ = send(pending.push)
            let delay = min(Self.maxRetry, pending.delay * 2)
            outbox[id] = Pending(push: pending.push, due: current.addingTimeInterval(pending.delay), delay: delay)
        }
    }

    private func publishState(at current: Date) {
        guard let sink else { return }
        var fields = sink.stateFields()
        fields.append(("bus", .string(statusLine)))
        fields.append(("online", true))
        fields.append(("session", .string(session)))
        fields.append(("batches", Self.batches))
        let text = JSON.object(JSONObject(fields)).compactText
        stateDirty = false
        lastStatePublished = current
        guard text != lastStateText else { return }
        lastStateText = text
        mosquitto_publish_v5(mosq, nil, Self.stateTopic(configuration.id), Int32(text.utf8.count), text, 1, true, nil)
    }

    /// The inbox changed: the retained state is published again (at most every `stateInterval`).
    public func inboxChanged() { stateDirty = true }

    /// A bus event as `watch` prints it, for `instances/{id}/events` (QoS 0: a live view, not a
    /// log): published when the turn has committed (`turnEnded`), dropped with a failed commit.
    public func announce(_ line: [UInt8]) {
        guard case .connected = state else { return }
        announcements.append(line)
    }

    public func discardAnnouncements() { announcements.removeAll() }

    private var announcements: [[UInt8]] = []

    /// Receipts of pushes the turn committed, by sender, sent when it ends (`publishReceipts`).
    private var receipts: [String: [[UInt8]]] = [:]

    /// The turn's events: one message of several lines when every instance on the bus takes
    /// them so (see `takesBatches`), else one message each. A line is an event as `watch` prints
    /// it, so a message of several reads as `watch`'s output does.
    private func publishAnnouncements() {
        let lines = announcements
        announcements.removeAll()
        let topic = Self.eventsTopic(configuration.id)
        let messages = lines.count > 1 && everyInstanceTakesEventBatches() ? BusLines.join(lines) : lines
        for message in messages {
            message.withUnsafeBytes { bytes in
                _ = mosquitto_publish_v5(mosq, nil, topic, Int32(bytes.count), bytes.baseAddress, 0, false, nil)
            }
        }
    }

    /// The turn's receipts, QoS 1, to each sender's receipts topic: one message of several lines
    /// (up to `BusLines.maxMessageBytes`) to a sender whose state lists `receipts` among its
    /// `batches`, else one message a receipt, the form every sender takes.
    private func publishReceipts() {
        let waiting = receipts
        receipts.removeAll()
        for (sender, lines) in waiting {
            let topic = BusReceipt.topic(sender: sender)
            let messages = lines.count > 1 && takesBatches(of: BusLines.receipts, instance: sender) ? BusLines.join(lines) : lines
            for message in messages {
                message.withUnsafeBytes { bytes in
                    _ = mosquitto_publish_v5(mosq, nil, topic, Int32(bytes.count), bytes.baseAddress, 1, false, nil)
                }
            }
        }
    }

    /// What this instance takes several of in one message, one a line, in its retained state.
    static let batches: JSON = .array([.string(BusLines.receipts), .string(BusLines.events)])

    /// The instance `id`'s last state lists `kind` among its `batches`: an instance of a version
    /// before them lists none, and reads only one receipt or event a message.
    private func takesBatches(of kind: String, instance id: String) -> Bool {
        guard let batches = instances[id]?["batches"]?.arrayValue else { return false }
        return batches.contains(.string(kind))
    }

    /// Every instance whose last state says it is online takes several events in one message:
    /// anyone on the bus may be a watch-all screen reading this instance's events.
    private func everyInstanceTakesEventBatches() -> Bool {
        instances.allSatisfy { id, state in
            state["online"]?.boolValue != true || takesBatches(of: BusLines.events, instance: id)
        }
    }

    // MARK: - Receiving

    private func arrived(_ message: mosquitto_message) {
        guard let topicPointer = message.topic else { return }
        let topic = String(cString: topicPointer)
        let count = Int(max(0, message.payloadlen))
        if topic.hasPrefix(Self.pushPrefix) && topic.hasSuffix(Self.pushSuffix) {
            let token = String(topic.dropFirst(Self.pushPrefix.count).dropLast(Self.pushSuffix.count))
            // The size first: nothing larger than the socket's own limit is even copied.
            guard count <= RemotePush.maxWireBytes else {
                refuse(topic: topic, "a push of \(count) bytes is larger than the \(RemotePush.maxWireBytes)-byte limit")
                return
            }
            let bytes = Self.bytes(message.payload, count)
            takePush(bytes, token: token, topic: topic)
        } else if topic == BusReceipt.topic(sender: configuration.id) {
            guard count <= 64 * 1024 else { return }
            takeReceipt(Self.bytes(message.payload, count))
        } else if configuration.watchAll && topic.hasPrefix("\(Self.root)/instances/") && topic.hasSuffix("/events") {
            let id = String(topic.dropFirst("\(Self.root)/instances/".count).dropLast("/events".count))
            guard id != configuration.id else { return }
            guard count <= RemotePush.maxWireBytes else {
                refuse(topic: topic, "an event of \(count) bytes is larger than the \(RemotePush.maxWireBytes)-byte limit")
                return
            }
            takeEvent(Self.bytes(message.payload, count), of: id, topic: topic)
        } else if topic.hasPrefix("\(Self.root)/instances/") && topic.hasSuffix("/state") {
            guard count <= 64 * 1024 else { return }
            let id = String(topic.dropFirst("\(Self.root)/instances/".count).dropLast("/state".count))
            takeState(Self.bytes(message.payload, count), of: id)
        }
    }

    private static func bytes(_ payload: UnsafeMutableRawPointer?, _ count: Int) -> [UInt8] {
        guard let payload, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: payload, count: count))
    }

    private func refuse(topic: String, _ reason: String) {
        refusedPushes += 1
        log("bus: refused a message on \(TerminalSafe.line(topic)): \(TerminalSafe.line(reason))")
    }

    /// The test hook `PUSHDECK_TEST_DIE_BEFORE_RECEIPT=1`, read once: `ProcessInfo.environment`
    /// builds a dictionary of the whole environment on each call, which was a sixth of the
    /// owner's CPU time per push when it was read for every push.
    private static let dieBeforeReceipt = getenv("PUSHDECK_TEST_DIE_BEFORE_RECEIPT").map { String(cString: $0) == "1" } ?? false

    private func takePush(_ bytes: [UInt8], token: String, topic: String) {
        let remote: RemotePush
        let sender: String
        do {
            (remote, sender) = try RemotePush.decode(wire: bytes, topicToken: token)
        } catch {
            refuse(topic: topic, error.message)
            return
        }
        guard let sink else { return }
        received += 1
        sink.submit(.push(remote.request(sender: sender))) { [weak self] reply in
            if case .error(let message) = reply {
                self?.log("bus: push \(remote.id) from \(sender) refused: \(TerminalSafe.line(message))")
            }
            // A test hook: die between the commit and the receipt (the crash the receipts are for).
            if Self.dieBeforeReceipt { kill(getpid(), SIGKILL) }
            guard let self else { return }
            var line: [UInt8] = []
            BusReceipt(push: remote.id, reply: reply).wireJSON.write(into: &line)
            self.receipts[sender, default: []].append(line)
            self.stateDirty = true
        }
    }

    /// Watch-all: another instance's event (untrusted, read by the one event decoder). A push it
    /// delivered (`remote.received`, `message.received`) is shown here too, tagged with the instance's id; its other
    /// events change nothing here. A push one watch-all instance shows is not shown again by
    /// another (it is tagged already), so two of them do not echo each other.
    private func takeEvent(_ bytes: [UInt8], of id: String, topic: String) {
        guard BusIdentity.isValid(id) else { return }
        // One event, or several, one a line, as `watch` prints them.
        for line in BusLines.split(bytes) { takeEvent(line: Array(line), of: id, topic: topic) }
    }

    private func takeEvent(line bytes: [UInt8], of id: String, topic: String) {
        let root: JSON
        do {
            root = try JSON.parse(bytes)
        } catch {
            refuse(topic: topic, error.wireMessage(subject: "event", bytes: bytes))
            return
        }
        guard let object = root.objectValue else {
            refuse(topic: topic, "an event must be a JSON object; got \(root.kindName)")
            return
        }
        let event: BusEvent
        do {
            event = try BusEvent(wire: object)
        } catch {
            refuse(topic: topic, error.message)
            return
        }
        // `remote.received` (an APNs or Android notification) or `message.received` (pass-through):
        // one of them for every push an instance delivered.
        guard event.topic == .messageReceived || event.topic == .remoteReceived, case .received(let message)? = event.body,
              message.apnsHeaders[RemotePush.instanceHeader] == nil, let sink
        else { return }
        var headers = message.apnsHeaders
        headers[RemotePush.instanceHeader] = id
        let request = PushRequest(
            payloadText: message.payload, app: message.app, channel: message.channel, collapseId: message.collapseId,
            via: .mqtt, headers: headers)
        received += 1
        sink.submit(.push(request)) { [weak self] reply in
            if case .error(let reason) = reply {
                self?.log("bus: a push \(id) took could not be shown here: \(TerminalSafe.line(reason))")
            }
        }
    }

    /// One receipt, or several, one a line (`BusReceipt.decode(lines:)`).
    private func takeReceipt(_ bytes: [UInt8]) {
        let (taken, malformed) = BusReceipt.decode(lines: bytes)
        if malformed > 0 || taken.isEmpty {
            log("bus: a receipt that is not one arrived on \(BusReceipt.topic(sender: configuration.id)); ignored")
        }
        for receipt in taken {
            guard let pending = outbox.removeValue(forKey: receipt.push) else { continue }
            sink?.record(.outboxRemove(id: receipt.push))
            if receipt.fate == .refused {
                log("bus: the owner of \(pending.push.token.prefix(200)) refused push \(receipt.push): \(TerminalSafe.line(receipt.reason ?? "no reason"))")
            }
        }
    }

    private func takeState(_ bytes: [UInt8], of id: String) {
        guard BusIdentity.isValid(id) else { return }
        guard !bytes.isEmpty, let fields = (try? JSON.parse(bytes))?.objectValue else {
            instances[id] = nil
            return
        }
        if id == configuration.id, fields["session"]?.stringValue != session, fields["online"]?.boolValue == true,
           lastStatePublished == .distantPast
        {
            // Another live instance has published this id's state and this one has not yet:
            // this one is the second, and leaves the bus (the first keeps it).
            log("bus: another live pushdeck is on the bus as \(id); choose another --mqtt-id. Going on locally")
            mosquitto_disconnect_v5(mosq, 0, nil)
            flush()
            self.state = .duplicate
            let waiting = acknowledgements
            acknowledgements = [:]
            for (_, entry) in waiting { entry.done(false) }
            return
        }
        instances[id] = fields
    }
}

/// Text from the broker is untrusted: one line with control characters shown as `?`, at most 300.
enum TerminalSafe {
    static func line(_ text: String) -> String {
        String(String(text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? Character("?") : Character(scalar)
        }).prefix(300))
    }
}
