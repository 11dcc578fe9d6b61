import Foundation
import Glibc
import PushBus
import PushCore
import PushJSON
import Testing
import TestSupport

/// The bus's own socket to a real broker (a private mosquitto), driven as the server's loop
/// drives it: `pollEntries`, `poll(2)`, `ready`, `turnEnded`.
@Suite struct BusSocketTests {
    /// Nagle's algorithm holds a small packet while an earlier one is unacknowledged, and the
    /// peer delays its ACK (up to 40 ms on Linux): a receipt written right after a PUBACK waited
    /// that long. The bus's socket has TCP_NODELAY, so each packet leaves when written.
    @Test func theBrokerConnectionSendsEachPacketAtOnce() throws {
        let broker = try MosquittoBroker()
        let configuration = BusConfiguration(host: "127.0.0.1", port: broker.port, id: "nodelay")
        let bus = try Bus(configuration, outbox: [], log: { _ in })
        defer { bus.close() }
        Self.drive(bus) { bus.state == .connected }
        try #require(bus.state == .connected, "the bus did not connect: \(broker.log)")
        var entries: [pollfd] = []
        bus.pollEntries(into: &entries)
        let fd = try #require(entries.first?.fd)
        var flag: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &flag, &length) == 0)
        #expect(flag != 0)
    }

    /// libmosquitto's `mosquitto_loop_read` reads one packet when nothing of its own is in
    /// flight: the owner took one push a turn, each in its own commit. One turn now takes every
    /// push already on the socket, and the server commits them together.
    @Test func oneTurnTakesEveryPushAlreadyOnTheSocket() throws {
        let broker = try MosquittoBroker()
        let token = String(repeating: "ab", count: 32)
        let sink = CountingSink(tokens: [token])
        let owner = try Bus(BusConfiguration(host: "127.0.0.1", port: broker.port, id: "owner"), outbox: [], log: { _ in })
        owner.attach(sink)
        defer { owner.close() }
        // Connected, subscribed to the token's pushes, and its own retained state back: the
        // socket is quiet before the pushes come.
        Self.drive(owner) { broker.log.contains("owner 1 \(RemotePush.topic(token: token))") && owner.instances["owner"] != nil }
        try #require(owner.instances["owner"] != nil, "the owner did not subscribe: \(broker.log)")

        let count = 20
        let now = Date()
        let lines = (0..<count).map { _ in
            RemotePush(
                id: UUID().uuidString.lowercased(), token: token, payloadText: #"{"aps":{"alert":"one of many"}}"#, app: "com.example.app",
                channel: nil, collapseId: nil, pushType: "alert", priority: nil, via: .apns, headers: [:],
                acceptedAt: now, expiresAt: now.addingTimeInterval(3600)
            ).wireJSON(sender: "sender").compactText
        }
        let onTheSocket = try publishAndWaitOnTheSocket(of: owner, lines, token: token, broker: broker)
        var entry = onTheSocket.entry
        var peek = [UInt8](repeating: 0, count: 1 << 16)
        entry.revents = Int16(POLLIN)
        owner.ready(entry)
        #expect(sink.submitted == count, "refused \(owner.refusedPushes), peeked \(recv(entry.fd, &peek, peek.count, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))) of \(onTheSocket.expected)")
    }

    /// libmosquitto wrote each packet as it was made: a turn publishing 20 pushes sent 20 TCP
    /// segments (and woke the broker 20 times). The turn's packets now wait for its end and
    /// leave together, corked: a few segments, not one a push.
    @Test func aTurnsPublishesLeaveTogether() throws {
        let broker = try MosquittoBroker()
        let bus = try Bus(BusConfiguration(host: "127.0.0.1", port: broker.port, id: "sender"), outbox: [], log: { _ in })
        let sink = CountingSink(tokens: [])
        bus.attach(sink)
        defer { bus.close() }
        // Connected and its own retained state back: the socket is quiet before the pushes.
        Self.drive(bus) { bus.instances["sender"] != nil }
        try #require(bus.instances["sender"] != nil, "the bus did not connect: \(broker.log)")
        var entries: [pollfd] = []
        bus.pollEntries(into: &entries)
        let fd = try #require(entries.first?.fd)
        let before = try Self.segmentsSent(fd)
        let count = 20
        let now = Date()
        for _ in 0..<count {
            bus.publish(RemotePush(
                id: UUID().uuidString.lowercased(), token: String(repeating: "cd", count: 32),
                payloadText: #"{"aps":{"alert":"one of many"}}"#, app: "com.example.app", channel: nil, collapseId: nil,
                pushType: "alert", priority: nil, via: .apns, headers: [:], acceptedAt: now, expiresAt: now.addingTimeInterval(3600)
            ), acknowledged: nil)
        }
        #expect(try Self.segmentsSent(fd) == before, "a publish was written before the turn ended")
        bus.turnEnded()
        let sent = try Self.segmentsSent(fd) - before
        #expect(sent >= 1 && sent <= 3, "\(count) publishes left in \(sent) segments")
    }

    /// The segments the kernel sent on `fd` (`tcpi_segs_out` of TCP_INFO, Linux 4.2 and later;
    /// glibc's `struct tcp_info` stops before it, so it is read at its offset in the kernel's,
    /// linux/tcp.h, whose fields are only ever appended).
    static func segmentsSent(_ fd: Int32) throws -> UInt32 {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        try #require(getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0)
        let offset = 136
        try #require(Int(length) >= offset + 4, "TCP_INFO of \(length) bytes has no tcpi_segs_out")
        return info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }

    /// Turns of the loop (`pollEntries`, `poll`, `ready`, `turnEnded`) until `done`, at most 10 s.
    static func drive(_ bus: Bus, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !done() && Date() < deadline {
            var entries: [pollfd] = []
            bus.pollEntries(into: &entries)
            let wait = Int32(clamping: min(bus.timeout() ?? 100, 100))
            _ = poll(&entries, nfds_t(entries.count), wait)
            for entry in entries where entry.revents != 0 { bus.ready(entry) }
            bus.turnEnded()
        }
    }
}

/// A server as the bus sees it, counting the pushes handed to it (no engine, no store).
final class CountingSink: BusSink {
    let tokens: [String]
    private(set) var submitted = 0
    init(tokens: [String]) { self.tokens = tokens }
    func submit(_ request: Request, completion: @escaping (Reply) -> Void) { submitted += 1 }
    func record(_ change: StoreChange) {}
    var revision: Int { 0 }
    var deviceTokens: [String] { tokens }
    func stateFields() -> [(key: String, value: JSON)] { [] }
}

/// Publishes `lines` (QoS 1) to `token`'s push topic with `mosquitto_pub` and waits (at most
/// 10 s) until every one of them is on the owner's socket, unread: the owner's poll entry and
/// the bytes they make there.
func publishAndWaitOnTheSocket(of owner: Bus, _ lines: [String], token: String, broker: MosquittoBroker) throws -> (entry: pollfd, expected: Int) {
    let published = try runProgram(
        ["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", RemotePush.topic(token: token), "-l"],
        stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
    try #require(published.status == 0, "mosquitto_pub: \(published.stderr)")

    // Each push as the broker sends it (MQTT 5 PUBLISH, QoS 1): the fixed header, the
    // remaining length, the topic, the packet id, the properties' length, the payload.
    let topicBytes = RemotePush.topic(token: token).utf8.count
    let expected = lines.reduce(0) { total, line in
        let remaining = 2 + topicBytes + 2 + 1 + line.utf8.count
        return total + 1 + (remaining < 128 ? 1 : 2) + remaining
    }
    var entries: [pollfd] = []
    owner.pollEntries(into: &entries)
    let entry = try #require(entries.first)
    var peek = [UInt8](repeating: 0, count: 1 << 16)
    let deadline = Date().addingTimeInterval(10)
    while recv(entry.fd, &peek, peek.count, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) < expected && Date() < deadline {
        var wait = pollfd(fd: entry.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&wait, 1, 100)
    }
    return (entry, expected)
}
