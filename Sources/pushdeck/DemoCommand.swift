import Foundation
import PushCore
import PushScenario
import PushClient
import PushUIHost

/// `pushdeck demo`: plays `Resources/scenarios/demo.json` live (a demo is just a scenario)
/// through the socket of a running pushdeck. With no pushdeck running it starts the UI itself
/// (in memory) on this terminal and plays into that.
enum DemoCommand {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socketFlag = try arguments.option("--socket")
        let speedText = try arguments.option("--speed")
        try arguments.finish()
        let speed = try PlayCommand.speedValue(speedText, command: "demo")
        guard let resources = ResourceFolder.locate() else {
            throw Failure(code: 1, message: "cannot find Resources/scenarios/demo.json; run from the pushdeck checkout, install with its ./install.sh (PREFIX/share/pushdeck), or set PUSHDECK_RESOURCES")
        }
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(path: resources.appendingPathComponent("scenarios/demo.json").path)
        } catch {
            throw Failure(code: 1, message: error.description)
        }

        let environment = ProcessInfo.processInfo.environment
        let socket = Locations.socketPath(flag: socketFlag, environment: environment)
        if (try? SocketClient(path: socket)) != nil {
            let result = try play(scenario, socket: socket, speed: speed)
            for line in result.failureLines { writeLine(line) }
            return 0
        }
        // No pushdeck to play into: run the UI here, in memory, and play into it from a thread
        // that only talks to the socket (the UI owns the terminal).
        // A folder of our own (mkdtemp, 0700) for the socket and its lock file: a fixed name in
        // /tmp is a name another user can take first.
        var template = Array("/tmp/pushdeck-demo-XXXXXX".utf8CString)
        guard let folder = template.withUnsafeMutableBufferPointer({ buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }) else {
            throw Failure(code: 1, message: "cannot make a private folder in /tmp for the demo's socket: \(String(cString: strerror(errno)))")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let privateSocket = folder + "/pushdeck.sock"
        // The UI owns the terminal: a line printed now would be drawn over. The narration goes
        // to the UI's status line instead, as the server's own log lines do.
        let notes = Notes()
        Thread {
            _ = try? play(scenario, socket: privateSocket, speed: speed) { step, say in
                notes.add(String(format: "demo %.1fs: %@", step.time, say))
                // A step that only narrates sends nothing, and the UI draws once a turn of its
                // loop: a ping makes that turn now.
                if case .none = step.action { _ = try? SocketClient(path: privateSocket).request(.ping) }
            }
        }.start()
        var ui = Arguments(CommandTable.ui, ["--memory", "--socket", privateSocket], settings: arguments.settings)
        return try ServeCommand.ui(&ui, notes: notes)
    }

    /// Plays the scenario live, each narration line through `narrate`. Stops quietly when the
    /// server goes away.
    static func play(
        _ scenario: Scenario, socket: String, speed: Double,
        narrate: @escaping (Step, String) -> Void = { step, say in writeLine(String(format: "%6.1fs  %@", step.time, say)) }
    ) throws -> PlayResult {
        let player = try connectWhenReady(socket, speed: speed, timeout: 10)
        player.narrate = narrate
        return try player.play(scenario)
    }

    private static func connectWhenReady(_ socket: String, speed: Double, timeout: Double) throws -> LivePlayer {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                return try LivePlayer(socket: socket, speed: speed)
            } catch {
                if Date() > deadline { throw error }
                usleep(20_000)
            }
        }
    }
}
