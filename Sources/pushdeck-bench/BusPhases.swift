import Foundation
import Glibc
import PushSystem

/// The team bus: pushes through instance A's gateway to a device of instance B, by a private
/// mosquitto on loopback, counted when B has committed them (B's `remote.received` events, one
/// for each APNs notification it delivered, come after its commit); against the broker alone (`mosquitto_pub -q 1` → `mosquitto_sub -q 1`, the
/// same broker, the same run); and one push at a time, A's socket to B's commit. Every wait is
/// bounded; without mosquitto the phase is skipped and says so.
struct BusPhases {
    let settings: Bench.Settings
    let folder: String
    static let token = "b0b0" + String(repeating: "cd", count: 30)
    static let app = "com.example.bench"
    /// No wait of the phase is longer than this.
    static let timeout: Double = 60

    static let broker = "/usr/sbin/mosquitto"
    static let publisher = "/usr/bin/mosquitto_pub"
    static let subscriber = "/usr/bin/mosquitto_sub"

    func run(into results: inout Results) throws {
        for program in [Self.broker, Self.publisher, Self.subscriber] where !FileManager.default.isExecutableFile(atPath: program) {
            print("  bus phases skipped: \(program) is not installed (Debian mosquitto and mosquitto-clients)")
            return
        }
        let busFolder = folder + "/bus"
        try FileManager.default.createDirectory(atPath: busFolder, withIntermediateDirectories: true)
        let broker = try Broker(folder: busFolder)
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"

        let ownerFolder = busFolder + "/b"
        let senderFolder = busFolder + "/a"
        for path in [ownerFolder, senderFolder] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let owner = try ServerUnderTest(folder: ownerFolder, arguments: ["serve", "--mqtt", url, "--mqtt-id", "b"])
        defer { owner.stop() }
        let sender = try ServerUnderTest(
            folder: senderFolder, arguments: ["serve", "--gateway", "127.0.0.1:0", "--mqtt", url, "--mqtt-id", "a"],
            environment: ["XDG_DATA_HOME": senderFolder + "/data"])
        defer { sender.stop() }
        let gateway = GatewayPhases(settings: settings, folder: folder)
        try gateway.request(owner.socket, #"{"op":"device","action":"add","token":"\#(Self.token)","app":"\#(Self.app)"}"#)
        // B is subscribed to the token's topic once A has B's state naming the token (B subscribes, then publishes its state).
        try waitFor("instance a to see instance b with its device") {
            let reply = try line(sender.socket, #"{"op":"bus"}"#)
            return reply.contains(#""bus":"bus connected""#) && reply.contains(Self.token)
        }

        // Throughput: h2load's 4 connections × 32 streams to A's gateway; done when B committed all.
        let count = settings.quick ? 2_000 : 20_000
        let events = try Subscription(socket: owner.socket)
        let port = try gateway.gatewayPort(sender.socket)
        let payload = busFolder + "/payload.json"
        try Data(#"{"aps":{"alert":{"title":"bus bench","body":"a push by the team bus"},"badge":1}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let start = seconds()
        let h2load = try Bounded.start("/usr/bin/h2load", [
            "-c4", "-m32", "-n\(count)", "-d", payload, "-H", "apns-topic: \(Self.app)", "-H", "apns-push-type: alert",
            "-H", "authorization: \(GatewayPhases.authorization)", "http://127.0.0.1:\(port)/3/device/\(Self.token)",
        ])
        try events.wait(for: count)
        let busRate = Double(count) / (seconds() - start)
        let h2Output = try h2load.finish(within: Self.timeout)
        guard h2Output.contains("\(count) succeeded, 0 failed") else { throw BenchError("h2load through the bus: \(h2Output)") }
        results.record("bus_msgs_per_s", busRate, "msgs/s")

        // A is still taking B's last receipts (and deleting their outbox rows) when B has
        // committed the last push: the baseline waits until A's outbox is empty, so it does not
        // share the cores with the end of the phase before it.
        try waitFor("instance a's outbox to empty") {
            try line(sender.socket, #"{"op":"bus"}"#).contains(#""outbox":0,"#)
        }
        // The broker alone: as many QoS 1 messages of a published push's size, publisher to subscriber.
        let baseline = try brokerRate(broker, count: count, bytes: 640, folder: busFolder)
        results.record("bus_broker_msgs_per_s", baseline, "msgs/s")
        results.record("bus_ratio", busRate / baseline, "x")

        // One at a time: a push by A's socket to B's token, until B's commit event.
        let client = try BenchSocket(path: sender.socket)
        try Bounded.receiveTimeout(client.fd, Self.timeout)
        let request = Array(#"{"op":"push","token":"\#(Self.token)","app":"\#(Self.app)","payload":{"aps":{"alert":"one at a time"}}}"#.utf8) + [0x0A]
        var latencies: [Double] = []
        for _ in 0..<(settings.quick ? 200 : 1_000) {
            let sent = seconds()
            try client.write(request)
            try events.wait(for: 1)
            latencies.append((seconds() - sent) * 1000)
            var forwarded = false
            try client.readLines(1) { reply in forwarded = String(decoding: reply, as: UTF8.self).contains(#""forwarded""#) }
            guard forwarded else { throw BenchError("instance a did not forward a push to b's token") }
        }
        latencies.sort()
        results.record("bus_p50_ms", percentile(latencies, 0.5), "ms")
        results.record("bus_p99_ms", percentile(latencies, 0.99), "ms")
    }

    /// `mosquitto_pub -q 1 -l` of `count` lines of `bytes` bytes to `mosquitto_sub -q 1 -C count`:
    /// messages a second from the publish's start to the subscriber's exit.
    func brokerRate(_ broker: Broker, count: Int, bytes: Int, folder: String) throws -> Double {
        let topic = "bench/baseline"
        let lines = folder + "/baseline.txt"
        let line = String(repeating: "x", count: bytes - 1) + "\n"
        try Data(String(repeating: line, count: count).utf8).write(to: URL(fileURLWithPath: lines))
        let subscriber = try Bounded.start(Self.subscriber, [
            "-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-t", topic, "-C", String(count), "-W", String(Int(Self.timeout)),
            "-i", "bench-sub",
        ], keepOutput: false)
        try waitFor("mosquitto_sub to subscribe") { broker.log.contains("bench-sub 1 \(topic)") }
        let start = seconds()
        let publisher = try Bounded.start(Self.publisher, [
            "-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-t", topic, "-l", "-i", "bench-pub",
        ], stdin: lines)
        _ = try subscriber.finish(within: Self.timeout)
        let rate = Double(count) / (seconds() - start)
        _ = try publisher.finish(within: Self.timeout)
        return rate
    }

    /// One request on a new connection; its reply line.
    func line(_ socket: String, _ request: String) throws -> String {
        let client = try BenchSocket(path: socket)
        try Bounded.receiveTimeout(client.fd, 5)
        try client.write(Array(request.utf8) + [0x0A])
        var text = ""
        try client.readLines(1) { text = String(decoding: $0, as: UTF8.self) }
        return text
    }

    /// Asks `condition` every 20 ms for at most 10 s.
    func waitFor(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = seconds() + 10
        while seconds() < deadline {
            if try condition() { return }
            usleep(20_000)
        }
        throw BenchError("bus phases: gave up waiting 10 s for \(what)")
    }

    /// B's `remote.received` events (an APNs notification delivered): one line each, after B's commit.
    final class Subscription {
        let socket: BenchSocket
        init(socket path: String) throws {
            socket = try BenchSocket(path: path)
            try Bounded.receiveTimeout(socket.fd, BusPhases.timeout)
            try socket.write(Array(#"{"op":"subscribe","topics":["remote.received"]}"#.utf8) + [0x0A])
            try socket.readLines(1) { _ in }
        }

        func wait(for count: Int) throws {
            do {
                try socket.readLines(count) { _ in }
            } catch {
                throw BenchError("bus phases: instance b did not commit \(count) pushes within \(Int(BusPhases.timeout)) s (\(error))")
            }
        }
    }

    /// A mosquitto of its own on a free loopback port, logging subscriptions to a file.
    final class Broker {
        let port: Int
        let logPath: String
        private let process = Process()
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        init(folder: String) throws {
            port = try Bounded.freePort()
            logPath = folder + "/mosquitto.log"
            // Run as root, mosquitto becomes `user` (by default `mosquitto`): it stays whoever runs the bench.
            let me = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
            let config = folder + "/mosquitto.conf"
            // `set_tcp_nodelay true` (mosquitto.conf(5), since 2.0): the broker sends each packet
            // at once instead of holding it for the previous one's ACK (Nagle's algorithm), as a
            // team broker should be set up (docs/team-bus.md); the baseline runs on it too.
            try """
                user \(me)
                listener \(port) 127.0.0.1
                allow_anonymous true
                log_dest file \(logPath)
                log_type error
                log_type subscribe
                max_queued_messages 100000
                max_inflight_messages 100
                set_tcp_nodelay true

                """.write(toFile: config, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: BusPhases.broker)
            process.arguments = ["-c", config]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = seconds() + 10
            while true {
                let fd = loopbackConnection(port: port)
                if fd >= 0 {
                    close(fd)
                    return
                }
                guard process.isRunning, seconds() < deadline else {
                    stop()
                    throw BenchError("mosquitto did not listen on \(port) within 10 s: \(log)")
                }
                usleep(20_000)
            }
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        deinit { stop() }
    }
}

/// Child processes and sockets whose waits end.
enum Bounded {
    final class Child {
        let process: Process
        let output: Pipe
        init(process: Process, output: Pipe) {
            self.process = process
            self.output = output
        }

        /// Waits at most `timeout` seconds for the child's exit (then kills it and throws); its output.
        func finish(within timeout: Double) throws -> String {
            let deadline = seconds() + timeout
            while process.isRunning {
                guard seconds() < deadline else {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    throw BenchError("\(process.executableURL?.lastPathComponent ?? "a child") did not finish within \(Int(timeout)) s")
                }
                usleep(5_000)
            }
            return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    /// Starts `executable` (standard output kept unless `keepOutput` is false — a pipe nobody
    /// reads while the child runs must stay small —, standard error discarded; standard input from `stdin`).
    static func start(_ executable: String, _ arguments: [String], stdin: String? = nil, keepOutput: Bool = true) throws -> Child {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        if keepOutput {
            process.standardOutput = output
        } else {
            process.standardOutput = FileHandle.nullDevice
            try? output.fileHandleForWriting.close()
        }
        process.standardError = FileHandle.nullDevice
        if let stdin { process.standardInput = FileHandle(forReadingAtPath: stdin) }
        do {
            try process.run()
        } catch {
            throw BenchError("\(executable) cannot run: \(error)")
        }
        return Child(process: process, output: output)
    }

    /// A `recv` on `fd` gives up after `seconds` (SO_RCVTIMEO), so no read waits for ever.
    static func receiveTimeout(_ fd: Int32, _ seconds: Double) throws {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw BenchError("setsockopt SO_RCVTIMEO: \(String(cString: strerror(errno)))")
        }
    }

    /// A loopback port nothing listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() throws -> Int {
        Int(try TCPListener(host: "127.0.0.1", port: 0).port)
    }
}
