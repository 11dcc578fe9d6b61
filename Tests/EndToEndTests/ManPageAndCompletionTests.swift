import Foundation
import Testing
import TestSupport
@testable import pushdeck

/// `pushdeck help --man` renders without a warning; `pushdeck completions SHELL` parses in that
/// shell and completes the table's commands and options.
@Suite struct ManPageAndCompletionTests {
    /// Runs a program (found on PATH) with the arguments; status, stdout and stderr.
    struct ToolResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        let box = Box()
        DispatchQueue.global().async(group: group) { box.out = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { box.err = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return ToolResult(status: process.terminationStatus, stdout: String(decoding: box.out, as: UTF8.self),
                             stderr: String(decoding: box.err, as: UTF8.self))
    }

    private final class Box: @unchecked Sendable {
        // @unchecked: each field is written once by its reader before `group.wait()` returns.
        var out = Data()
        var err = Data()
    }

    /// The output of `pushdeck ARGUMENTS`, written to a file in `folder`.
    static func written(_ arguments: [String], to name: String, in folder: TempFolder) throws -> String {
        let result = try runPushdeck(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let path = folder.file(name)
        try Data(result.stdoutBytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: - Man page

    @Test func theManPageRendersWithoutAWarning() throws {
        let folder = TempFolder()
        let page = try Self.written(["help", "--man"], to: "pushdeck.1", in: folder)
        let groff = try Self.run(["groff", "-man", "-ww", "-z", page])
        #expect(groff.status == 0)
        #expect(groff.stderr.isEmpty, "groff: \(groff.stderr)")
        let man = try Self.run(["man", "--warnings", "-l", page], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(man.status == 0)
        #expect(man.stderr.isEmpty, "man: \(man.stderr)")
        // Every command and option of the table is in it (man prints a real minus as -).
        for command in CommandTable.commands {
            #expect(man.stdout.contains("pushdeck \(command.shownName)"), "the man page misses \(command.name)")
            for option in command.options {
                #expect(man.stdout.contains(option.name), "the man page misses \(command.name) \(option.name)")
            }
        }
        for key in CommandTable.settings.keys {
            #expect(man.stdout.contains(key), "the man page's FILES misses \(key)")
        }
        #expect(man.stdout.contains("PUSHDECK_SOCKET") && man.stdout.contains("config.json") && man.stdout.contains("EXIT STATUS"))
    }

    @Test func roffEscapesWhatWouldBeARequestOrAnUnknownGlyph() {
        #expect(ManPage.escape(".start") == "\\&.start")
        #expect(ManPage.escape("'quote") == "\\&'quote")
        #expect(ManPage.escape("a\\b --c") == "a\\eb \\-\\-c")
        #expect(ManPage.escape("x — y…") == "x \\(em y...")
        #expect(ManPage.escape("訂") == "\\[u8A02]")
    }

    // MARK: - Completions

    @Test(arguments: ["bash", "zsh", "fish"])
    func eachScriptParsesInItsShell(shell: String) throws {
        let folder = TempFolder()
        let script = try Self.written(["completions", shell], to: "pushdeck.\(shell)", in: folder)
        let parsed = try Self.run([shell, "-n", script])
        #expect(parsed.status == 0, "\(shell) -n: \(parsed.stderr)")
        #expect(parsed.stderr.isEmpty, "\(shell) -n: \(parsed.stderr)")
    }

    /// bash: what `_pushdeck` puts in COMPREPLY for a command line (the last word is completed).
    static func bashCompletes(_ script: String, _ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try run(["bash", "-c", "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _pushdeck; printf '%s\\n' \"${COMPREPLY[@]}\""])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// fish: the candidates `complete -C` lists for a command line, without their descriptions.
    static func fishCompletes(_ script: String, _ line: String) throws -> [String] {
        let result = try run(["fish", "--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    @Test func bashCompletesCommandsOptionsAndTheirValuesFromTheTable() throws {
        let folder = TempFolder()
        let script = try Self.written(["completions", "bash"], to: "pushdeck.bash", in: folder)
        #expect(try Self.bashCompletes(script, ["pushdeck", ""]) == CommandTable.commands.map(\.name))
        #expect(try Self.bashCompletes(script, ["pushdeck", "se"]) == ["serve", "send"])
        for command in CommandTable.commands {
            let expected = command.options.map(\.name) + CommandTable.global.map(\.name)
            #expect(try Self.bashCompletes(script, ["pushdeck", command.name, "--"]) == expected, "\(command.name)")
        }
        #expect(try Self.bashCompletes(script, ["pushdeck", "send", "--channel", ""]) == ["apns", "transparent"])
        #expect(try Self.bashCompletes(script, ["pushdeck", "--socket", "/x", "mo"]) == ["mode"])
        #expect(try Self.bashCompletes(script, ["pushdeck", "device", ""]) == CommandTable.device.words)
        #expect(try Self.bashCompletes(script, ["pushdeck", "serve", "--devices", "s"]) == ["strict"])
    }

    /// zsh: sourced after compinit, the script registers `_pushdeck` for pushdeck, and its
    /// command list is the table's.
    @Test func zshRegistersItsCompletionForPushdeck() throws {
        let folder = TempFolder()
        let script = try Self.written(["completions", "zsh"], to: "_pushdeck", in: folder)
        let result = try Self.run([
            "zsh", "-f", "-c", "autoload -U compinit && compinit -D && source '\(script)' && print -r -- $_comps[pushdeck] && functions _pushdeck",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("_pushdeck\n"))
        for command in CommandTable.commands {
            #expect(result.stdout.contains("'\(command.name):"), "zsh's command list misses \(command.name)")
        }
    }

    @Test func fishCompletesCommandsOptionsAndTheirValuesFromTheTable() throws {
        let folder = TempFolder()
        let script = try Self.written(["completions", "fish"], to: "pushdeck.fish", in: folder)
        #expect(Set(try Self.fishCompletes(script, "pushdeck ")) == Set(CommandTable.commands.map(\.name)))
        for command in CommandTable.commands {
            let expected = Set(command.options.map(\.name) + CommandTable.global.map(\.name))
            #expect(Set(try Self.fishCompletes(script, "pushdeck \(command.name) --")) == expected, "\(command.name)")
        }
        // fish sorts the candidates.
        #expect(Set(try Self.fishCompletes(script, "pushdeck send --channel ")) == ["apns", "transparent"])
        #expect(Set(try Self.fishCompletes(script, "pushdeck mode ")) == ["on", "off"])
    }
}
