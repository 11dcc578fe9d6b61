import Foundation

/// A `pushdeck` client command running while the test does other things (`expect` waiting for
/// a push, `record` until ^C). Output goes to files in the folder, so no pipe can fill up.
public final class BackgroundCommand: @unchecked Sendable {
    // @unchecked: the process handle is only touched by the owning test.
    public let process: Process
    private let outPath: String
    private let errPath: String

    public init(_ arguments: [String], socket: String, folder: TempFolder, name: String = "background") throws {
        RunWatchdog.arm()
        outPath = folder.file("\(name).out")
        errPath = folder.file("\(name).err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        guard let command = arguments.first else { throw SpawnError(message: "no command") }
        process.arguments = [command, "--socket", socket] + arguments.dropFirst()
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var stderrSoFar: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
    public var stdoutSoFar: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    /// Waits (a bounded poll of the process) up to `seconds`; the result, or nil if still running.
    public func wait(seconds: Double) -> CommandResult? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: stdoutSoFar, stderr: stderrSoFar)
    }

    /// Sends ^C.
    public func interrupt() { kill(process.processIdentifier, SIGINT) }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
