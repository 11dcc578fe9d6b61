import Foundation
import Glibc

/// The team bus: pushes to gateway A for B's device, through a mosquitto broker of the bench's
/// own, counted when B has committed them; against `mosquitto_pub -q 1` → `mosquitto_sub -q 1`
/// of the same number of messages of the same size on the same broker, in the same run.
struct BusPhases {
    let settings: Bench.Settings
    let folder: String
    static let token = String(repeating: "cd", count: 32)

    func run(into results: inout Results) throws {
        let busFolder = folder + "/bus"
        for name in ["", "/a", "/b"] { try FileManager.default.createDirectory(atPath: busFolder + name, withIntermediateDirectories: true) }
        let port = try freePort()
        try "listener \(port) 127.0.0.1\nallow_anonymous true\nmax_queued_messages 1000000\nmax_inflight_messages 1000\n"
            .write(toFile: busFolder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        let broker = Process()
        broker.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        broker.arguments = ["-c", busFolder + "/mosquitto.conf"]
        broker.standardError = FileHandle.nullDevice
        broker.standardOutput = FileHandle.nullDevice
        do { try broker.run() } catch { throw BenchError("mosquitto (Debian mosquitto) cannot run: \(error)") }
        defer {
            broker.terminate()
            broker.waitUntilExit()
        }
        let url = "mqtt://127.0.0.1:\(port)"
        let owner = try ServerUnderTest(folder: busFolder + "/b", arguments: ["serve", "--mqtt", url, "--mqtt-id", "bench-b"])
        defer { owner.stop() }
        let sender = try ServerUnderTest(
            folder: busFolder + "/a", arguments: ["serve", "--gateway", "127.0.0.1:0", "--mqtt", url, "--mqtt-id", "bench-a"],
            environment: ["XDG_DATA_HOME": busFolder + "/a/data"])
        defer { sender.stop() }
        _ = try ask(owner.socket, #"{"op":"device","action":"add","token":"\#(Self.token)","app":"com.example.bench"}"#)
        try waitConnected(owner.socket)
        try waitConnected(sender.socket)
        let gateway = GatewayPhases(settings: settings, folder: folder)
        let gatewayPort = try gateway.gatewayPort(sender.socket)
        let payload = busFolder + "/payload.json"
        try Data(GatewayPhases.payload()).write(to: URL(fileURLWithPath: payload))
        let target = "http://127.0.0.1:\(gatewayPort)/3/device/\(Self.token)"
        let headers = ["-H", "apns-topic: com.example.bench", "-H", "authorization: \(GatewayPhases.authorization)"]

        // Throughput: h2load's pushes, until B has committed all of them.
        let count = settings.quick ? 2_000 : 20_000
        let start = seconds()
        _ = try gateway.h2load(["-c4", "-m32", "-n\(count)", "-d", payload] + headers + [target])
        try waitUntil(seconds: 120) { try unread(owner.socket) >= count }
        let bus = Double(count) / (seconds() - start)
        results.record("bus_msgs_per_s", bus, "msgs/s")

        // The broker alone: the same count of messages the size of a published push, QoS 1 both ways.
        let lines = busFolder + "/lines"
        let line = String(repeating: "x", count: GatewayPhases.payload().count + 400) + "\n"
        try String(repeating: line, count: count).write(toFile: lines, atomically: true, encoding: .utf8)
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        subscriber.arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", "bench/baseline", "-C", String(count), "-i", "bench-sub"]
        subscriber.standardOutput = FileHandle.nullDevice
        try subscriber.run()
        usleep(300_000)  // mosquitto_sub has no "subscribed" signal; its SUBACK takes well under this on loopback
        let baselineStart = seconds()
        let publisher = Process()
        publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
        publisher.arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", "bench/baseline", "-l"]
        publisher.standardInput = FileHandle(forReadingAtPath: lines)
        try publisher.run()
        publisher.waitUntilExit()
        subscriber.waitUntilExit()
        let baseline = Double(count) / (seconds() - baselineStart)
        results.record("bus_mosquitto_msgs_per_s", baseline, "msgs/s")
        results.record("bus_ratio", bus / baseline, "x")

        // Latency one at a time: an HTTP/1.1 push to A, until B's event says it is committed.
        let events = try BenchSocket(path: owner.socket)
        try events.write(Array(#"{"op":"subscribe","topics":["message.received"]}"#.utf8) + [0x0A])
        try events.readLines(1) { _ in }
        let http = try TCPClient(port: gatewayPort)
        let body = GatewayPhases.payload()
        let request = Array((
            "POST /3/device/\(Self.token) HTTP/1.1\r\nhost: 127.0.0.1\r\napns-topic: com.example.bench\r\n"
                + "authorization: \(GatewayPhases.authorization)\r\ncontent-length: \(body.count)\r\n\r\n").utf8) + body
        var durations: [Double] = []
        for _ in 0..<(settings.quick ? 100 : 500) {
            let sent = seconds()
            try http.write(request)
            try events.readLines(1) { _ in }
            durations.append((seconds() - sent) * 1000)
            try http.readResponse()
        }
        durations.sort()
        results.record("bus_p50_ms", percentile(durations, 0.5), "ms")
        results.record("bus_p99_ms", percentile(durations, 0.99), "ms")
    }

    private func ask(_ socket: String, _ line: String) throws -> String {
        let client = try BenchSocket(path: socket)
        try client.write(Array(line.utf8) + [0x0A])
        var reply = ""
        try client.readLines(1) { reply = String(decoding: $0, as: UTF8.self) }
        return reply
    }

    private func unread(_ socket: String) throws -> Int {
        let reply = try ask(socket, #"{"op":"state"}"#)
        guard let range = reply.range(of: #""unread":"#) else { return 0 }
        return Int(reply[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    private func waitConnected(_ socket: String) throws {
        try waitUntil(seconds: 20) { try ask(socket, #"{"op":"bus"}"#).contains(#""bus":"bus connected""#) }
    }

    private func waitUntil(seconds limit: Double, _ condition: () throws -> Bool) throws {
        let deadline = seconds() + limit
        while try !condition() {
            guard seconds() < deadline else { throw BenchError("the team bus did not get there in \(Int(limit)) s") }
            usleep(5_000)
        }
    }

    private func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// One keep-alive HTTP/1.1 connection: a request written whole, a header-only answer read.
final class TCPClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw BenchError("cannot connect to the gateway on \(port)")
        }
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw BenchError("the gateway closed the connection") }
            offset += written
        }
    }

    /// Reads one answer's head (the APNs 200 has no body) and checks it is a 200.
    func readResponse() throws {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let range = buffer.firstRange(of: end) {
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<range.upperBound)
                guard head.hasPrefix("HTTP/1.1 200") else { throw BenchError("the gateway answered \(head.prefix(40))") }
                return
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { throw BenchError("the gateway closed the connection") }
            buffer += chunk[0..<count]
        }
    }
}
