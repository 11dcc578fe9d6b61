import Foundation
import Glibc
import Testing
import TestSupport

/// `nohup pushdeck serve` outlives its terminal: a SIGHUP that was ignored
/// when the server started stays ignored; otherwise a hangup is a clean shutdown.
@Suite struct HangupTests {
    @Test func anInheritedIgnoredHangupIsKept() throws {
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        // What nohup does: ignore SIGHUP, then exec the program.
        let server = try startUnderShell(#"trap "" HUP; exec "$0" serve --socket "$1" --memory"#, socket: socket)
        defer { stop(server) }
        try waitForSocket(socket)
        kill(server.processIdentifier, SIGHUP)
        // Bounded: give a handler that would shut down time to do it, asking all along.
        for _ in 0..<10 {
            #expect(try runPushdeck(["ping", "--socket", socket]).status == 0)
            usleep(30_000)
        }
        #expect(server.isRunning)
        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
    }

    @Test func aHangupStopsAServerStartedNormally() throws {
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        let server = try startUnderShell(#"trap - HUP; exec "$0" serve --socket "$1" --memory"#, socket: socket)
        defer { stop(server) }
        try waitForSocket(socket)
        kill(server.processIdentifier, SIGHUP)
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// The UI owns a terminal: it restores it and exits on hangup even when started with SIGHUP
    /// ignored.
    @Test func theUIStillRestoresAndExitsOnHangupWhenItWasIgnored() throws {
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        // Only the UI's subshell ignores SIGHUP: the pane's shell must still die with tmux.
        let command = "stty -g > \(folder.file("before")); (trap '' HUP; exec \(PackagePaths.pushdeckBinary) ui --memory --socket \(socket)); "
            + "stty -g > \(folder.file("after"))"
        let tmux = try TmuxSession(command: command, folder: folder, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(tmux.waitFor(timeout: 15) { $0.contains("PUSH [ON]") } != nil, "\(tmux.capture())")
        let pattern = "^\(PackagePaths.pushdeckBinary) ui --memory --socket \(socket)$"
        let found = try Spawn.run(["pgrep", "-f", pattern], captureOutput: true)
        let pid = try #require(pid_t(found.output.split(separator: "\n").first ?? ""))
        kill(pid, SIGHUP)
        #expect(tmux.exitStatus(timeout: 10) == 0)
        let before = try String(contentsOfFile: folder.file("before"), encoding: .utf8)
        let after = try String(contentsOfFile: folder.file("after"), encoding: .utf8)
        #expect(!before.isEmpty)
        #expect(before == after)
    }

    private func startUnderShell(_ script: String, socket: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, PackagePaths.pushdeckBinary, socket]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func stop(_ process: Process) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
