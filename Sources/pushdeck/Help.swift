import Foundation

/// The `--help` text of every command, written from `CommandTable`.
enum Help {
    /// How wide help text is wrapped (an 80-column terminal, with a margin).
    static let width = 79

    /// `pushdeck --help` and `pushdeck help`: every command's usage.
    static var overview: String {
        var lines = ["pushdeck — a terminal notification center for mobile push payloads", "", "Usage:"]
        for command in CommandTable.commands {
            let lead = "  pushdeck " + command.shownName.padding(toLength: max(6, command.shownName.count), withPad: " ", startingAt: 0) + " "
            lines += usage(command, lead: lead, indent: String(repeating: " ", count: 18))
        }
        lines += [
            "",
            "Every client command takes --socket P (else $PUSHDECK_SOCKET, else",
            "$XDG_RUNTIME_DIR/pushdeck/pushdeck.sock, else /tmp/pushdeck-$UID/pushdeck.sock).",
            "Defaults for the options can be kept in $XDG_CONFIG_HOME/pushdeck/config.json",
            "(or --config FILE): see 'pushdeck help --man', section FILES.",
            "Exit codes: 0 done, 1 the server said no, 2 bad usage, 3 no server at the socket.",
            "Run 'pushdeck COMMAND --help' for one command; 'pushdeck completions bash|zsh|fish'",
            "prints a shell completion script.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `pushdeck COMMAND --help`.
    static func text(for command: CommandSpec) -> String {
        let lead = "pushdeck \(command.shownName) "
        var lines = usage(command, lead: lead, indent: String(repeating: " ", count: lead.count))
        lines += command.description.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
        if !command.options.isEmpty {
            lines += ["", "  Options:"]
            for option in command.options {
                lines += optionLines(option)
            }
        }
        lines += ["", "  Every command also takes " + CommandTable.global.map(\.shown).joined(separator: ", ") + "."]
        return lines.joined(separator: "\n")
    }

    /// The usage lines: the first after `lead`, the others after `indent`.
    private static func usage(_ command: CommandSpec, lead: String, indent: String) -> [String] {
        command.synopsis.enumerated().map { index, line in
            let text = (index == 0 ? lead : indent) + line
            return index == 0 && line.isEmpty ? String(text.dropLast()).trimmingTrailingSpaces : text
        }
    }

    /// One option: its name and argument, then what it does, wrapped beside it.
    static func optionLines(_ option: OptionSpec) -> [String] {
        let column = 28
        let head = "    " + option.shown
        let body = wrap(option.help + annotation(option), width: width - column)
        let pad = String(repeating: " ", count: column)
        guard head.count < column - 1 else {
            return [head] + body.map { pad + $0 }
        }
        return body.enumerated().map { index, line in
            (index == 0 ? head.padding(toLength: column, withPad: " ", startingAt: 0) : pad) + line
        }
    }

    /// " (default 5; environment NO_COLOR; config file "banner_seconds")", or nothing.
    static func annotation(_ option: OptionSpec) -> String {
        var notes: [String] = []
        if let value = option.defaultValue { notes.append("default \(value)") }
        if let variable = option.environment { notes.append("environment \(variable)") }
        if option.setting != nil { notes.append("config file \"\(option.configKey)\"") }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
    }

    /// Words filled into lines of at most `width` characters (a longer word gets a line alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
