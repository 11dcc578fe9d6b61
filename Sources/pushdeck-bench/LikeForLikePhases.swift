import CBenchFloor
import Foundation
import Glibc
import PushCore
import PushStore

/// The baselines each front door is compared with like for like, in the same run: SQLite storing
/// the same 2.3 KB rows batched (for the socket's and the gateway's 2.3 KB pushes), the C floor
/// of a durable round trip, and nghttpd answering the gateway's own h2load run from memory.
extension ServerPhases {
    /// Socket ingest of the gateway's 2.3 KB APNs payload against SQLite storing the same rows
    /// 1000 a transaction; returns the ingest rate (what the gateway's figures are compared with).
    func largePayloadIngest(into results: inout Results, server: ServerUnderTest) throws -> Double {
        let payload = Payloads.large()
        let (rawSQLite, sqliteCPU) = try rawSQLiteRate(database: "raw-2k.sqlite", title: "Bench", body: Payloads.largeBody) { _ in payload }
        results.record("raw_sqlite_2k_rows_per_s", rawSQLite, "rows/s")
        results.record("raw_sqlite_2k_us", sqliteCPU, "µs")
        var cpu: CPUMeter?
        let ingest = try ingestRate(server.socket, clients: 1, each: settings.pushes, started: { cpu = CPUMeter(server: server.process.processIdentifier) }) { range in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(range.count * (payload.count + 1))
            for _ in range { bytes += payload + [UInt8(ascii: "\n")] }
            return bytes
        }
        results.record("ingest_2k_msgs_per_s", ingest, "msgs/s")
        cpu?.record("ingest_2k", pushes: Double(settings.pushes), into: &results)
        results.record("ingest_2k_ratio", ingest / rawSQLite, "x")
        return ingest
    }

    /// `Sources/CBenchFloor`: a socket pair and SQLite's C API committing one row (and its app's
    /// unread and badge rows) per push, SQLite's checkpoints off, in pages of pushdeck's size,
    /// for the phase's seconds.
    func floorRoundTripRate() throws -> Double {
        let rate = pushdeck_bench_floor_roundtrips(folder + "/floor.sqlite", settings.phaseSeconds, 0, Int32(Store.pageSize))
        guard rate > 0 else { throw BenchError("the C round-trip floor failed (its error is above)") }
        return rate
    }
}

extension GatewayPhases {
    /// `Sources/CBenchFloor` with `clients` connections, one push of `bytes` in flight on each:
    /// what an HTTP/1.1 client without pipelining could get at best, with no HTTP and no JSON.
    func floorConcurrentRate(clients: Int32, bytes: Int) throws -> Double {
        let rate = pushdeck_bench_floor_concurrent(folder + "/floor-\(clients)x1.sqlite", settings.phaseSeconds, 0, Int32(Store.pageSize), clients, Int32(bytes))
        guard rate > 0 else { throw BenchError("the C floor of \(clients) connections failed (its error is above)") }
        return rate
    }

    /// nghttpd (Debian nghttp2-server) serving an empty file at the gateway's path from its
    /// document root (the page cache), over h2c, to the same h2load run as the gateway's; nil
    /// when nghttpd is not installed.
    func nghttpdRate(_ arguments: [String], path: String, into results: inout Results) throws -> Double? {
        guard let binary = ["/usr/sbin/nghttpd", "/usr/bin/nghttpd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Swift.print("  (nghttpd not installed: Debian nghttp2-server; gateway_nghttpd_ratio left out)")
            return nil
        }
        let root = folder + "/nghttpd"
        let file = root + path
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: file))
        let port = try freeLoopbackPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--no-tls", "-d", root, "--address=127.0.0.1", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(10)
        while true {
            let fd = loopbackConnection(port: port)
            if fd >= 0 {
                close(fd)
                break
            }
            guard process.isRunning, Date() < deadline else { throw BenchError("nghttpd did not start on port \(port)") }
            usleep(10_000)
        }
        let cpu = CPUMeter(server: process.processIdentifier)
        let (rate, done) = try h2loadRun(arguments + ["http://127.0.0.1:\(port)" + path])
        cpu.record("nghttpd", pushes: done, loop: false, into: &results)
        return rate
    }

    /// A loopback TCP port nothing listens on now (bound to port 0, then closed).
    func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
