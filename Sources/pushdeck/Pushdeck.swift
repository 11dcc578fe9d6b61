import Foundation
import PushCore
import PushClient
import PushJSON

/// A command's outcome when it cannot finish: the exit code and what to tell the user.
struct Failure: Error {
    var code: Int32
    var message: String

    /// The server said no (exit 1).
    static func refused(_ message: String) -> Failure { Failure(code: 1, message: message) }

    /// The server answered with a reply of another kind than the request's (exit 1).
    static func unreadable(_ reply: Reply) -> Failure {
        Failure(code: 1, message: "the server's reply is not the kind this pushdeck asked for: \(JSON.object(reply.wireObject).compactText)")
    }
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
            command = Commands.UI.name
        }
        guard let type = Commands.named(command), let spec = CommandTable.command(named: command) else {
            // One line and a pointer to the overview: the whole usage would bury the mistake.
            printError("pushdeck: " + Suggestion.unknownCommand(command))
            return 2
        }
        if argv.contains("--help") || argv.contains("-h") {
            writeLine(Help.text(for: spec))
            return 0
        }
        if argv.contains("--version") {
            writeLine("pushdeck \(Version.current)")
            return 0
        }

        var arguments = Arguments(spec, argv)
        do {
            // The config file comes first: a bad one stops every command before it starts
            // (but help, which says how to write one, and completions).
            let configPath = try arguments.option(CommandTable.config.name)
            let environment = ProcessInfo.processInfo.environment
            let file = type.readsConfigFile ? try ConfigFile.load(flag: configPath, environment: environment) : nil
            arguments.settings = Settings(environment: environment, file: file)
            return try type.run(&arguments)
        } catch let error as ConfigError {
            printError("pushdeck: \(error)")
            return 2
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

    /// Runs the command `arguments` are for (its options not read yet): the type of that name.
    static func execute(_ arguments: inout Arguments) throws -> Int32 {
        guard let command = Commands.named(arguments.command) else { return 2 }
        return try command.run(&arguments)
    }

    /// `help [COMMAND] [--man]`.
    static func helpCommand(_ arguments: inout Arguments) throws -> Int32 {
        let man = arguments.flag("--man")
        let words = try arguments.positionals()
        guard words.count <= 1 else { throw UsageError("help takes at most one COMMAND", command: "help") }
        if man {
            guard words.isEmpty else { throw UsageError("--man writes the whole manual; it takes no COMMAND", command: "help") }
            writeLine(String(ManPage.roff(version: Version.current).dropLast()))
        } else {
            if let word = words.first {
                guard let command = CommandTable.command(named: word) else {
                    throw Failure(code: 2, message: Suggestion.unknownCommand(word))
                }
                writeLine(Help.text(for: command))
            } else {
                writeLine(Help.overview)
            }
        }
        return 0
    }

    /// `completions bash|zsh|fish`.
    static func completionsCommand(_ arguments: inout Arguments) throws(UsageError) -> Int32 {
        let words = try arguments.positionals()
        let shells = Completions.Shell.allCases.map(\.rawValue)
        guard words.count == 1, let shell = Completions.Shell(rawValue: words[0]) else {
            throw UsageError("completions takes one shell: \(SettingValue.either(shells))", command: "completions")
        }
        writeLine(String(Completions.script(for: shell).dropLast()))
        return 0
    }
}
