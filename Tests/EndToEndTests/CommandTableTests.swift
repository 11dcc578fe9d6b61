import Foundation
import Testing
import TestSupport
@testable import pushdeck

/// The command table against the parser: every option a command's parser reads is in the table
/// (so it is in --help, the man page and the completions), and every option in the table is read.
@Suite struct CommandTableTests {
    /// Runs the command's own parsing on a probing `Arguments`, which stops at the end of the
    /// options: what it asked for is what the parser accepts.
    static func asked(by command: CommandSpec) throws -> (asked: [String: OptionSpec.Argument], reachedEnd: Bool) {
        var arguments = Arguments.probing(command)
        do {
            _ = try Pushdeck.execute(&arguments)
        } catch let error as UsageError where error.message == UsageError.probe(command: command.name).message {
            // The probe stopped it where the options end: nothing was started.
        }
        return (arguments.asked, arguments.reachedEnd)
    }

    @Test(arguments: CommandTable.commands.map(\.name))
    func everyOptionTheParserReadsIsInTheTableAndEveryOneInTheTableIsRead(name: String) throws {
        let command = try #require(CommandTable.command(named: name))
        let (asked, reachedEnd) = try Self.asked(by: command)
        #expect(reachedEnd, "\(name): its parser never got to the end of its options (is it dispatched?)")
        let parsed = Set(asked.keys)
        let documented = Set(command.options.map(\.name))
        #expect(parsed.subtracting(documented).isEmpty, "\(name) parses \(parsed.subtracting(documented).sorted()) but the table does not document them")
        #expect(documented.subtracting(parsed).isEmpty, "\(name) documents \(documented.subtracting(parsed).sorted()) but never parses them")
        for option in command.options {
            guard let how = asked[option.name] else { continue }
            #expect(how.shape == option.argument.shape, "\(name) \(option.name): parsed as \(how.shape), documented as \(option.argument.shape)")
        }
    }

    @Test func theCommandWordsListEveryCommandOnce() {
        #expect(CommandTable.commandNames == CommandTable.commands.map(\.name))
        #expect(Set(CommandTable.commandNames).count == CommandTable.commandNames.count)
    }

    @Test(arguments: CommandTable.commands.map(\.name))
    func theUsageLinesNameOnlyOptionsTheCommandTakes(name: String) throws {
        let command = try #require(CommandTable.command(named: name))
        let named = command.synopsis.joined(separator: " ").split(separator: " ")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]|.")) }
            .filter { $0.hasPrefix("--") && $0.count > 2 }
        for option in named {
            #expect(command.option(option) != nil, "\(name)'s usage shows \(option), which it does not take")
        }
    }

    @Test func everyOptionIsNamedOnceWithHelp() {
        for command in CommandTable.commands {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name) lists an option twice")
            for option in command.options {
                #expect(option.name.hasPrefix("--") && option.name.count > 2, "\(command.name) \(option.name)")
                #expect(!option.help.isEmpty, "\(command.name) \(option.name) has no help")
                #expect(!command.summary.isEmpty && !command.description.isEmpty)
            }
        }
    }

    /// One config key, one meaning: the commands that share an option share what the file may set.
    @Test func commandsSharingASettingAgreeOnItsValues() {
        var seen: [String: SettingValue] = [:]
        for option in CommandTable.commands.flatMap(\.options) {
            guard let setting = option.setting else { continue }
            if let earlier = seen[option.configKey] {
                #expect(earlier == setting, "\(option.configKey) means two things")
            }
            seen[option.configKey] = setting
        }
        #expect(Set(seen.keys) == Set(CommandTable.settings.keys))
        #expect(CommandTable.settings["banner_seconds"] != nil && CommandTable.settings["socket"] != nil)
    }

    /// The words the completions offer for a setting are the words the setting accepts.
    @Test func choiceSettingsCompleteTheirWords() {
        for option in CommandTable.commands.flatMap(\.options) {
            if case .choice(let words)? = option.setting {
                #expect(option.completion == .words(words), "\(option.name)")
            }
        }
    }

    /// Through the real binary: every option of every command is in its --help.
    @Test func everyCommandsHelpShowsEveryOptionItTakes() throws {
        for command in CommandTable.commands {
            let help = try runPushdeck([command.name, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("pushdeck \(command.shownName)"))
            for option in command.options {
                #expect(help.stdout.contains(option.name), "\(command.name) --help does not show \(option.name)")
            }
        }
        let overview = try runPushdeck(["help"])
        for command in CommandTable.commands {
            #expect(overview.stdout.contains("pushdeck \(command.shownName)"), "the overview misses \(command.name)")
        }
    }

    /// The option that started this: `serve` parsed --max-request and no help said so.
    @Test func maxRequestIsDocumentedWhereItIsParsed() throws {
        let help = try runPushdeck(["serve", "--help"])
        #expect(help.stdout.contains("--max-request BYTES"))
        #expect(help.stdout.contains("\"max_request\""))
    }

    @Test func anUnknownOptionSaysWhichOnesTheCommandTakes() throws {
        let result = try runPushdeck(["list", "--frobnicate", "--socket", "/tmp/pd-none.sock"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option --frobnicate; list takes --socket --app --unread --limit --before --json"))
    }

    @Test func helpAndCompletionsRefuseWhatTheyDoNotTake() throws {
        for arguments in [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"], ["help", "send", "list"], ["help", "send", "--man"]] {
            let result = try runPushdeck(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("Run 'pushdeck \(arguments[0]) --help'"), "\(arguments): \(result.stderr)")
        }
        #expect(try runPushdeck(["help", "send"]).stdout.hasPrefix("pushdeck send [FILE|-]"))
    }
}
