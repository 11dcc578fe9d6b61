import Foundation

extension GatewayServer {
    /// The CA to trust the gateway's certificate with (`SSL_CERT_FILE`, `curl --cacert`).
    public var caPath: String { ca }

    /// Runs a client command against this server.
    public func run(_ arguments: [String]) throws -> CommandResult { try server.run(arguments) }

    /// The Python of the virtualenv `.ci/run` makes (aioapns, PyJWT pinned there).
    public static var venvPython: String { TestVenv.python }
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
