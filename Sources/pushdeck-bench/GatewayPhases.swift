import COpenSSL
import Foundation
import Glibc
import PushGateway
import PushJSON

/// The provider gateway: h2load's throughput over h2c and its paced latency, and the memory of a
/// thousand idle TLS connections.
struct GatewayPhases {
    let settings: Bench.Settings
    let folder: String
    static let token = String(repeating: "ab", count: 32)
    /// A well-formed provider token (ES256 header, kid, iss, iat): what APNs requires, and all the
    /// gateway checks while no key is registered. The bench measures the gateway, not signing.
    static let authorization =
        "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl"

    /// `ingest2k` is the socket's ingest of the 2.3 KB payload the gateway's APNs, JPush and FCM
    /// figures are compared with.
    func run(into results: inout Results, ingest2k: Double) throws {
        let gatewayFolder = folder + "/gateway"
        try FileManager.default.createDirectory(atPath: gatewayFolder, withIntermediateDirectories: true)
        let server = try ServerUnderTest(
            folder: gatewayFolder, arguments: ["serve", "--gateway", "127.0.0.1:0"], environment: ["XDG_DATA_HOME": gatewayFolder + "/data"])
        defer { server.stop() }
        let port = try gatewayPort(server.socket)
        let payload = gatewayFolder + "/payload.json"
        try Data(Self.payload()).write(to: URL(fileURLWithPath: payload))
        let url = "http://127.0.0.1:\(port)/3/device/\(Self.token)"
        let headers = ["-H", "apns-topic: com.example.bench", "-H", "apns-push-type: alert", "-H", "authorization: \(Self.authorization)"]

        // Throughput: 4 connections × 32 streams over h2c, the socket's 2.3 KB payload; then
        // nghttpd answering the same h2load run from memory.
        let duration = settings.quick ? 2 : 5
        let gatewayCPU = CPUMeter(server: server.process.processIdentifier)
        let (throughput, done) = try h2loadRun(["-c4", "-m32", "-D\(duration)", "-d", payload] + headers + [url])
        results.record("gateway_msgs_per_s", throughput, "msgs/s")
        results.record("gateway_ratio", throughput / ingest2k, "x")
        gatewayCPU.record("gateway", pushes: done, into: &results)
        if let nghttpd = try nghttpdRate(["-c4", "-m32", "-D\(duration)", "-d", payload] + headers, path: "/3/device/\(Self.token)", into: &results) {
            results.record("nghttpd_msgs_per_s", nghttpd, "msgs/s")
            results.record("gateway_nghttpd_ratio", throughput / nghttpd, "x")
            Self.recordCeiling(into: &results)
        }

        // The same with 100 armed faults that match nothing (APNs faults for other tokens): what
        // arming faults costs the requests they do not answer. Cleared before the latency run.
        try faults(socket: server.socket, count: 100)
        let faulted = try h2load(["-c4", "-m32", "-D\(duration)", "-d", payload] + headers + [url])
        try request(server.socket, #"{"op":"fault","action":"clear"}"#)
        results.record("gateway_faults100_msgs_per_s", faulted, "msgs/s")
        results.record("gateway_faults100_ratio", faulted / throughput, "x")

        // The same run over TLS (h2 by ALPN, the gateway's own certificate, which h2load does
        // not verify): APNs clients speak nothing else, so this is the rate a backend's load
        // test through a real client library sees.
        let tls = try h2load(["-c4", "-m32", "-D\(duration)", "-d", payload] + headers + ["https://127.0.0.1:\(port)/3/device/\(Self.token)"])
        results.record("gateway_tls_msgs_per_s", tls, "msgs/s")
        results.record("gateway_tls_ratio", tls / throughput, "x")

        // JPush's Push API v3 as its SDKs call it: HTTP/1.1 keep-alive, 4 connections, one request
        // in flight on each (no pipelining), Basic auth, an iOS notification at JPush's 2000-byte limit.
        let jpushBody = gatewayFolder + "/jpush.json"
        try Data(Self.jpushPayload()).write(to: URL(fileURLWithPath: jpushBody))
        let jpushURL = "http://127.0.0.1:\(port)/v3/push"
        let basic = "Basic " + Data("benchappkey:benchsecret".utf8).base64EncodedString()
        let jpushCPU = CPUMeter(server: server.process.processIdentifier)
        let (jpush, jpushDone) = try h2loadRun(
            ["--h1", "-c4", "-m1", "-D\(duration)", "-d", jpushBody, "-H", "content-type: application/json", "-H", "authorization: \(basic)", jpushURL])
        results.record("jpush_msgs_per_s", jpush, "msgs/s")
        jpushCPU.record("jpush", pushes: jpushDone, into: &results)
        results.record("jpush_gateway_ratio", jpush / throughput, "x")
        results.record("jpush_ingest_ratio", jpush / ingest2k, "x")
        // Its like-for-like floor: C over four socket pairs, a push of the same size in flight on
        // each, every push ready at once committed in one transaction before any is answered.
        let floor = try floorConcurrentRate(clients: 4, bytes: Self.jpushPayload().count)
        results.record("floor_4x1_msgs_per_s", floor, "msgs/s")
        results.record("floor_4x1_ingest_ratio", floor / ingest2k, "x")
        results.record("jpush_floor_ratio", jpush / floor, "x")

        // Latency at 1 000 requests/s: one connection, h2load's per-request log.
        let log = gatewayFolder + "/latency.log"
        _ = try h2load(["-c1", "-m1", "--rps=1000", "-D\(duration)", "-d", payload, "--log-file=\(log)"] + headers + [url])
        let durations = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> Double? in
            let columns = line.split(separator: "\t")
            guard columns.count == 3, columns[1] == "200", let micros = Double(columns[2]) else { return nil }
            return micros / 1000
        }.sorted()
        guard !durations.isEmpty else { throw BenchError("h2load logged no answered request") }
        results.record("gateway_ack_p50_ms", percentile(durations, 0.5), "ms")
        results.record("gateway_ack_p99_ms", percentile(durations, 0.99), "ms")

        try fcm(into: &results, port: port, socket: server.socket, folder: gatewayFolder, ingest2k: ingest2k, duration: duration)

        // Memory: a thousand TLS connections, handshake done, left idle.
        let idle = try IdleTLSConnections(port: port, count: 1000)
        results.record("gateway_idle_tls_connections", Double(idle.count), "conns")
        results.record("gateway_rss_1000_idle_tls_mb", try residentMegabytes(server.process.processIdentifier), "MB")
        idle.close()
    }

    /// FCM HTTP v1: a service account registered (so `/token` verifies RS256), `/token`'s latency
    /// at 200 requests/s with one assertion (its check is cached; the times are judged each time),
    /// then `messages:send` with a bearer from `/token`, 4 connections × 32 streams over h2c, the
    /// APNs phase's 2.3 KB notification as an FCM message (`Payloads.largeFCM`), over the socket's
    /// ingest of that payload.
    func fcm(into results: inout Results, port: Int, socket: String, folder: String, ingest2k: Double, duration: Int) throws {
        let account = ServiceAccount(
            projectId: "bench-project", privateKeyId: "bench", privateKeyPEM: try RS256.makePrivateKeyPEM(),
            clientEmail: "bench@bench-project.iam.gserviceaccount.com", clientId: "1", tokenURI: "http://127.0.0.1:\(port)/token")
        let key = JSON.object([
            "op": "key", "action": "add", "vendor": "fcm", "id": .string(account.clientEmail), "team": .string(account.projectId),
            "secret": .string(account.privateKeyPEM),
        ])
        let client = try BenchSocket(path: socket)
        try client.write(Array(key.compactText.utf8) + [0x0A])
        try client.readLines(1) { _ in }
        let assertion = try FCMAssertion.make(account: account, issuedAt: Int64(Date().timeIntervalSince1970))
        let form = folder + "/token.form"
        try Data("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8).write(to: URL(fileURLWithPath: form))
        let tokenURL = "http://127.0.0.1:\(port)/token"
        let formHeader = ["-H", "content-type: application/x-www-form-urlencoded"]

        let log = folder + "/token.log"
        _ = try h2load(["-c1", "-m1", "--rps=200", "-D\(duration)", "-d", form, "--log-file=\(log)"] + formHeader + [tokenURL])
        let durations = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> Double? in
            let columns = line.split(separator: "\t")
            guard columns.count == 3, columns[1] == "200", let micros = Double(columns[2]) else { return nil }
            return micros / 1000
        }.sorted()
        guard !durations.isEmpty else { throw BenchError("h2load logged no answered /token request") }
        results.record("fcm_token_p50_ms", percentile(durations, 0.5), "ms")
        results.record("fcm_token_p99_ms", percentile(durations, 0.99), "ms")

        // One bearer, as a backend holds it for its hour.
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "--http2-prior-knowledge", "--data-binary", "@" + form] + formHeader + [tokenURL]
        let pipe = Pipe()
        curl.standardOutput = pipe
        try curl.run()
        let answer = pipe.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        guard case .string(let bearer)? = (try? JSON.parse(Array(answer)))?.objectValue?["access_token"] else {
            throw BenchError("/token gave no access token: \(String(decoding: answer, as: UTF8.self))")
        }
        let body = folder + "/fcm.json"
        try Data(Self.fcmPayload()).write(to: URL(fileURLWithPath: body))
        let sendURL = "http://127.0.0.1:\(port)/v1/projects/bench-project/messages:send"
        let sent = try h2load(
            ["-c4", "-m32", "-D\(duration)", "-d", body, "-H", "content-type: application/json", "-H", "authorization: Bearer \(bearer)", sendURL])
        results.record("fcm_msgs_per_s", sent, "msgs/s")
        results.record("fcm_gateway_ratio", sent / ingest2k, "x")
    }

    /// The FCM send body: the APNs payload's notification (`Payloads.largeFCM`), so the ratio
    /// compares like with like.
    static func fcmPayload() -> [UInt8] { Payloads.largeFCM() }

    /// The APNs payload: the socket's 2.3 KB one (`Payloads.large`), so the ratio compares like with like.
    static func payload() -> [UInt8] { Payloads.large() }

    /// A JPush push-API body: an iOS notification padded to JPush's limit for it (`"ios":{…}` at
    /// most 2000 bytes, its 1005).
    static func jpushPayload() -> [UInt8] {
        let head = #"{"platform":"all","audience":"all","notification":{"ios":{"alert":{"title":"Bench","body":"through JPush's API"},"badge":"+1","extras":{"pad":""#
        let tail = #""}}},"options":{"time_to_live":60}}"#
        let ios = #""ios":{"alert":{"title":"Bench","body":"through JPush's API"},"badge":"+1","extras":{"pad":""}}"#
        return Array((head + String(repeating: "x", count: 2000 - ios.utf8.count) + tail).utf8)
    }

    /// Arms `count` APNs faults for tokens the bench never sends to.
    func faults(socket: String, count: Int) throws {
        for index in 0..<count {
            try request(socket, #"{"op":"fault","action":"add","vendor":"apns","token":"ffff\#(String(index, radix: 16))","status":500}"#)
        }
    }

    /// Sends one request line and reads its reply; fails on an error reply.
    func request(_ socket: String, _ line: String) throws {
        let client = try BenchSocket(path: socket)
        try client.write(Array(line.utf8) + [0x0A])
        var ok = false
        try client.readLines(1) { reply in ok = String(decoding: reply, as: UTF8.self).hasPrefix(#"{"ok":true"#) }
        guard ok else { throw BenchError("the server refused \(line)") }
    }

    /// `gateway_ratio_ceiling`: the most `gateway_ratio` could be in this run, with the two
    /// cores busy in both phases (the ratio of two such rates is the inverse ratio of their CPU a
    /// push), if the gateway's loop cost nothing beyond HTTP/2: the socket's 2.3 KB push, server
    /// and client, over what the gateway cannot do without — storing the push as the socket's
    /// store threads did (its server less its loop), HTTP/2 as nghttp2's own server answers the
    /// same h2load run (`nghttpd_server_us`), and h2load itself in the gateway run. APNs' checks,
    /// the JSON, the engine and the request log count as free, so no gateway on that HTTP/2,
    /// measured with that client, gets past it. `gateway_ceiling_share` is `gateway_ratio` over
    /// it: how much of what the machine leaves the gateway it reaches.
    static func recordCeiling(into results: inout Results) {
        guard let socketServer = results.value("ingest_2k_server_us"), let socketLoop = results.value("ingest_2k_loop_us"),
              let socketClient = results.value("ingest_2k_client_us"), let http2Server = results.value("nghttpd_server_us"),
              let http2Client = results.value("gateway_client_us"), let measured = results.value("gateway_ratio")
        else { return }
        let unavoidable = socketServer - socketLoop + http2Server + http2Client
        guard unavoidable > 0 else { return }
        let ceiling = (socketServer + socketClient) / unavoidable
        results.record("gateway_ratio_ceiling", ceiling, "x")
        results.record("gateway_ceiling_share", measured / ceiling, "x")
    }

    func gatewayPort(_ socket: String) throws -> Int {
        let client = try BenchSocket(path: socket)
        try client.write(Array(#"{"op":"gateway"}"#.utf8) + [0x0A])
        var port: Int?
        try client.readLines(1) { line in
            let text = String(decoding: line, as: UTF8.self)
            if let range = text.range(of: #"127.0.0.1:"#) {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port else { throw BenchError("the server names no gateway port") }
        return port
    }

    /// Runs h2load; its requests per second. Fails when any request failed.
    func h2load(_ arguments: [String]) throws -> Double {
        try h2loadRun(arguments).rate
    }

    /// h2load's rate and how many requests it had done.
    func h2loadRun(_ arguments: [String]) throws -> (rate: Double, done: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/h2load")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError("h2load (Debian nghttp2-client) cannot run: \(error)")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "requests: N total, N started, N done, N succeeded, 0 failed, 0 errored, 0 timeout"
        guard let requests = output.split(separator: "\n").first(where: { $0.hasPrefix("requests:") }),
              requests.contains(" 0 failed, 0 errored"),
              let finished = output.split(separator: "\n").first(where: { $0.hasPrefix("finished in") }),
              let rate = finished.split(separator: ",").dropFirst().first?.split(separator: " ").first.flatMap({ Double($0) }),
              let done = requests.split(separator: ",").first(where: { $0.hasSuffix(" done") })?.split(separator: " ").first.flatMap({ Double($0) })
        else { throw BenchError("h2load failed: \(output)") }
        return (rate, done)
    }

    func residentMegabytes(_ pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { throw BenchError("no VmRSS for \(pid)") }
        return kilobytes / 1024
    }
}

/// TLS connections to the gateway, handshake done (ALPN h2), then left idle.
final class IdleTLSConnections {
    private var connections: [(fd: Int32, ssl: OpaquePointer)] = []
    private let context: OpaquePointer
    var count: Int { connections.count }

    init(port: Int, count: Int) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw BenchError("SSL_CTX_new failed") }
        self.context = context
        let protocols: [UInt8] = [2] + Array("h2".utf8)
        SSL_CTX_set_alpn_protos(context, protocols, UInt32(protocols.count))
        for _ in 0..<count {
            let fd = loopbackConnection(port: port)
            guard fd >= 0 else { throw BenchError("connection \(connections.count) to the gateway failed") }
            guard let ssl = SSL_new(context) else {
                Glibc.close(fd)
                throw BenchError("connection \(connections.count) to the gateway failed")
            }
            SSL_set_fd(ssl, fd)
            guard SSL_connect(ssl) == 1 else {
                SSL_free(ssl)
                Glibc.close(fd)
                throw BenchError("TLS handshake \(connections.count) with the gateway failed")
            }
            connections.append((fd, ssl))
        }
    }

    func close() {
        for (fd, ssl) in connections {
            SSL_free(ssl)
            Glibc.close(fd)
        }
        connections.removeAll()
    }

    deinit {
        close()
        SSL_CTX_free(context)
    }
}
