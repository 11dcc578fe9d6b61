import Foundation
import PushJSON

/// `$XDG_CONFIG_HOME/pushdeck/config.json` (else `~/.config/pushdeck/config.json`, or
/// `--config PATH`): defaults for the options `CommandTable` marks as settings, one JSON object
/// whose keys are those options' names without the dashes (`"banner_seconds": 8`).
///
/// Everything in it is checked when it is read, before any command starts: a value that is not
/// accepted, a key no option has, a key given twice or a file that is not JSON is an error that
/// names the file, the line and the key (exit 2).
struct ConfigFile: Sendable, Equatable {
    /// One setting and the line it is on.
    struct Entry: Sendable, Equatable {
        var given: Settings.Given
        var line: Int
    }

    var path: String
    /// By config key; a key set to `false` (a flag or the gateway off) is left out.
    var values: [String: Entry]

    /// Where the file is looked for when `--config` does not say: `$XDG_CONFIG_HOME` when it is an
    /// absolute path (the XDG spec ignores a relative one), else `~/.config`.
    static func defaultPath(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/pushdeck/config.json" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/.config/pushdeck/config.json"
    }

    /// The file `--config` names (which must exist), else the default one if it exists.
    static func load(flag: String?, environment: [String: String]) throws(ConfigError) -> ConfigFile? {
        let path = flag ?? defaultPath(environment: environment)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            if flag == nil { return nil }
            throw ConfigError(path: path, line: nil, message: "no such file (--config names the config file to read)")
        }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: path, line: nil, message: "cannot read it (\(isFolder.boolValue ? "a folder" : "not readable"))")
        }
        return try parse(Array(data), path: path)
    }

    /// Checks and reads a config file's bytes against the table's settings.
    static func parse(_ bytes: [UInt8], path: String, settings: [String: SettingValue] = CommandTable.settings) throws(ConfigError) -> ConfigFile {
        let tape: JSONTape
        do {
            tape = try JSONTape.parse(bytes)
        } catch {
            throw ConfigError(path: path, line: error.line(in: bytes), message: "not valid JSON: \(error.message)")
        }
        let root = tape.root
        guard root.kind == .object else {
            throw ConfigError(path: path, line: root.line, message: "the config file is one JSON object, like {\"banner_seconds\": 8}; this is \(root.kindName)")
        }
        var values: [String: Entry] = [:]
        var seen: [String: Int] = [:]
        for member in root.members {
            guard let setting = settings[member.name] else {
                let accepted = settings.keys.sorted().joined(separator: ", ")
                throw ConfigError(path: path, line: member.line, message: "unknown key \"\(member.name)\"; accepted keys: \(accepted)")
            }
            if let first = seen[member.name] {
                throw ConfigError(path: path, line: member.line, message: "\"\(member.name)\" is set twice (first on line \(first))")
            }
            seen[member.name] = member.line
            guard let given = setting.given(fromFile: member.value.json) else {
                throw ConfigError(path: path, line: member.line, message: "\"\(member.name)\" must be \(setting.phrase)")
            }
            if let given { values[member.name] = Entry(given: given, line: member.line) }
        }
        return ConfigFile(path: path, values: values)
    }
}

/// A config file that cannot be used: `FILE:LINE: what is wrong` (exit 2, nothing started).
struct ConfigError: Error, Equatable, CustomStringConvertible {
    var path: String
    var line: Int?
    var message: String

    var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
