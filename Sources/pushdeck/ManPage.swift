import Foundation

/// `pushdeck help --man`: the manual page, in roff (man(7) macros), written from `CommandTable`.
///
/// Everything from the table goes through `escape`, so text can hold backslashes, dashes,
/// leading dots and non-ASCII characters and `groff -man -ww` still renders it without a warning.
enum ManPage {
    static func roff(version: String) -> String {
        var lines: [String] = [
            #".\" Written by `pushdeck help --man` from the command table; do not edit."#,
            // No hyphenation (an.tmac re-applies HY at each paragraph): option names and paths must not be split.
            ".nr HY 0",
            ".TH PUSHDECK 1 \"\" \"\(escape("pushdeck " + version))\" \"User Commands\"",
            ".ad l",
            ".nh",
            ".SH NAME",
            #"pushdeck \- a terminal notification center for mobile push payloads"#,
            ".SH SYNOPSIS",
        ]
        for command in CommandTable.commands {
            lines += synopsis(command)
        }
        lines += [
            ".SH DESCRIPTION",
            escape("""
                pushdeck takes push payloads (APNs .apns files, Getui pass-through messages, JPush \
                messages) on a local Unix socket, keeps them in SQLite and shows them in a \
                full-screen terminal UI: a live message list, a banner that slides down from the \
                top, unread and badge counts, an on/off push mode and a simulated app state. \
                The client commands talk to the running pushdeck over the same socket, so \
                everything the UI can do can be scripted. With --gateway it also answers the \
                push providers' own HTTP APIs (APNs, JPush, Getui).
                """),
            ".SH COMMANDS",
        ]
        for command in CommandTable.commands {
            lines.append(".SS \(quoted("pushdeck " + command.shownName))")
            lines += synopsis(command)
            lines += paragraphs(command.description)
            for option in command.options {
                lines += item(option)
            }
        }
        lines.append(".SH OPTIONS")
        lines.append(escape("These go with every command:"))
        for option in CommandTable.global {
            lines += item(option)
        }
        lines += environment()
        lines += files()
        lines += [
            ".SH EXIT STATUS",
            ".TP", "0", escape("done"),
            ".TP", "1", escape("the server said no (the reason on standard error), or an expectation did not hold"),
            ".TP", "2", escape("bad usage, a bad config file, or a file that cannot be played; nothing was started"),
            ".TP", "3", escape("no server at the socket (the message names the path it tried and how to start one)"),
            ".SH SEE ALSO",
            escape("README.md of the pushdeck repository; 'pushdeck COMMAND --help'."),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    /// A command's usage as a `.SY` block: the lines filled with a hanging indent.
    private static func synopsis(_ command: CommandSpec) -> [String] {
        let rest = command.synopsis.filter { !$0.isEmpty }.joined(separator: " ")
        return [".SY \(quoted("pushdeck " + command.shownName))"] + (rest.isEmpty ? [] : [escape(rest)]) + [".YS"]
    }

    /// An option as a tagged paragraph: `--name ARG` in bold and italics, then what it does.
    private static func item(_ option: OptionSpec) -> [String] {
        var tag = "\\fB\(escape(option.name))\\fR"
        switch option.argument {
        case .none: break
        case .required(let value): tag += " \\fI\(escape(value))\\fR"
        case .optional(let value): tag += " [\\fI\(escape(value))\\fR]"
        }
        return [".TP", tag, escape(option.help + Help.annotation(option))]
    }

    /// The environment variables the table reads, then those pushdeck reads for its folders.
    private static func environment() -> [String] {
        var lines = [".SH ENVIRONMENT"]
        var readers: [(variable: String, options: [String])] = []
        for command in CommandTable.commands {
            for option in command.options {
                guard let variable = option.environment else { continue }
                if let index = readers.firstIndex(where: { $0.variable == variable }) {
                    if !readers[index].options.contains(option.name) { readers[index].options.append(option.name) }
                } else {
                    readers.append((variable, [option.name]))
                }
            }
        }
        for (variable, options) in readers {
            lines += [".TP", "\\fB\(escape(variable))\\fR", escape("what \(options.joined(separator: ", ")) is when not given (an empty value is none)")]
        }
        let folders = [
            ("XDG_CONFIG_HOME", "the config file's folder is $XDG_CONFIG_HOME/pushdeck (else ~/.config/pushdeck)"),
            ("XDG_RUNTIME_DIR", "the default socket's folder is $XDG_RUNTIME_DIR/pushdeck (else /tmp/pushdeck-$UID)"),
            ("XDG_DATA_HOME", "the default inbox and the gateway's local CA are under $XDG_DATA_HOME/pushdeck (else ~/.local/share/pushdeck)"),
            ("PUSHDECK_RESOURCES", "where 'pushdeck demo' finds Resources/scenarios/demo.json"),
        ]
        for (variable, meaning) in folders {
            lines += [".TP", "\\fB\(escape(variable))\\fR", escape(meaning + "; a relative path is ignored, as the XDG spec says")]
        }
        return lines
    }

    /// The config file and every key it takes.
    private static func files() -> [String] {
        var lines = [
            ".SH FILES",
            ".TP", "\\fI\(escape("$XDG_CONFIG_HOME/pushdeck/config.json"))\\fR",
            escape("""
                Defaults for options, as one JSON object (else ~/.config/pushdeck/config.json; --config FILE \
                reads another). A key is an option's name without the dashes, with _ for -. \
                Flags win over environment variables, which win over the file, which wins over the \
                defaults. A value that is not accepted, an unknown key, a key set twice or a file \
                that is not JSON is an error naming the file, its line and the key (exit 2, \
                nothing started). For example: {"banner_seconds": 8, "gateway": "127.0.0.1:2197", \
                "devices": "strict"}. The keys:
                """),
        ]
        for (key, setting) in CommandTable.settings.sorted(by: { $0.key < $1.key }) {
            let users = CommandTable.commands.filter { $0.options.contains { $0.configKey == key && $0.setting != nil } }.map(\.name)
            let option = CommandTable.commands.flatMap(\.options).first { $0.configKey == key && $0.setting != nil }
            lines += [
                ".TP", "\\fB\(escape(key))\\fR",
                escape("\(setting.phrase): \(option?.name ?? key) of " + (users.count > 8 ? "every command that has it" : users.joined(separator: ", "))),
            ]
        }
        return lines
    }

    // MARK: - Text

    /// Paragraphs (separated by blank lines) as `.PP` blocks; lines inside one are filled.
    private static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").flatMap { paragraph -> [String] in
            [".PP"] + paragraph.split(separator: "\n").map { escape($0.drop { $0 == " " }) }
        }
    }

    /// Characters the table's text uses, as glyphs every groff output device has (a `\[uXXXX]`
    /// one may be missing on a terminal: "can't find special character").
    private static let glyphs: [Unicode.Scalar: String] = [
        "—": "\\(em", "↑": "\\(ua", "↓": "\\(da", "⏎": "Enter", "×": "\\(mu", "…": "...",
    ]

    private static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }

    /// Text made safe for roff: `\` as `\e`, `-` as `\-` (a real minus, so options copy and
    /// search right), anything outside ASCII as `\[uXXXX]`, and `\&` before a leading `.` or `'`
    /// (which would start a request).
    static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where glyphs[scalar] != nil:
                out += glyphs[scalar] ?? ""
            case _ where scalar.value >= 0x80:
                out += "\\[u" + String(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)) + "]"
            case _ where scalar.value < 0x20 && scalar != "\n":
                break
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
