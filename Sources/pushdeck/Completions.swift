import Foundation

/// `pushdeck completions bash|zsh|fish`: shell completion scripts written from `CommandTable` —
/// the command words, each command's options (and their values where the table lists them or
/// they are files) and the words that may follow a command.
enum Completions {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// The options a command line gets with no command word: the `ui` ones, and the global ones.
    private static var defaultCommand: CommandSpec { CommandTable.ui }

    /// A short description for a menu: the help up to its first clause, at most 70 characters.
    static func short(_ text: String) -> String {
        var cut = text
        for stop in ["; ", " (", ": "] {
            if let range = cut.range(of: stop) { cut = String(cut[..<range.lowerBound]) }
        }
        return cut.count > 70 ? String(cut.prefix(69)) + "…" : cut
    }

    // MARK: - bash

    private static func bash() -> String {
        let valued = Set((CommandTable.commands.flatMap(\.options) + CommandTable.global)
            .filter { if case .required = $0.argument { true } else { false } }.map(\.name)).sorted()
        let globals = CommandTable.global.map(\.name) + ["-h"]
        var lines = [
            "# bash completion for pushdeck, written by `pushdeck completions bash`.",
            "# Use: source <(pushdeck completions bash)   (e.g. in ~/.bashrc)",
            "_pushdeck() {",
            "    local cur prev command words options files i",
            "    cur=${COMP_WORDS[COMP_CWORD]}",
            "    prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    command=",
            "    for (( i = 1; i < COMP_CWORD; i++ )); do",
            "        case ${COMP_WORDS[i]} in",
            "            \(valued.joined(separator: "|"))) (( i++ )) ;;",
            "            -*) ;;",
            "            *) command=${COMP_WORDS[i]}; break ;;",
            "        esac",
            "    done",
            "    files=",
            "    case $command in",
        ]
        for command in [nil] + CommandTable.commands {
            let spec = command ?? defaultCommand
            let options = spec.options + CommandTable.global
            lines.append("        \(command.map { bashWord($0.name) } ?? "''"))")
            lines.append("            case $prev in")
            for option in options {
                switch (option.argument, option.completion) {
                case (.none, _), (.optional, _): continue
                case (.required, .files):
                    lines.append("                \(option.name)) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return 0 ;;")
                case (.required, .words(let words)):
                    lines.append("                \(option.name)) COMPREPLY=($(compgen -W \(bashQuoted(words.joined(separator: " "))) -- \"$cur\")); return 0 ;;")
                case (.required, .nothing):
                    lines.append("                \(option.name)) COMPREPLY=(); return 0 ;;")
                }
            }
            lines.append("            esac")
            lines.append("            options=\(bashQuoted((options.map(\.name) + (command == nil ? ["-h"] : [])).joined(separator: " ")))")
            let words = command == nil ? CommandTable.commands.map(\.name) : spec.words
            lines.append("            words=\(bashQuoted(words.joined(separator: " ")))")
            if spec.takesFiles { lines.append("            files=1") }
            lines.append("            ;;")
        }
        lines += [
            "        *) options=\(bashQuoted(globals.joined(separator: " "))); words= ;;",
            "    esac",
            "    if [[ $cur == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
            "        if [[ -n $files ]]; then",
            "            compopt -o filenames 2>/dev/null",
            "            mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\")",
            "        fi",
            "    fi",
            "    return 0",
            "}",
            "complete -F _pushdeck pushdeck",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func bashWord(_ word: String) -> String { word }

    private static func bashQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: - zsh

    private static func zsh() -> String {
        var lines = [
            "#compdef pushdeck",
            "# zsh completion for pushdeck, written by `pushdeck completions zsh`.",
            "# Use: source <(pushdeck completions zsh) after compinit (e.g. in ~/.zshrc), or save it",
            "# as _pushdeck in a folder of $fpath.",
            "_pushdeck() {",
            "    local curcontext=\"$curcontext\" state line",
            "    typeset -A opt_args",
            "    local -a commands",
            "    commands=(",
        ]
        for command in CommandTable.commands {
            lines.append("        \(shellQuoted(command.name + ":" + command.summary))")
        }
        lines += ["    )", "    _arguments -C \\"]
        for option in CommandTable.global + defaultCommand.options {
            lines.append("        \(zshSpec(option)) \\")
        }
        lines += [
            "        '1: :->command' \\",
            "        '*:: :->argument'",
            "    case $state in",
            "        command) _describe -t commands 'pushdeck command' commands ;;",
            "        argument)",
            "            case $line[1] in",
        ]
        for command in CommandTable.commands {
            var specs = command.options.map(zshSpec)
            if !command.words.isEmpty {
                specs.append(shellQuoted("*:word:(\(command.words.joined(separator: " ")))"))
            }
            if command.takesFiles { specs.append("'*:file:_files'") }
            lines.append("                \(command.name)) _arguments \(specs.isEmpty ? "''" : specs.joined(separator: " ")) ;;")
        }
        lines += [
            "            esac",
            "            ;;",
            "    esac",
            "}",
            "if [ \"$funcstack[1]\" = \"_pushdeck\" ]; then",
            "    _pushdeck \"$@\"",
            "else",
            "    compdef _pushdeck pushdeck",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// An `_arguments` spec: `--name[what]:ARG:action` (`::` when the value is optional).
    private static func zshSpec(_ option: OptionSpec) -> String {
        let description = short(option.help).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        var spec = (option.repeatable ? "*" : "") + option.name + "[" + description + "]"
        let action: String
        switch option.completion {
        case .nothing: action = " "
        case .files: action = "_files"
        case .words(let words): action = "(" + words.joined(separator: " ") + ")"
        }
        switch option.argument {
        case .none: break
        case .required(let value): spec += ":" + zshMessage(value) + ":" + action
        case .optional(let value): spec += "::" + zshMessage(value) + ":" + action
        }
        return shellQuoted(spec)
    }

    private static func zshMessage(_ text: String) -> String {
        text.replacingOccurrences(of: ":", with: "\\:")
    }

    /// Single-quoted for sh-like shells (bash, zsh).
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: - fish

    private static func fish() -> String {
        var lines = [
            "# fish completion for pushdeck, written by `pushdeck completions fish`.",
            "# Use: pushdeck completions fish > ~/.config/fish/completions/pushdeck.fish",
            "complete -c pushdeck -f",
        ]
        for option in CommandTable.global {
            lines.append("complete -c pushdeck" + fishOption(option) + (option.name == "--help" ? " -s h" : ""))
        }
        let none = "__fish_use_subcommand"
        for command in CommandTable.commands {
            lines.append("complete -c pushdeck -n \(none) -a \(command.name) -d \(fishQuoted(command.summary))")
        }
        for command in CommandTable.commands {
            let condition = command.name == defaultCommand.name
                ? fishQuoted("\(none); or __fish_seen_subcommand_from \(command.name)")
                : fishQuoted("__fish_seen_subcommand_from \(command.name)")
            for option in command.options {
                lines.append("complete -c pushdeck -n \(condition)" + fishOption(option))
            }
            if !command.words.isEmpty {
                lines.append("complete -c pushdeck -n \(condition) -a \(fishQuoted(command.words.joined(separator: " ")))")
            }
            if command.takesFiles {
                lines.append("complete -c pushdeck -n \(condition) -F")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` -l name [-r -F | -x -a 'words' | -x] -d 'what'`.
    private static func fishOption(_ option: OptionSpec) -> String {
        var text = " -l " + option.name.dropFirst(2)
        if case .required = option.argument {
            switch option.completion {
            case .files: text += " -r -F"
            case .words(let words): text += " -x -a " + fishQuoted(words.joined(separator: " "))
            case .nothing: text += " -x"
            }
        }
        return text + " -d " + fishQuoted(short(option.help))
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
