import Foundation
import Glibc
import Synchronization

/// A `pushdeck serve --gateway` on a port the system chose, with its own TLS folder.
public final class GatewayServer: @unchecked Sendable {
    // @unchecked: immutable after init; the process is only touched by the owning test.
    public let server: ServerProcess
    /// `127.0.0.1:PORT` as `pushdeck gateway` prints it.
    public let address: String
    public let port: Int
    /// The CA file `pushdeck gateway ca` names (empty when the server has none).
    public let ca: String

    /// `memory: false` keeps the store in the folder's database file, so a second server on the
    /// same folder starts from what the first one stored. `shellPrefix`: as `ServerProcess`'s (a
    /// `ulimit` for the server alone).
    public init(host: String = "127.0.0.1", extraArguments: [String] = [], folder: TempFolder = TempFolder(), memory: Bool = true,
                shellPrefix: String? = nil) throws {
        server = try ServerProcess(
            folder: folder, extraArguments: ["--gateway", "\(host):0"] + extraArguments, memory: memory, shellPrefix: shellPrefix,
            environment: ["XDG_DATA_HOME": folder.file("data")])
        let reply = try server.run(["gateway"])
        guard reply.status == 0, let colon = reply.output.lastIndex(of: ":"), let port = Int(reply.output[reply.output.index(after: colon)...]) else {
            throw SpawnError(message: "pushdeck gateway said \(reply.status): \(reply.stdout)\(reply.stderr)")
        }
        address = reply.output
        self.port = port
        ca = try server.run(["gateway", "ca"]).output
    }

    /// Runs curl against this gateway's `/3/device/TOKEN`; the result's output is
    /// `STATUS HTTPVERSION` then the body on the next line.
    public func curl(_ arguments: [String], path: String = "/3/device/0123abcd", tls: Bool, body: String? = nil,
                     topic: String = "com.example.gateway") throws -> Spawn.Result {
        let url = tls ? "https://localhost:\(port)\(path)" : "http://127.0.0.1:\(port)\(path)"
        var command = ["curl", "-sS", "--max-time", "10", "-o", "-", "-w", "\n%{http_code} %{http_version}"]
        if tls { command += ["--cacert", ca] }
        command += ["-H", "apns-topic: \(topic)", "-H", "authorization: \(APNsKeys.wellFormedAuthorization)"]
        if let body { command += ["--data-binary", body] }
        return try Spawn.run(command + arguments + [url], captureOutput: true)
    }

    /// The messages the server holds, as `list --json` prints them.
    public func listJSON() throws -> String { try server.run(["list", "--json"]).stdout }
}

/// A raw TCP client for bytes no well-behaved client sends.
public final class RawTCP {
    public let fd: Int32

    public init(port: Int, host: String = "127.0.0.1") throws {
        // The descriptor is the object's only once connected: a class whose init throws after
        // its properties are set is deinitialized, and `deinit` closing a descriptor closed
        // here already closed whatever another thread of the tests had opened under that number
        // meanwhile (a store's SQLite file: "disk I/O error", "not an SQLite database").
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SpawnError(message: "connect to \(host):\(port): \(reason)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Everything the peer sends until it closes (or `timeout` seconds pass: then `closed` is false).
    public func readUntilClosed(timeout: Double = 5) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&entry, 1, remaining) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return (received, true) }
            received += buffer[0..<count]
        }
        return (received, false)
    }
}

/// The test virtualenv: the pinned Python clients of `Tests/Clients/requirements.txt` (h2 for the
/// HTTP/2 abuse clients, aioapns and PyJWT, JPush's SDK, requests). The first test that needs it
/// makes it with `Tests/Scripts/make_venv.sh`, which holds an flock on `VENV.lock` while it does,
/// so parallel tests and parallel test processes make it once, and makes it again from nothing
/// when the requirements' sha256 is not the one it was made from. Nothing is skipped: a venv that
/// cannot be made is an error naming the command and what it printed.
public enum TestVenv {
    /// Where it lives: `$PUSHDECK_TEST_VENV`, else `.build/venv` of the package.
    public static var folder: String {
        if let explicit = ProcessInfo.processInfo.environment["PUSHDECK_TEST_VENV"], !explicit.isEmpty { return explicit }
        return PackagePaths.root.appendingPathComponent(".build/venv").path
    }

    /// The script that makes it.
    public static var script: String { PackagePaths.root.appendingPathComponent("Tests/Scripts/make_venv.sh").path }

    /// The python of this process's venv, once it was made (the script's lock orders the rest).
    private static let made = Mutex<String?>(nil)

    /// The venv's python, making the venv first when it is missing or stale.
    public static func python() throws -> String {
        try made.withLock { made in
            if let made { return made }
            let python = try ensure(folder: folder)
            made = python
            return python
        }
    }

    /// Runs `make_venv.sh` for `folder` (and `requirements`, default the pinned file); its python.
    public static func ensure(folder: String, requirements: String? = nil) throws -> String {
        let command = ["bash", script, folder] + (requirements.map { [$0] } ?? [])
        // pip fetching and building the pinned clients takes minutes on a slow machine.
        let result = try runProgram(command, timeout: 1800)
        let python = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: python) else {
            throw SpawnError(message: "could not make the test virtualenv: '\(command.joined(separator: " "))' exited \(result.status):\n\(result.stdout)\(result.stderr)")
        }
        return python
    }

    /// Runs a script from `Tests/Scripts` with the venv's python.
    public static func run(_ script: String, _ arguments: [String]) throws -> Spawn.Result {
        let python = try python()
        let path = PackagePaths.root.appendingPathComponent("Tests/Scripts/\(script)").path
        return try Spawn.run([python, path] + arguments, captureOutput: true)
    }
}
