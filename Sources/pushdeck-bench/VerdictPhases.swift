import Foundation
import Glibc
import PushCore
import PushScenario
import PushJSON

/// The verdicts' figures: instant play of a generated scenario against ingest, and `expect`'s
/// latency from a push's commit to its exit.
struct VerdictPhases {
    let settings: Bench.Settings
    let folder: String

    func run(into results: inout Results) throws {
        let steps = settings.pushes
        let play = try playRate(steps: steps)
        results.record("play_steps_per_s", play, "steps/s")
        if let ingest = results.entries.first(where: { $0.key == "ingest_msgs_per_s" })?.value, ingest > 0 {
            results.record("play_ratio", play / ingest, "x")
        }
        let control = try controlExpectLatencies(count: settings.quick ? 20 : 200)
        results.record("control_expect_p50_ms", percentile(control, 0.5), "ms")
        results.record("control_expect_p99_ms", percentile(control, 0.99), "ms")
        let latencies = try expectLatencies(count: settings.quick ? 20 : 200)
        results.record("expect_p50_ms", percentile(latencies, 0.5), "ms")
        results.record("expect_p99_ms", percentile(latencies, 0.99), "ms")
    }

    /// The control API's long-poll: each time a cleartext HTTP/1.1 `GET /pushdeck/v1/expect?title=^lat-N$`
    /// is sent and given time to start waiting, then the push goes in over the socket; measured
    /// from just before the push is sent (so its commit is inside) to the whole 200 read.
    func controlExpectLatencies(count: Int) throws -> [Double] {
        let serverFolder = folder + "/control"
        try FileManager.default.createDirectory(atPath: serverFolder, withIntermediateDirectories: true)
        let server = try ServerUnderTest(
            folder: serverFolder, arguments: ["serve", "--gateway", "127.0.0.1:0"], environment: ["XDG_DATA_HOME": serverFolder + "/data"])
        defer { server.stop() }
        let port = try GatewayPhases(settings: settings, folder: folder).gatewayPort(server.socket)
        let client = try BenchSocket(path: server.socket)
        var latencies: [Double] = []
        for index in 0..<count {
            let fd = try Self.connect(port: port)
            defer { close(fd) }
            let request = "GET /pushdeck/v1/expect?title=%5Elat-\(index)%24&timeout=10 HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"
            guard Self.send(fd, Array(request.utf8)) else { throw BenchError("cannot send the control API's expect") }
            usleep(50_000)
            let payload = #"{"aps":{"alert":{"title":"lat-\#(index)"}}}"#
            let sent = seconds()
            try client.write(Request.push(PushRequest(payloadText: payload)).wireLine)
            let answer = try Self.readResponse(fd)
            let answered = seconds()
            try client.readLines(1) { _ in }
            guard answer.hasPrefix("HTTP/1.1 200") else { throw BenchError("the control API's expect \(index) said \(answer.prefix(200))") }
            latencies.append((answered - sent) * 1000)
        }
        return latencies.sorted()
    }

    private static func connect(port: Int) throws -> Int32 {
        let fd = loopbackConnection(port: port)
        guard fd >= 0 else { throw BenchError("cannot connect to the gateway on port \(port)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count }
    }

    /// Reads one HTTP/1.1 response: its head, then `content-length` bytes of body.
    private static func readResponse(_ fd: Int32) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw BenchError("the gateway closed before its answer was whole") }
            bytes += buffer[0..<count]
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
        }
    }
}

extension VerdictPhases {

    /// A scenario of `steps` steps like a long QA session — pushes on both channels to three
    /// apps, reads, app-state and mode switches, badge commands, expects — loaded from its text
    /// and played on the manual clock, in steps per second (load included).
    static func generatedScenario(steps: Int) -> String {
        let apps = ["com.example.shop", "com.example.news", "com.example.chat"]
        var lines: [String] = []
        lines.reserveCapacity(steps)
        for index in 0..<steps {
            let app = apps[index % apps.count]
            let at = String(format: "%.2f", Double(index) * 0.05)
            let line: String
            switch index % 20 {
            case 5: line = #"{"at":\#(at),"app":"\#(app)","read":"last"}"#
            case 9: line = #"{"at":\#(at),"state":"background"}"#
            case 10: line = #"{"at":\#(at),"state":"foreground"}"#
            case 13: line = #"{"at":\#(at),"app":"\#(app)","expect":{"held":0,"dropped":0}}"#
            case 15: line = #"{"at":\#(at),"app":"\#(app)","badge":{"clear":true}}"#
            case 17: line = #"{"at":\#(at),"app":"\#(app)","push":{"payload":{"taskId":"T\#(index)","msgId":"M\#(index)","payload":"pass-through \#(index)"}}}"#
            case 19: line = #"{"at":\#(at),"app":"\#(app)","read":"all"}"#
            default: line = #"{"at":\#(at),"app":"\#(app)","push":{"payload":{"aps":{"alert":{"title":"Order \#(index)","body":"订单 \#(index) 已发货"}}}}}"#
            }
            lines.append(line)
        }
        return #"{"name":"generated","steps":["# + lines.joined(separator: ",\n") + "]}"
    }

    func playRate(steps: Int) throws -> Double {
        let text = Array(Self.generatedScenario(steps: steps).utf8)
        let started = seconds()
        let scenario = try ScenarioLoader.parse(text, file: "generated.json")
        var player = InstantPlayer()
        let result = player.play(scenario)
        let elapsed = seconds() - started
        guard result.passed, result.expects.count == steps / 20 else {
            throw BenchError("the generated scenario failed: \(result.failureLines.prefix(3))")
        }
        return Double(scenario.steps.count) / elapsed
    }

    /// Each time: start `pushdeck expect --title ^lat-N$`, give it time to subscribe, push, and
    /// measure from just before the push is sent (so its commit is inside) to the process's exit.
    func expectLatencies(count: Int) throws -> [Double] {
        let server = try ServerUnderTest(folder: folder + "/expect", arguments: ["serve"])
        defer { server.stop() }
        let client = try BenchSocket(path: server.socket)
        let binary = Bench.siblingBinary("pushdeck")
        var latencies: [Double] = []
        for index in 0..<count {
            let pid = try spawn([binary, "expect", "--socket", server.socket, "--title", "^lat-\(index)$", "--timeout", "10"])
            usleep(150_000)
            let payload = #"{"aps":{"alert":{"title":"lat-\#(index)"}}}"#
            let sent = seconds()
            try client.write(Request.push(PushRequest(payloadText: payload)).wireLine)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let exited = seconds()
            try client.readLines(1) { _ in }
            guard status == 0 else { throw BenchError("expect \(index) exited with status \(status)") }
            latencies.append((exited - sent) * 1000)
        }
        return latencies.sorted()
    }

    private func spawn(_ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }
}
