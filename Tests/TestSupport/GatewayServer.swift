import Foundation

/// A `pushdeck serve --gateway` on a private socket, database, TLS folder and a port the kernel
/// chose, with what an outside client needs: the address, the CA, and the APNs client venv.
public final class GatewayServer: @unchecked Sendable {
    // @unchecked: immutable after init; the process is only touched by the owning test.
    public let server: ServerProcess
    /// `127.0.0.1:PORT`.
    public let address: String
    public let port: Int
    /// The CA pushdeck made, to trust its certificate (`pushdeck gateway ca`).
    public let caPath: String

    public init(extraArguments: [String] = [], memory: Bool = true) throws {
        let folder = TempFolder()
        server = try ServerProcess(
            folder: folder, extraArguments: ["--gateway", "127.0.0.1:0"] + extraArguments, memory: memory,
            environment: ["XDG_DATA_HOME": folder.file("data")])
        address = try server.run(["gateway"]).output
        port = Int(address.split(separator: ":").last ?? "") ?? 0
        caPath = try server.run(["gateway", "ca"]).output
        guard port > 0, FileManager.default.fileExists(atPath: caPath) else {
            throw SpawnError(message: "the gateway gave no address or CA: '\(address)', '\(caPath)'\n\(server.serverLog)")
        }
    }

    /// Runs a client command against this server.
    public func run(_ arguments: [String]) throws -> CommandResult { try server.run(arguments) }

    /// The Python of the virtualenv `.ci/run` makes (aioapns, PyJWT pinned there).
    public static var venvPython: String {
        PackagePaths.root.appendingPathComponent(".build/venv/bin/python").path
    }
}

/// Runs any program to completion with extra environment variables; stdout and stderr apart.
public func runProgram(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
    let box = ProgramOutput()
    DispatchQueue.global().async(group: group) { box.setOut(out.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { box.setErr(err.fileHandleForReading.readDataToEndOfFile()) }
    process.waitUntilExit()
    group.wait()
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: box.out, as: UTF8.self),
        stderr: String(decoding: box.err, as: UTF8.self))
}

private final class ProgramOutput: @unchecked Sendable {
    // @unchecked: each field is written once by its reader before `group.wait()` returns.
    var out = Data()
    var err = Data()
    func setOut(_ data: Data) { out = data }
    func setErr(_ data: Data) { err = data }
}
