import Foundation
import Glibc

/// A real `pushdeck` process (the release binary beside this one) on a socket and a database in a
/// temp folder.
final class ServerUnderTest {
    let process = Process()
    let socket: String

    init(folder: String, arguments: [String] = ["serve"], database: String? = nil, environment: [String: String] = [:]) throws {
        socket = folder + "/bench.sock"
        process.executableURL = URL(fileURLWithPath: Bench.siblingBinary("pushdeck"))
        process.arguments = arguments + ["--socket", socket, "--db", database ?? folder + "/inbox.sqlite"]
        process.standardError = FileHandle.nullDevice
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while (try? BenchSocket(path: socket)) == nil {
            guard process.isRunning, Date() < deadline else { throw BenchError("pushdeck serve did not start") }
            usleep(10_000)
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
