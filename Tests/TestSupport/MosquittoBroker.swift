import Foundation
import Glibc
import PushSystem

/// A private mosquitto broker for one test: `mosquitto -c <generated config>` on a free loopback
/// port, its persistence and log in its own folder, stopped when dropped. `users` (name →
/// password) turns anonymous access off and writes a password file with `mosquitto_passwd`.
/// `restart()` starts it again on the same port and folder (with `persistence`, the queued
/// messages and sessions come back).
public final class MosquittoBroker: @unchecked Sendable {
    // @unchecked: the process handle is only touched by the owning test.
    public let folder: TempFolder
    public let port: Int
    public let persistence: Bool
    /// The broker's pid while it runs (started by `Spawn`, so with no signal blocked: the test
    /// runner's threads block SIGTERM, and a broker started by `Process` would never hear it).
    private var pid: pid_t?

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    public var logPath: String { folder.file("mosquitto.log") }
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    public init(persistence: Bool = false, users: [String: String] = [:], extraConfig: [String] = []) throws {
        folder = TempFolder()
        port = try Self.freePort()
        self.persistence = persistence
        // Run as root, mosquitto becomes the user `user` names (by default `mosquitto`, who cannot
        // read this private folder): it stays whoever runs the test.
        let me = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        var config = ["user \(me)", "listener \(port) 127.0.0.1", "log_dest file \(folder.file("mosquitto.log"))", "log_type all",
                      "max_queued_messages 100000", "max_inflight_messages 100"]
        if users.isEmpty {
            config.append("allow_anonymous true")
        } else {
            let passwords = folder.file("passwords")
            for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                let result = try runProgram(["mosquitto_passwd", "-b"] + (index == 0 ? ["-c"] : []) + [passwords, user, password])
                guard result.status == 0 else { throw SpawnError(message: "mosquitto_passwd: \(result.stderr)") }
            }
            config += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if persistence { config += ["persistence true", "persistence_location \(folder.path)/", "autosave_interval 1"] }
        config += extraConfig
        try (config.joined(separator: "\n") + "\n").write(toFile: folder.file("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts the broker and waits (up to 10 s) until its port accepts a connection.
    public func start() throws {
        let pid = try Spawn.start(["/usr/sbin/mosquitto", "-c", folder.file("mosquitto.conf")])
        self.pid = pid
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !Spawn.isRunning(pid) {
                self.pid = nil
                throw SpawnError(message: "mosquitto exited: \(log)")
            }
            if (try? RawTCP(port: port)) != nil { return }
            usleep(20_000)
        }
        throw SpawnError(message: "mosquitto did not listen on \(port) within 10 s: \(log)")
    }

    /// SIGTERM and wait (mosquitto saves its persistence on the way out).
    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        _ = Spawn.wait(pid)
        self.pid = nil
    }

    public func restart() throws {
        stop()
        try start()
    }

    /// Runs `mosquitto_pub` against this broker (`arguments` after host and port).
    @discardableResult
    public func publish(_ arguments: [String]) throws -> CommandResult {
        try runProgram(["mosquitto_pub", "-h", "127.0.0.1", "-p", String(port)] + arguments)
    }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() throws -> Int {
        Int(try TCPListener(host: "127.0.0.1", port: 0).port)
    }

    deinit {
        if let pid {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid)
        }
    }
}
