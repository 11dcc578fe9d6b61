import Foundation
import Glibc
import Testing
import TestSupport

/// The team bus with a real broker: every test starts its own `mosquitto` (MosquittoBroker) and
/// real `pushdeck serve --mqtt` processes; A has the gateway, B owns the device.
@Suite(.serialized) struct TeamBusTests {
    static let token = "b0b0" + String(repeating: "ab", count: 30)
    static let app = "com.example.gateway"

    /// B: owns `token`, on the bus as `b` (its database in `folder`, so it can be started again).
    static func startOwner(_ broker: MosquittoBroker, folder: TempFolder = TempFolder(), environment: [String: String] = [:],
                           addDevice: Bool = true) throws -> ServerProcess {
        let owner = try ServerProcess(
            folder: folder, extraArguments: ["--mqtt", broker.url, "--mqtt-id", "b"], environment: environment)
        if addDevice {
            #expect(try owner.run(["device", "add", token, "--app", app]).status == 0)
        }
        return owner
    }

    /// A: the gateway the backend calls, on the bus as `a`.
    static func startSender(_ broker: MosquittoBroker, folder: TempFolder = TempFolder()) throws -> GatewayServer {
        try GatewayServer(extraArguments: ["--mqtt", broker.url, "--mqtt-id", "a"], folder: folder, memory: false)
    }

    /// One APNs push to `token` through A's gateway: the HTTP status and the apns-id it answered.
    static func push(_ gateway: GatewayServer, _ number: Int, apnsId: String = UUID().uuidString.lowercased()) throws -> (status: Int, apnsId: String) {
        let body = #"{"aps":{"alert":{"title":"push \#(number)"},"badge":\#(number)}}"#
        let result = try gateway.curl(["-H", "apns-id: \(apnsId)"], path: "/3/device/\(token)", tls: false, body: body, topic: app)
        let status = Int(result.output.split(separator: "\n").last?.split(separator: " ").first ?? "") ?? 0
        return (status, apnsId)
    }

    static func outbox(_ server: ServerProcess) -> Int { server.busState()?["outbox"] as? Int ?? -1 }

    static func apnsIds(_ server: ServerProcess) -> [String] {
        server.messages().compactMap { ($0["apnsHeaders"] as? [String: String])?["apns-id"] }
    }

    @Test func aPushForAnotherInstancesDeviceArrivesThereAndNotHere() throws {
        let broker = try MosquittoBroker()
        let owner = try Self.startOwner(broker)
        let sender = try Self.startSender(broker)
        #expect(owner.waitForBus() && sender.server.waitForBus())
        // B's events as `watch` prints them, on instances/b/events.
        let events = broker.folder.file("events")
        let watcher = try Spawn.start(["sh", "-c", "exec mosquitto_sub -h 127.0.0.1 -p \(broker.port) -t pushdeck/v1/instances/b/events -C 1 -W 20 > \(events)"])
        defer { kill(watcher, SIGKILL); _ = Spawn.wait(watcher) }
        #expect(waitUntil { broker.log.contains("pushdeck/v1/instances/b/events") })
        let sent = try Self.push(sender, 7)
        #expect(sent.status == 200)
        #expect(waitUntil { owner.messageCount() == 1 })
        #expect(waitUntil { ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").contains("push 7") })
        #expect(sender.server.messageCount() == 0)
        let message = try #require(owner.messages().first)
        #expect(message["via"] as? String == "mqtt")
        let headers = message["apnsHeaders"] as? [String: String] ?? [:]
        #expect(headers["pushdeck-sender"] == "a" && headers["pushdeck-via"] == "apns" && headers["apns-id"] == sent.apnsId)
        // The receipt came back: nothing is left in A's outbox.
        #expect(waitUntil { Self.outbox(sender.server) == 0 })
        // B's retained state says what B has; A saw it.
        #expect(waitUntil {
            let instances = sender.server.busState()?["instances"] as? [String: Any]
            let b = instances?["b"] as? [String: Any]
            return b?["online"] as? Bool == true && b?["unread"] as? Int == 1 && (b?["devices"] as? [String]) == [Self.token]
        })
    }

    @Test func anOwnerAwayGetsEveryPushOnceWhenItComesBack() throws {
        let broker = try MosquittoBroker()
        let ownerFolder = TempFolder()
        var owner: ServerProcess? = try Self.startOwner(broker, folder: ownerFolder)
        let sender = try Self.startSender(broker)
        #expect(try #require(owner).waitForBus() && sender.server.waitForBus())
        owner?.stop()
        owner = nil
        for number in 1...50 { #expect(try Self.push(sender, number).status == 200) }
        let back = try Self.startOwner(broker, folder: ownerFolder, addDevice: false)
        #expect(waitUntil(seconds: 20) { back.messageCount() == 50 })
        #expect(waitUntil { Self.outbox(sender.server) == 0 })
        #expect(Set(Self.apnsIds(back)).count == 50)
        // The last push set the badge to 50: none came after it again (a repeat would be dropped by id).
        #expect(try back.run(["badge", "--app", Self.app]).output == "50")
        #expect(back.messageCount() == 50)
    }

    @Test func aBrokerRestartedMidStreamLosesNothingAcknowledged() throws {
        let broker = try MosquittoBroker(persistence: true)
        let owner = try Self.startOwner(broker)
        let sender = try Self.startSender(broker)
        #expect(owner.waitForBus() && sender.server.waitForBus())
        var acknowledged: [String] = []
        var refused = 0
        for number in 1...30 {
            if number == 11 { try broker.restart() }
            // Once the pushes sent while both reconnect are answered, the rest go through the restarted broker.
            if number == 21 { #expect(owner.waitForBus() && sender.server.waitForBus()) }
            let sent = try Self.push(sender, number)
            if sent.status == 200 { acknowledged.append(sent.apnsId) } else { refused += 1; #expect(sent.status == 503) }
            if number > 20 || number < 11 { #expect(sent.status == 200) }
        }
        #expect(acknowledged.count + refused == 30)
        // Every push answered 200 arrives, once.
        #expect(waitUntil(seconds: 30) { Set(Self.apnsIds(owner)).isSuperset(of: acknowledged) })
        let ids = Self.apnsIds(owner)
        #expect(ids.count == Set(ids).count)
        #expect(waitUntil(seconds: 30) { Self.outbox(sender.server) == 0 })
    }

    @Test func anOwnerKilledBetweenItsCommitAndItsReceiptCountsThePushOnce() throws {
        let broker = try MosquittoBroker()
        let ownerFolder = TempFolder()
        let dying = try Self.startOwner(broker, folder: ownerFolder, environment: ["PUSHDECK_TEST_DIE_BEFORE_RECEIPT": "1"])
        let sender = try Self.startSender(broker)
        #expect(dying.waitForBus() && sender.server.waitForBus())
        let sent = try Self.push(sender, 1)
        #expect(sent.status == 200)
        #expect(waitUntil { !dying.process.isRunning })
        #expect(dying.process.terminationReason == .uncaughtSignal && dying.process.terminationStatus == SIGKILL)
        // The broker had its PUBACK (libmosquitto sends it before the message callback), so only
        // the sender's republish brings the push again: the owner drops it by id and receipts it.
        #expect(Self.outbox(sender.server) == 1)
        let back = try Self.startOwner(broker, folder: ownerFolder, addDevice: false)
        #expect(waitUntil(seconds: 20) { Self.outbox(sender.server) == 0 })
        #expect(back.messageCount() == 1)
        #expect(Self.apnsIds(back) == [sent.apnsId])
    }

    @Test func aSenderKilledAfterIts200PublishesItsOutboxAgainAtStartAndThePushCountsOnce() throws {
        let broker = try MosquittoBroker()
        let ownerFolder = TempFolder()
        var owner: ServerProcess? = try Self.startOwner(broker, folder: ownerFolder)
        let senderFolder = TempFolder()
        let sender = try Self.startSender(broker, folder: senderFolder)
        #expect(try #require(owner).waitForBus() && sender.server.waitForBus())
        // The owner away: no receipt can come, so the push stays in the sender's outbox.
        owner?.stop()
        owner = nil
        let sent = try Self.push(sender, 1)
        #expect(sent.status == 200 && Self.outbox(sender.server) == 1)
        sender.server.kill9()
        // Started again on its store: the outbox is published again, same id; the broker also
        // kept the first publish for the owner's session. The owner takes it once and receipts it.
        let again = try Self.startSender(broker, folder: senderFolder)
        #expect(again.server.waitForBus())
        #expect(Self.outbox(again.server) == 1)
        let back = try Self.startOwner(broker, folder: ownerFolder, addDevice: false)
        #expect(waitUntil(seconds: 20) { Self.outbox(again.server) == 0 })
        #expect(back.messageCount() == 1 && Self.apnsIds(back) == [sent.apnsId])
    }

    @Test func aBadPayloadIsRefusedAndLoggedAndNothingElseIsDisturbed() throws {
        let broker = try MosquittoBroker()
        let owner = try Self.startOwner(broker)
        let sender = try Self.startSender(broker)
        #expect(owner.waitForBus() && sender.server.waitForBus())
        let topic = "pushdeck/v1/devices/\(Self.token)/push"
        #expect(try broker.publish(["-q", "1", "-t", topic, "-m", "not json"]).status == 0)
        #expect(try broker.publish(["-q", "1", "-t", topic, "-m", #"{"id":"x","sender":"a/b"}"#]).status == 0)
        // 10 MB: the broker does not even send it (this client's Maximum Packet Size); 100 KB: over the push limit.
        let big = TempFolder()
        try Data(repeating: 0x7B, count: 10 << 20).write(to: URL(fileURLWithPath: big.file("big")))
        try Data(repeating: 0x20, count: 100 << 10).write(to: URL(fileURLWithPath: big.file("medium")))
        #expect(try broker.publish(["-q", "1", "-t", topic, "-f", big.file("big")]).status == 0)
        #expect(try broker.publish(["-q", "1", "-t", topic, "-f", big.file("medium")]).status == 0)
        #expect(waitUntil { owner.serverLog.components(separatedBy: "bus: refused a message on \(topic)").count - 1 == 3 })
        #expect(owner.serverLog.contains("larger than the 65536-byte limit"))
        #expect(owner.messageCount() == 0)
        #expect(owner.busState()?["bus"] as? String == "bus connected")
        #expect(try Self.push(sender, 1).status == 200)
        #expect(waitUntil { owner.messageCount() == 1 })
    }

    @Test func aWrongBrokerPasswordSaysSoAndLocalWorkGoesOn() throws {
        let broker = try MosquittoBroker(users: ["ana": "right"])
        let owner = try ServerProcess(
            extraArguments: ["--mqtt", broker.url, "--mqtt-id", "b", "--mqtt-user", "ana"], memory: true,
            environment: ["PUSHDECK_MQTT_PASSWORD": "wrong"])
        #expect(waitUntil { (owner.busState()?["bus"] as? String ?? "").hasPrefix("bus refused: ") })
        // mosquitto 2.0 answers a wrong password with CONNACK 135 "Not authorized" (134 is "Bad user name or password").
        #expect(owner.busState()?["bus"] as? String == "bus refused: Not authorized (check --mqtt-user and $PUSHDECK_MQTT_PASSWORD)")
        #expect(owner.serverLog.contains(
            "bus: the broker 127.0.0.1:\(broker.port) refused the connection: Not authorized (check --mqtt-user and $PUSHDECK_MQTT_PASSWORD); pushdeck goes on locally and retries"))
        #expect(try owner.run(["send", "--title", "local"]).status == 0)
        #expect(owner.messageCount() == 1)
        let right = try ServerProcess(
            extraArguments: ["--mqtt", broker.url, "--mqtt-id", "c", "--mqtt-user", "ana"], memory: true,
            environment: ["PUSHDECK_MQTT_PASSWORD": "right"])
        #expect(right.waitForBus())
    }

    @Test func withTheBrokerDownAPushForAnotherInstanceIsRefusedAtOnce() throws {
        let broker = try MosquittoBroker()
        let sender = try Self.startSender(broker)
        #expect(sender.server.waitForBus())
        broker.stop()
        #expect(waitUntil { sender.server.busState()?["bus"] as? String != "bus connected" })
        let started = Date()
        let result = try sender.curl([], path: "/3/device/\(Self.token)", tls: false, body: #"{"aps":{"alert":"x"}}"#, topic: Self.app)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(result.output.split(separator: "\n").last?.hasPrefix("503 ") == true)
        #expect(result.output.contains(#"{"reason":"ServiceUnavailable"}"#))
        #expect(sender.server.messageCount() == 0 && Self.outbox(sender.server) == 0)
        // A push for a device of its own still lands.
        #expect(try sender.server.run(["send", "--title", "local"]).status == 0)
    }

    @Test func aPushForAnotherInstanceShowsOnItsScreenWithTheBusInTheHeader() throws {
        let broker = try MosquittoBroker()
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        let command = "\(PackagePaths.pushdeckBinary) ui --socket \(socket) --memory --mqtt \(broker.url) --mqtt-id b"
        let tmux = try TmuxSession(command: command, width: 120, height: 30, folder: folder,
                                   environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(tmux.waitFor { $0.contains("bus connected") } != nil, "header: \(tmux.capture())")
        #expect(waitUntil { (try? runPushdeck(["device", "add", Self.token, "--app", Self.app, "--socket", socket]))?.status == 0 })
        let sender = try Self.startSender(broker)
        #expect(sender.server.waitForBus())
        #expect(try Self.push(sender, 7).status == 200)
        #expect(tmux.waitFor { $0.contains("push 7") } != nil, "screen: \(tmux.capture())")
        #expect(sender.server.messageCount() == 0)
        broker.stop()
        // The banner covers the header for its 5 s; then the header shows the bus reconnecting.
        #expect(tmux.waitFor(timeout: 15) { $0.contains("bus reconnecting (") } != nil, "header: \(tmux.capture())")
    }

    @Test func aSocketPushForAnotherInstancesDeviceGoesByTheBusAndIsAnsweredAfterTheBrokersAck() throws {
        let broker = try MosquittoBroker()
        let owner = try Self.startOwner(broker)
        let sender = try ServerProcess(extraArguments: ["--mqtt", broker.url, "--mqtt-id", "a"], memory: true)
        #expect(owner.waitForBus() && sender.waitForBus())
        let sent = try sender.run(["send", "--token", Self.token, "--app", Self.app, "--title", "by socket"])
        #expect(sent.status == 0, "\(sent.stderr)")
        // Answered once the outbox row is committed and the broker acknowledged the publish.
        #expect(sent.stdout.contains(#""forwarded":"#) && sent.stdout.contains("pushdeck/v1/devices/\(Self.token)/push"))
        #expect(waitUntil { owner.messageCount() == 1 })
        let message = try #require(owner.messages().first)
        #expect(message["title"] as? String == "by socket" && message["via"] as? String == "mqtt")
        #expect((message["apnsHeaders"] as? [String: String])?["pushdeck-via"] == "socket")
        #expect(sender.messageCount() == 0)
        #expect(waitUntil { Self.outbox(sender) == 0 })
        // Replies stay in order: a push and a ping on one connection, the push's reply first.
        let client = try RawClient(path: sender.socket)
        try client.send(#"{"op":"push","token":"\#(Self.token)","payload":{"aps":{"alert":"second"}}}"# + "\n" + #"{"op":"ping"}"# + "\n")
        #expect(try client.readReply()["forwarded"] != nil)
        #expect(try client.readReply()["version"] != nil)
        #expect(waitUntil { owner.messageCount() == 2 })
        // A token of this instance's own stays here; a token that is no topic level is refused.
        #expect(try sender.run(["device", "add", "a0a0", "--app", Self.app]).status == 0)
        #expect(try sender.run(["send", "--token", "a0a0", "--title", "mine"]).status == 0)
        #expect(sender.messageCount() == 1)
        let bad = try sender.run(["send", "--token", "a/b", "--title", "x"])
        #expect(bad.status == 1 && bad.stderr.contains(#""token" must be a device token"#), "\(bad.stderr)")
        // With the broker down: the vendor's unavailable answer at once, nothing kept.
        broker.stop()
        #expect(waitUntil { sender.busState()?["bus"] as? String != "bus connected" })
        let refused = try sender.run(["send", "--token", Self.token, "--title", "lost?"])
        #expect(refused.status == 1 && refused.stderr.contains("the team bus is not connected"), "\(refused.stderr)")
        #expect(Self.outbox(sender) == 0 && sender.messageCount() == 1)
    }

    @Test func aBrokerAddressThatDropsEveryPacketDoesNotStallTheLoop() throws {
        // A listener whose accept queue is full: the kernel drops every further SYN, so a
        // connect(2) to it waits (and retries) for minutes — a blackholed broker address.
        let blackhole = try BlackholePort()
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        let pid = try Spawn.start([PackagePaths.pushdeckBinary, "serve", "--socket", socket, "--memory",
                                   "--mqtt", "mqtt://127.0.0.1:\(blackhole.port)", "--mqtt-id", "b"])
        defer { kill(pid, SIGKILL); _ = Spawn.wait(pid) }
        #expect(waitUntil { (try? runPushdeck(["ping", "--socket", socket], timeout: 2))?.status == 0 })
        // Every request is answered at once while the bus waits for its broker.
        for number in 1...10 {
            let started = Date()
            let result = try runPushdeck(["send", "--title", "local \(number)", "--socket", socket], timeout: 2)
            #expect(result.status == 0 && Date().timeIntervalSince(started) < 1.5)
            usleep(200_000)
        }
        let bus = try runPushdeck(["bus", "--socket", socket], timeout: 2)
        #expect(bus.status == 0 && bus.stdout.hasPrefix("bus reconnecting ("), "\(bus.stdout)")
    }

    @Test func mqttsWithTheBrokersCAConnectsAndWithoutItDoesNot() throws {
        let keys = TempFolder()
        let ca = keys.file("ca.pem")
        let caKey = keys.file("ca.key")
        let cert = keys.file("broker.pem")
        let key = keys.file("broker.key")
        let request = keys.file("broker.csr")
        let extensions = keys.file("san.cnf")
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        for command in [
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", caKey,
             "-out", ca, "-days", "2", "-subj", "/CN=pushdeck test CA"],
            ["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
             "-out", request, "-subj", "/CN=127.0.0.1"],
            ["openssl", "x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", cert,
             "-days", "2", "-extfile", extensions],
        ] {
            let result = try runProgram(command)
            #expect(result.status == 0, "\(command[1]): \(result.stderr)")
        }
        // The broker's one listener speaks TLS (certfile and keyfile apply to the listener above them).
        let broker = try MosquittoBroker(extraConfig: ["certfile \(cert)", "keyfile \(key)"])
        let url = "mqtts://127.0.0.1:\(broker.port)"
        let trusting = try ServerProcess(extraArguments: ["--mqtt", url, "--mqtt-ca", ca, "--mqtt-id", "b"], memory: true)
        #expect(trusting.waitForBus(), "\(trusting.serverLog)")
        #expect(try trusting.run(["device", "add", Self.token, "--app", Self.app]).status == 0)
        // A push by the bus over TLS, from another instance through the same listener.
        let sender = try ServerProcess(extraArguments: ["--mqtt", url, "--mqtt-ca", ca, "--mqtt-id", "a"], memory: true)
        #expect(sender.waitForBus())
        #expect(try sender.run(["send", "--token", Self.token, "--title", "over tls"]).status == 0)
        #expect(waitUntil { trusting.messageCount() == 1 })
        // Without the CA the broker's certificate chains to nothing the system trusts: no bus, local work goes on.
        let doubting = try ServerProcess(extraArguments: ["--mqtt", url, "--mqtt-id", "c"], memory: true)
        #expect(waitUntil { (doubting.busState()?["bus"] as? String ?? "").hasPrefix("bus reconnecting (") && doubting.serverLog.contains("bus: cannot reach the broker") })
        #expect(doubting.busState()?["bus"] as? String != "bus connected")
        #expect(try doubting.run(["send", "--title", "local"]).status == 0)
    }
    @Test func aWatchAllScreenShowsEveryInstancesPushesTaggedAndTakesNoDevice() throws {
        let broker = try MosquittoBroker()
        let owner = try Self.startOwner(broker)
        let other = try ServerProcess(extraArguments: ["--mqtt", broker.url, "--mqtt-id", "c"], memory: true)
        let sender = try Self.startSender(broker)
        #expect(owner.waitForBus() && other.waitForBus() && sender.server.waitForBus())
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        let command = "\(PackagePaths.pushdeckBinary) ui --socket \(socket) --memory --mqtt \(broker.url) --mqtt-id wall --watch-all"
        let tmux = try TmuxSession(command: command, width: 120, height: 30, folder: folder,
                                   environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(tmux.waitFor { $0.contains("bus connected") } != nil, "header: \(tmux.capture())")
        // The wall registers the owner's token too: still the owner's push, only shown here.
        #expect(waitUntil { (try? runPushdeck(["device", "add", Self.token, "--app", Self.app, "--socket", socket]))?.status == 0 })
        #expect(waitUntil { broker.log.contains("wall 0 pushdeck/v1/instances/+/events") })
        #expect(try Self.push(sender, 7).status == 200)
        #expect(try other.run(["send", "--title", "local on c"]).status == 0)
        #expect(tmux.waitFor { $0.contains("[b] push 7") && $0.contains("[c] local on c") } != nil, "screen: \(tmux.capture())")
        #expect(waitUntil { owner.messageCount() == 1 })
        #expect(waitUntil { Self.outbox(sender.server) == 0 })
        // Taken once, by its owner: the wall took no device topic and sent no receipt.
        #expect(!broker.log.contains("wall 1 pushdeck/v1/devices/"))
        let listed = try runPushdeck(["list", "--json", "--socket", socket])
        #expect(listed.stdout.contains(#""pushdeck-instance":"b""#) && listed.stdout.contains(#""pushdeck-instance":"c""#))
    }
}

/// A loopback port whose listener never accepts and whose accept queue is full: the kernel
/// drops every further SYN to it, as a firewall that blackholes the address would.
final class BlackholePort {
    let port: Int
    private var fds: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        fds.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0 && listen(listener, 0) == 0
            }
        }
        guard bound else { throw RawClientError("no blackhole port: \(String(cString: strerror(errno)))") }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue (a backlog of 0 holds one); the rest wait in SYN_SENT.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fds.append(filler)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        usleep(100_000)
    }

    deinit { for fd in fds { close(fd) } }
}
