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

/// Runs the real `pushdeck` binary to completion. With `timeout`, a command still running after
/// that many seconds is killed (SIGKILL) and the result's status is -1: a test of something that
/// must exit at once fails instead of hanging.
public func runPushdeck(
    _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: Double? = nil
) throws -> CommandResult {
    var env = ProcessInfo.processInfo.environment
    env["PUSHDECK_SOCKET"] = nil
    env["PUSHDECK_DB"] = nil
    env["XDG_CONFIG_HOME"] = isolatedConfigHome
    for (key, value) in environment { env[key] = value }
    return try runToCompletion(PackagePaths.pushdeckBinary, arguments, environment: env, stdin: stdin, timeout: timeout)
}

/// Runs any program (found on `PATH`) to completion with extra environment variables; stdout and
/// stderr apart.
public func runProgram(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> CommandResult {
    try runToCompletion(
        "/usr/bin/env", arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, stdin: stdin)
}

/// The one way tests run a program and keep what it wrote: `stdin` written and closed, both
/// pipes read while it runs (so neither fills up), and with `timeout` a SIGKILL after that many
/// seconds (status -1).
func runToCompletion(
    _ executable: String, _ arguments: [String], environment: [String: String], stdin: Data?, timeout: Double? = nil
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let group = DispatchGroup()
    let box = OutputBox()
    DispatchQueue.global().async(group: group) { box.setOut(out.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { box.setErr(err.fileHandleForReading.readDataToEndOfFile()) }
    var timedOut = false
    if let timeout {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
        }
    }
    process.waitUntilExit()
    group.wait()
    return CommandResult(
        status: timedOut ? -1 : process.terminationStatus, stdout: String(decoding: box.out, as: UTF8.self),
        stderr: String(decoding: box.err, as: UTF8.self), stdoutBytes: Array(box.out), stderrBytes: Array(box.err))
}

private final class OutputBox: @unchecked Sendable {
    // @unchecked: each field is written once by its reader before `group.wait()` returns.
    var out = Data()
    var err = Data()
    func setOut(_ data: Data) { out = data }
    func setErr(_ data: Data) { err = data }
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

    /// SIGTERM and wait: a clean shutdown.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
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
