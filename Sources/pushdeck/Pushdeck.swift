import Foundation
import PushCore
import PushServer

/// A command's outcome when it cannot finish: the exit code and what to tell the user.
struct Failure: Error {
    var code: Int32
    var message: String

    /// The server said no (exit 1).
    static func refused(_ message: String) -> Failure { Failure(code: 1, message: message) }
}

/// The command line: picks the command, runs it, turns every failure into a message and an exit
/// code (0 done, 1 refused, 2 bad usage, 3 no server).
enum Pushdeck {
    static func run(_ argv: [String]) -> Int32 {
        var argv = argv
        let command: String
        if let first = argv.first, !first.hasPrefix("-") {
            command = first
            argv.removeFirst()
        } else if argv.first == "--version" {
            writeLine("pushdeck \(Version.current)")
            return 0
        } else if argv.first == "--help" || argv.first == "-h" {
            writeLine(Help.overview)
            return 0
        } else {
            command = "ui"
        }
        if command == "help" {
            writeLine(argv.first.flatMap { Help.commands[$0] } ?? Help.overview)
            return 0
        }
        guard Help.commands[command] != nil else {
            printError("pushdeck: unknown command '\(command)'\n\n\(Help.overview)")
            return 2
        }
        if argv.contains("--help") || argv.contains("-h") {
            writeLine(Help.commands[command] ?? Help.overview)
            return 0
        }
        if argv.contains("--version") {
            writeLine("pushdeck \(Version.current)")
            return 0
        }

        var arguments = Arguments(command: command, argv)
        do {
            switch command {
            case "serve": return try ServeCommand.serve(&arguments)
            case "ui": return try ServeCommand.ui(&arguments)
            case "demo": return try DemoCommand.run(&arguments)
            case "send": return try ClientCommands.send(&arguments)
            case "badge": return try ClientCommands.badge(&arguments)
            case "mode": return try ClientCommands.mode(&arguments)
            case "mute", "unmute": return try ClientCommands.mute(&arguments)
            case "quiet": return try ClientCommands.quiet(&arguments)
            case "read": return try ClientCommands.read(&arguments)
            case "delete": return try ClientCommands.delete(&arguments)
            case "list": return try ClientCommands.list(&arguments)
            case "app": return try ClientCommands.app(&arguments)
            case "watch": return try ClientCommands.watch(&arguments)
            case "ping": return try ClientCommands.ping(&arguments)
            case "device": return try DeviceCommands.device(&arguments)
            case "key": return try DeviceCommands.key(&arguments)
            case "gateway": return try GatewayCommand.run(&arguments)
            case "reset": return try VerdictCommands.reset(&arguments)
            case "expect": return try VerdictCommands.expect(&arguments)
            case "play": return try PlayCommand.run(&arguments)
            case "record": return try RecordCommand.run(&arguments)
            default: return 2
            }
        } catch let error as UsageError {
            printError(error.description)
            return 2
        } catch let error as ClientError {
            printError("pushdeck \(command): \(error)")
            if case .noServer = error { return 3 }
            return 1
        } catch let failure as Failure {
            printError("pushdeck \(command): \(failure.message)")
            return failure.code
        } catch {
            printError("pushdeck \(command): \(error)")
            return 1
        }
    }
}
