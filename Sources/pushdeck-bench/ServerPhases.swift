import Foundation
import Glibc
import PushCore
import PushStore

/// Baselines (raw socket, raw SQLite) and the server's ingest, round trip and ack latency.
struct ServerPhases {
    let settings: Bench.Settings
    let folder: String

    func run(into results: inout Results) throws {
        Swift.print("pushdeck-bench: \(settings.quick ? "quick" : "full") run, \(settings.pushes) pushes")
        let rawSocket = try rawSocketRate()
        results.record("raw_socket_msgs_per_s", rawSocket, "msgs/s")
        let (rawSQLite, sqliteCPU) = try rawSQLiteRate()
        results.record("raw_sqlite_rows_per_s", rawSQLite, "rows/s")
        results.record("raw_sqlite_us", sqliteCPU, "µs")

        let server = try ServerUnderTest(folder: folder + "/ingest")
        var cpu: CPUMeter?
        let ingest = try ingestRate(server.socket, clients: 1, each: settings.pushes, started: { cpu = CPUMeter(server: server.process.processIdentifier) })
        results.record("ingest_msgs_per_s", ingest, "msgs/s")
        cpu?.record("ingest", pushes: Double(settings.pushes), into: &results)
        results.record("ingest_ratio", ingest / min(rawSocket, rawSQLite), "x")
        let four = try ingestRate(server.socket, clients: 4, each: settings.pushes / 4)
        results.record("ingest_4_clients_msgs_per_s", four, "msgs/s")
        let ingest2k = try largePayloadIngest(into: &results, server: server)
        let rawRoundTrip = try rawRoundTripRate()
        results.record("raw_roundtrip_msgs_per_s", rawRoundTrip, "msgs/s")
        let floor = try floorRoundTripRate()
        results.record("floor_roundtrip_msgs_per_s", floor, "msgs/s")
        let roundTrip = try roundTripRate(try BenchSocket(path: server.socket))
        results.record("roundtrip_msgs_per_s", roundTrip, "msgs/s")
        results.record("roundtrip_ratio", roundTrip / rawRoundTrip, "x")
        results.record("roundtrip_floor_ratio", roundTrip / floor, "x")
        let (p50, p99) = try pacedAckLatency(server.socket, perSecond: 1000)
        results.record("ack_p50_ms", p50, "ms")
        results.record("ack_p99_ms", p99, "ms")
        server.stop()
        try GatewayPhases(settings: settings, folder: folder).run(into: &results, ingest2k: ingest2k)
    }

    /// One client writing the framed payloads to a Unix socket whose reader only splits them.
    func rawSocketRate() throws -> Double {
        let path = folder + "/raw.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
        }
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        listen(listener, 1)
        defer { close(listener) }
        let count = settings.pushes
        let stream = Payloads.stream(0..<count)
        let writer = Thread {
            guard let client = try? BenchSocket(path: path) else { return }
            try? client.write(stream)
        }
        writer.start()
        let reader = BenchSocket(fd: accept(listener, nil, nil))
        let start = seconds()
        var framer = StreamFramer(limit: 64 * 1024)
        var frames = 0
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while frames < count {
            let received = recv(reader.fd, &buffer, buffer.count, 0)
            guard received > 0 else { break }
            framer.append(buffer[0..<received])
            while (try? framer.next()) != nil { frames += 1 }
        }
        return Double(frames) / (seconds() - start)
    }

    /// The same rows inserted into a same-schema WAL database, 1000 per transaction: by default
    /// the ingest phase's ~300-byte pushes (`payload` gives push i's bytes). Returns the rate
    /// and the CPU time a row took (this thread and the store's checkpoint thread), in µs.
    func rawSQLiteRate(
        database: String = "raw.sqlite", title: String? = nil, body: String = "您有一條新消息",
        payload: (Int) -> [UInt8] = Payloads.apns
    ) throws -> (rate: Double, microseconds: Double) {
        let store = try Store(path: folder + "/" + database)
        defer { store.close() }
        let count = settings.pushes
        let payloads = (0..<1000).map { String(decoding: payload($0), as: UTF8.self) }
        let now = Date()
        let start = seconds()
        let cpu = CPUMeter.ownSeconds()
        var id: Int64 = 1
        for _ in stride(from: 0, to: count, by: 1000) {
            try store.begin()
            for index in 0..<1000 {
                let message = Message(
                    id: id, app: index % 2 == 0 ? "com.example.shop" : "com.example.news", channel: .apns,
                    title: title ?? "訂單 \(id) 已發貨", body: body, receivedAt: now, payload: payloads[index])
                try store.apply(.insert(message))
                id += 1
            }
            try store.commit()
        }
        return (Double(count) / (seconds() - start), (CPUMeter.ownSeconds() - cpu) / Double(count) * 1e6)
    }

    /// `clients` clients at once, each pipelining `each` pushes (`stream` writes pushes of a
    /// range of indexes; by default the ~300-byte ones) and checking every reply.
    /// `started` is called when the clients start, the streams built (where a `CPUMeter` starts,
    /// so that building them does not count as the client's time).
    func ingestRate(
        _ socket: String, clients: Int, each: Int, started: () -> Void = {},
        stream: (Range<Int>) -> [UInt8] = Payloads.stream
    ) throws -> Double {
        let sockets = try (0..<clients).map { _ in try BenchSocket(path: socket) }
        let streams = (0..<clients).map { stream($0 * each..<($0 + 1) * each) }
        let failures = Failures()
        started()
        let start = seconds()
        let group = DispatchGroup()
        for (client, stream) in zip(sockets, streams) {
            Thread { try? client.write(stream) }.start()
            group.enter()
            Thread {
                do {
                    try client.readLines(each) { line in if !isOK(line) { failures.add(String(decoding: line, as: UTF8.self)) } }
                } catch {
                    failures.add("\(error)")
                }
                group.leave()
            }.start()
        }
        group.wait()
        let elapsed = seconds() - start
        if let first = failures.first { throw BenchError("\(failures.count) pushes not acknowledged: \(first)") }
        return Double(clients * each) / elapsed
    }

    /// Baseline for the round trip: one push at a time over a socket pair to a thread that only
    /// splits the line, commits it as one row (and its app's badge) in a transaction of its own,
    /// and answers — the least work a durable ack of each push takes, measured in the same run.
    func rawRoundTripRate() throws -> Double {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw BenchError("socketpair: \(String(cString: strerror(errno)))")
        }
        let path = folder + "/raw-roundtrip.sqlite"
        let peer = BenchSocket(fd: pair[1])
        let failures = Failures()
        Thread {
            do {
                let store = try Store(path: path)
                defer { store.close() }
                var framer = StreamFramer(limit: 64 * 1024)
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                let now = Date()
                var id: Int64 = 0
                while true {
                    let received = recv(peer.fd, &buffer, buffer.count, 0)
                    guard received > 0 else { return }
                    framer.append(buffer[0..<received])
                    while let frame = try framer.next() {
                        id += 1
                        try store.write([
                            .insert(Message(
                                id: id, app: "com.example.shop", channel: .apns, title: "訂單 \(id) 已發貨",
                                body: "您有一條新消息", receivedAt: now, payload: String(decoding: frame, as: UTF8.self))),
                            .badge(app: "com.example.shop", Badge(icon: Int(id % 100), server: 0)),
                        ])
                        try peer.write(Array("{\"ok\":true,\"id\":\(id)}\n".utf8))
                    }
                }
            } catch {
                failures.add("\(error)")
                shutdown(peer.fd, Int32(SHUT_RDWR))
            }
        }.start()
        let rate = try roundTripRate(BenchSocket(fd: pair[0]))
        if let first = failures.first { throw BenchError("raw round trip: \(first)") }
        return rate
    }

    /// One push at a time on `client`, waiting for each ack.
    func roundTripRate(_ client: BenchSocket) throws -> Double {
        let start = seconds()
        var count = 0
        while seconds() - start < settings.phaseSeconds {
            try client.write(Payloads.apns(count) + [UInt8(ascii: "\n")])
            var ok = false
            try client.readLines(1) { ok = isOK($0) }
            guard ok else { throw BenchError("round trip push \(count) refused") }
            count += 1
        }
        return Double(count) / (seconds() - start)
    }

    /// Push→ack latency with pushes paced at `perSecond`, over the phase.
    func pacedAckLatency(_ socket: String, perSecond: Int) throws -> (Double, Double) {
        let client = try BenchSocket(path: socket)
        let total = Int(settings.phaseSeconds * Double(perSecond))
        let sentAt = SendTimes(count: total)
        let interval = 1.0 / Double(perSecond)
        Thread {
            let start = seconds()
            for index in 0..<total {
                let due = start + Double(index) * interval
                let wait = due - seconds()
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                sentAt.set(index, seconds())
                try? client.write(Payloads.apns(index) + [UInt8(ascii: "\n")])
            }
        }.start()
        var latencies: [Double] = []
        latencies.reserveCapacity(total)
        try client.readLines(total) { _ in
            latencies.append((seconds() - sentAt.get(latencies.count)) * 1000)
        }
        latencies.sort()
        return (percentile(latencies, 0.5), percentile(latencies, 0.99))
    }
}

/// Errors collected from reader threads.
final class Failures: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var count: Int { lock.withLock { messages.count } }
    var first: String? { lock.withLock { messages.first } }
}

/// When each paced push was written, shared by the pacing writer and the reader.
final class SendTimes: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var times: [Double]
    init(count: Int) { times = Array(repeating: 0, count: count) }
    func set(_ index: Int, _ time: Double) { lock.withLock { times[index] = time } }
    func get(_ index: Int) -> Double { lock.withLock { times[index] } }
}
