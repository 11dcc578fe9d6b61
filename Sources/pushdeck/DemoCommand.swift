import Foundation
import PushCore
import PushServer

/// `pushdeck demo`: plays `Resources/demo.json` through the socket of a running pushdeck. With no
/// pushdeck running it starts the UI itself (in memory) on this terminal and plays into that.
enum DemoCommand {
    /// One step of the scenario: at `at` seconds (divided by the speed), send a payload file or
    /// a request, and say what is being shown.
    struct Step: Sendable {
        var at: Double
        var say: String?
        var send: String?
        var app: String?
        var request: JSONObject?
    }

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socketFlag = try arguments.option("--socket")
        let speedText = try arguments.option("--speed")
        try arguments.finish()
        var speed = 1.0
        if let speedText {
            guard let value = Double(speedText), value > 0, value <= 1000 else {
                throw UsageError("--speed takes a number above 0 (2 plays twice as fast), not '\(speedText)'", command: "demo")
            }
            speed = value
        }
        guard let resources = ResourceFolder.locate() else {
            throw Failure(code: 1, message: "cannot find Resources/demo.json; run from the pushdeck checkout or set PUSHDECK_RESOURCES")
        }
        let steps = try loadScenario(resources.appendingPathComponent("demo.json"))

        let environment = ProcessInfo.processInfo.environment
        let socket = Locations.socketPath(flag: socketFlag, environment: environment)
        if (try? SocketClient(path: socket)) != nil {
            try play(steps, resources: resources, socket: socket, speed: speed, narrate: true)
            return 0
        }
        // No pushdeck to play into: run the UI here, in memory, and play into it from a thread
        // that only talks to the socket (the UI owns the terminal).
        let pace = speed
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
        Thread {
            try? play(steps, resources: resources, socket: privateSocket, speed: pace, narrate: false)
        }.start()
        var ui = Arguments(command: "ui", ["--memory", "--socket", privateSocket])
        return try ServeCommand.ui(&ui)
    }

    /// Sends each step at its time. Stops quietly when the server goes away.
    static func play(_ steps: [Step], resources: URL, socket: String, speed: Double, narrate: Bool) throws {
        let client = try connectWhenReady(socket, timeout: 10)
        let started = Date()
        for step in steps {
            let wait = started.addingTimeInterval(step.at / speed).timeIntervalSinceNow
            if wait > 0 { usleep(useconds_t(min(wait, 3600) * 1_000_000)) }
            if narrate, let say = step.say { writeLine(String(format: "%6.1fs  %@", step.at, say)) }
            if let file = step.send {
                let text = try String(contentsOf: resources.appendingPathComponent(file), encoding: .utf8)
                var request = "{\"op\":\"push\","
                if let app = step.app { request += "\"app\":\(JSON.string(app).compactText)," }
                request += "\"payload\":\(text)}\n"
                try client.send(Array(request.utf8))
                _ = try client.readReply()
            } else if let request = step.request {
                _ = try client.request(request)
            }
        }
    }

    static func loadScenario(_ url: URL) throws -> [Step] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Failure(code: 1, message: "cannot read \(url.path)")
        }
        let json: JSON
        do {
            json = try JSON.parse(Array(data))
        } catch {
            throw Failure(code: 1, message: "\(url.path): \(error)")
        }
        guard let steps = json.objectValue?["steps"]?.arrayValue else {
            throw Failure(code: 1, message: "\(url.path): expected {\"steps\":[...]}")
        }
        return try steps.enumerated().map { index, value in
            guard let object = value.objectValue, let at = object["at"]?.numberValue?.double else {
                throw Failure(code: 1, message: "\(url.path): steps[\(index)] needs \"at\" (seconds)")
            }
            return Step(
                at: at, say: object["say"]?.stringValue, send: object["send"]?.stringValue,
                app: object["app"]?.stringValue, request: object["request"]?.objectValue)
        }
    }

    private static func connectWhenReady(_ socket: String, timeout: Double) throws -> SocketClient {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                return try SocketClient(path: socket)
            } catch {
                if Date() > deadline { throw error }
                usleep(20_000)
            }
        }
    }
}
