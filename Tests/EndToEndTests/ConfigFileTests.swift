import Foundation
import PushCore
import Testing
import TestSupport

/// `$XDG_CONFIG_HOME/pushdeck/config.json` through the real binary: a value in the file takes
/// effect, the environment overrides the file, a flag overrides the environment, and a bad file
/// stops the command (exit 2) naming the file, the line and the key, with nothing started.
@Suite struct ConfigFileTests {
    /// A config home holding `config.json` with `text`.
    static func configHome(_ text: String, in folder: TempFolder) throws -> String {
        let home = folder.file("config")
        try FileManager.default.createDirectory(atPath: home + "/pushdeck", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: home + "/pushdeck/config.json"))
        return home
    }

    @Test func theFilesSocketIsWhereClientsLookAndTheEnvironmentAndFlagsWin() throws {
        let server = try ServerProcess(memory: true)
        let home = try Self.configHome("{\"socket\": \"\(server.socket)\"}", in: server.folder)
        let fromFile = try runPushdeck(["ping"], environment: ["XDG_CONFIG_HOME": home])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.output == Version.current)

        let elsewhere = server.folder.file("elsewhere.sock")
        let fromEnvironment = try runPushdeck(["ping"], environment: ["XDG_CONFIG_HOME": home, "PUSHDECK_SOCKET": elsewhere])
        #expect(fromEnvironment.status == 3)
        #expect(fromEnvironment.stderr.contains(elsewhere))

        let fromFlag = try runPushdeck(["ping", "--socket", server.socket], environment: ["XDG_CONFIG_HOME": home, "PUSHDECK_SOCKET": elsewhere])
        #expect(fromFlag.status == 0, "\(fromFlag.stderr)")

        // --config points elsewhere: that file's socket, not the config home's.
        let other = TempFolder()
        let otherHome = try Self.configHome("{\"socket\": \"\(elsewhere)\"}", in: other)
        let named = try withExtendedLifetime(other) {
            try runPushdeck(["ping", "--config", otherHome + "/pushdeck/config.json"], environment: ["XDG_CONFIG_HOME": home])
        }
        #expect(named.status == 3)
        #expect(named.stderr.contains(elsewhere))
    }

    /// The server's settings: the file's max_payload refuses a payload the default takes; the
    /// flag wins over the file. (And --memory wins over the file's database.)
    @Test func theFilesServerSettingsTakeEffectAndAFlagWins() throws {
        let folder = TempFolder()
        let home = try Self.configHome("""
            {
              "max_payload": 300,
              "db": "\(folder.file("from-config.sqlite"))"
            }
            """, in: folder)
        let payload = "{\"aps\":{\"alert\":\"\(String(repeating: "x", count: 400))\"}}"

        let limited = try ServerProcess(folder: folder, memory: true, environment: ["XDG_CONFIG_HOME": home])
        let refused = try limited.run(["send", "-"], stdin: Data(payload.utf8))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("300"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("from-config.sqlite")))
        limited.stop()

        let flagged = try ServerProcess(
            folder: TempFolder(), extraArguments: ["--max-payload", "4096"], memory: true, environment: ["XDG_CONFIG_HOME": home])
        let taken = try flagged.run(["send", "-"], stdin: Data(payload.utf8))
        #expect(taken.status == 0, "\(taken.stderr)")
    }

    /// The environment wins over the file for the server too: $PUSHDECK_DB over the file's db.
    @Test func theEnvironmentsDatabaseWinsOverTheFiles() throws {
        let folder = TempFolder()
        let home = try Self.configHome("{\"db\": \"\(folder.file("file.sqlite"))\", \"socket\": \"\(folder.file("s.sock"))\"}", in: folder)
        let serve = try BackgroundProcess(
            ["serve"], environment: ["XDG_CONFIG_HOME": home, "PUSHDECK_DB": folder.file("env.sqlite")], folder: folder)
        defer { serve.stop() }
        try serve.waitForSocket(folder.file("s.sock"))
        #expect(FileManager.default.fileExists(atPath: folder.file("env.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("file.sqlite")))
    }

    /// The UI's colours: the file's no_color draws the monochrome theme (the header reversed,
    /// not black on cyan), as NO_COLOR does; without either the header is in colour.
    @Test func theFilesNoColorDrawsTheUIWithoutColour() throws {
        let cyanBackground = "\u{1b}[46m"
        // tmux writes reverse with what goes with it: ESC[7m or ESC[1;7m.
        let reverse = ";7m"
        func header(configHome: String?) throws -> String {
            let folder = TempFolder()
            let command = "\(PackagePaths.pushdeckBinary) ui --memory --socket \(folder.file("s.sock"))"
            // NO_COLOR empty (no request), whatever the test runner's environment says.
            var environment = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "NO_COLOR": ""]
            if let configHome { environment["XDG_CONFIG_HOME"] = configHome }
            let tmux = try TmuxSession(command: command, folder: folder, environment: environment)
            #expect(tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(tmux.capture())")
            let screen = tmux.captureWithAttributes()
            try tmux.sendKeys("q")
            #expect(tmux.exitStatus() == 0)
            return String(screen.split(separator: "\n").first ?? "")
        }
        let coloured = try header(configHome: nil)
        #expect(coloured.contains(cyanBackground), "\(coloured.debugDescription)")
        let configFolder = TempFolder()
        let home = try Self.configHome("{\"no_color\": true}", in: configFolder)
        let plain = try withExtendedLifetime(configFolder) { try header(configHome: home) }
        #expect(!plain.contains(cyanBackground) && (plain.contains(reverse) || plain.contains("\u{1b}[7m")), "\(plain.debugDescription)")
    }

    static let badFiles: [(text: String, line: Int, says: String)] = [
        ("{\n  \"socket\": \"/tmp/never.sock\",\n  \"banner_seconds\": 0\n}", 3, "\"banner_seconds\" must be a number of seconds above 0 (at most 3600)"),
        ("{\n  \"colour\": \"blue\"\n}", 2, "unknown key \"colour\"; accepted keys: banner_seconds, clock, control_token, db, devices, gateway"),
        ("{\n  \"devices\": \"sometimes\"\n}", 2, "\"devices\" must be open or strict"),
        ("{\n  \"max_payload\": \"big\"\n}", 2, "\"max_payload\" must be a whole number from 256 to 1048576"),
        ("{\n  \"socket\": \"/a\",\n  \"socket\": \"/b\"\n}", 3, "\"socket\" is set twice (first on line 2)"),
        ("{\n  \"socket\": \"/a\",\n  oops\n}", 3, "not valid JSON"),
    ]

    @Test(arguments: badFiles.indices)
    func aBadFileStopsEveryCommandNamingTheFileTheLineAndTheKey(index: Int) throws {
        let (text, line, says) = Self.badFiles[index]
        let folder = TempFolder()
        defer { withExtendedLifetime(folder) {} }  // its config file must outlive the commands
        let home = try Self.configHome(text, in: folder)
        let path = home + "/pushdeck/config.json"
        let socket = folder.file("s.sock")
        for command in [["serve", "--socket", socket, "--memory"], ["ping"], ["list", "--json"]] {
            let result = try runPushdeck(command, environment: ["XDG_CONFIG_HOME": home], timeout: 20)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(path):\(line): \(says)"), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // Nothing started: the server never made its socket.
        #expect(!FileManager.default.fileExists(atPath: socket))
        // Help still works, to read how the file is written.
        let help = try runPushdeck(["help"], environment: ["XDG_CONFIG_HOME": home])
        #expect(help.status == 0)
    }

    @Test func aConfigFlagNamingNoFileIsAnError() throws {
        let result = try runPushdeck(["ping", "--config", "/nonexistent/pd.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/pd.json: no such file"))
    }
}

/// A `pushdeck` process with its own environment, output to files; stopped (SIGTERM) by `stop`.
final class BackgroundProcess: @unchecked Sendable {
    // @unchecked: the process handle is only touched by the owning test.
    let process = Process()

    init(_ arguments: [String], environment: [String: String], folder: TempFolder) throws {
        process.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["PUSHDECK_SOCKET"] = nil
        env["PUSHDECK_DB"] = nil
        process.environment = env.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: folder.file("background.log"), contents: nil)
        let log = FileHandle(forWritingAtPath: folder.file("background.log"))
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// Polls (bounded) until `socket` answers `ping`.
    func waitForSocket(_ socket: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !process.isRunning { throw BackgroundProcessError("pushdeck exited with \(process.terminationStatus)") }
            if (try? runPushdeck(["ping", "--socket", socket]))?.status == 0 { return }
            usleep(20_000)
        }
        throw BackgroundProcessError("pushdeck did not answer on \(socket) within 10 s")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

struct BackgroundProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
