import Foundation

/// What a finished `pushdeck` command did.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The bytes exactly as written (`stdout`/`stderr` replace invalid UTF-8).
    public var stdoutBytes: [UInt8] = []
    public var stderrBytes: [UInt8] = []
    /// Standard output without its final newline.
    public var output: String { stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout }
}

/// A config folder that holds nothing: a developer's own `~/.config/pushdeck/config.json` must
/// not change what the tests see (a test that wants a config file passes its own XDG_CONFIG_HOME).
public let isolatedConfigHome = "/nonexistent/pushdeck-tests-config"

/// Runs the real `pushdeck` binary to completion. A command still running after `timeout`
/// seconds (default `Spawn.deadline`) is killed (SIGKILL) and the result's status is -1: a test of
/// something that must exit at once fails instead of hanging.
public func runPushdeck(
    _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: Double? = nil
) throws -> CommandResult {
    var env = ProcessInfo.processInfo.environment
    env["PUSHDECK_SOCKET"] = nil
    env["PUSHDECK_DB"] = nil
    env["XDG_CONFIG_HOME"] = isolatedConfigHome
    for (key, value) in environment { env[key] = value }
    return try runToCompletion([PackagePaths.pushdeckBinary] + arguments, environment: env, stdin: stdin, timeout: timeout)
}

/// Runs any program (found on `PATH`) to completion with extra environment variables; stdout and
/// stderr apart. `timeout` as `runPushdeck`'s.
public func runProgram(
    _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, timeout: Double? = nil
) throws -> CommandResult {
    try runToCompletion(
        ["/usr/bin/env"] + arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, stdin: stdin, timeout: timeout)
}

/// The one way tests run a program and keep what it wrote (`Spawn.collect`): `stdin` written and
/// closed, both outputs read while it runs. The status is the exit code, or the signal's number
/// when a signal ended it (as Foundation's `terminationStatus` says), or -1 when it was killed at
/// its deadline; a killed program's stderr says so.
func runToCompletion(_ arguments: [String], environment: [String: String], stdin: Data?, timeout: Double?) throws -> CommandResult {
    let limit = timeout ?? Spawn.deadline
    let finished = try Spawn.collect(arguments, environment: environment, stdin: stdin.map { Array($0) } ?? [], timeout: limit)
    var stderr = finished.stderr
    if finished.timedOut && timeout == nil {
        stderr += Array("\n[\(arguments.joined(separator: " ")): killed, still running after \(Int(limit)) s]\n".utf8)
    }
    return CommandResult(
        status: finished.timedOut ? -1 : finished.signal ?? finished.status, stdout: String(decoding: finished.stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self), stdoutBytes: finished.stdout, stderrBytes: stderr)
}

/// A `pushdeck serve` process on a private socket and database, stopped when dropped.
public final class ServerProcess: @unchecked Sendable {
    // @unchecked: the process handle is only touched by the owning test.
    public let folder: TempFolder
    public let socket: String
    public let database: String
    public let process: Process
    private let log: FileHandle?

    /// Starts a server and waits until it answers `ping` (up to 10 s).
    /// `shellPrefix`: shell commands run before the server is exec'd in the same process (a
    /// `ulimit`, a `trap`), so its pid is still the server's. `environment` is added to the server's.
    public init(
        folder: TempFolder = TempFolder(), extraArguments: [String] = [], memory: Bool = false, shellPrefix: String? = nil,
        environment: [String: String] = [:]
    ) throws {
        RunWatchdog.arm()
        self.folder = folder
        socket = folder.file("s.sock")
        database = folder.file("inbox.sqlite")
        process = Process()
        let arguments = ["serve", "--socket", socket] + (memory ? ["--memory"] : ["--db", database]) + extraArguments
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shellPrefix + #"; exec "$0" "$@""#, PackagePaths.pushdeckBinary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": isolatedConfigHome]) { $1 }
            .merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: folder.file("server.log"), contents: nil)
        log = FileHandle(forWritingAtPath: folder.file("server.log"))
        process.standardError = log
        process.standardOutput = log
        try process.run()
        try waitUntilReady()
    }

    /// Polls until the socket accepts a connection; fails if the process exits first.
    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !process.isRunning { throw ServerProcessError.exited(process.terminationStatus, serverLog) }
            if (try? runPushdeck(["ping", "--socket", socket]))?.status == 0 { return }
            usleep(20_000)
        }
        throw ServerProcessError.notReady(serverLog)
    }

    public var serverLog: String {
        (try? String(contentsOfFile: folder.file("server.log"), encoding: .utf8)) ?? ""
    }

    /// Runs a client command against this server.
    public func run(_ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
        guard let command = arguments.first else { return try runPushdeck(arguments, stdin: stdin) }
        return try runPushdeck([command, "--socket", socket] + arguments.dropFirst(), stdin: stdin)
    }

    /// SIGTERM and wait: a clean shutdown. A server still running 30 s later is killed (its status
    /// is then SIGKILL's), so a shutdown that hangs fails its test instead of the run.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning {
                FileHandle.standardError.write(Data("pushdeck serve (\(socket)) still running 30 s after SIGTERM: killed\n".utf8))
                kill9()
            }
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// SIGKILL and wait: a crash.
    public func kill9() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { kill9() }
}

public enum ServerProcessError: Error, CustomStringConvertible {
    case exited(Int32, String)
    case notReady(String)
    public var description: String {
        switch self {
        case .exited(let status, let log): "pushdeck serve exited with \(status): \(log)"
        case .notReady(let log): "pushdeck serve did not answer within 10 s: \(log)"
        }
    }
}
