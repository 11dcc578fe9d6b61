/// A command's arguments, taken one kind at a time: flags, options, then positionals. Whatever is
/// left unclaimed at the end is a usage error, so a typo is never silently ignored.
///
/// It reads `CommandTable`: every option a command asks for is looked up in the command's
/// `CommandSpec`, and an option the command line does not give is taken from the next layer
/// down — its environment variable, then the config file (`Settings`). What a command asks for
/// is written down (`asked`), so a test can hold the parser against the table.
struct Arguments {
    private var tokens: [String]
    let command: String
    let spec: CommandSpec
    /// The environment and the config file, below the command line.
    var settings: Settings
    /// Every option the command asked for, with how it read it (checked against the table).
    private(set) var asked: [String: OptionSpec.Argument] = [:]
    /// The options the command line itself gave (not the environment or the config file).
    private(set) var onCommandLine: Set<String> = []
    /// Set by `probing`: stop at the end of the options (see `probing(_:)`).
    private let probe: Bool
    /// Whether a probe got to the end of the options.
    private(set) var reachedEnd = false

    init(_ spec: CommandSpec, _ tokens: [String], settings: Settings = Settings()) {
        self.spec = spec
        self.command = spec.name
        self.tokens = tokens
        self.settings = settings
        self.probe = false
    }

    private init(probing spec: CommandSpec) {
        self.spec = spec
        self.command = spec.name
        self.tokens = []
        self.settings = Settings()
        self.probe = true
    }

    /// Arguments that let a command read its options and then stop with `UsageError.probe`
    /// instead of acting: what a test uses to see which options a command's parser reads.
    static func probing(_ spec: CommandSpec) -> Arguments { Arguments(probing: spec) }

    /// Notes that the command asked for `name`, read as `argument`.
    private mutating func ask(_ name: String, as argument: OptionSpec.Argument) {
        asked[name] = argument
    }

    /// What the environment or the config file give for `name`, when the command takes it.
    private func fallback(_ name: String) -> Settings.Given? {
        guard let option = spec.option(name) else { return nil }
        return settings.resolve(option, commandLine: nil)?.given
    }

    /// Removes `-- COMMAND...` (everything after the first `--`) and returns it: a command that
    /// `expect` runs once it listens. Call it before reading flags, which would take its words.
    mutating func trailingCommand() -> [String] {
        guard let dashes = tokens.firstIndex(of: "--") else { return [] }
        let command = Array(tokens[(dashes + 1)...])
        tokens.removeSubrange(dashes...)
        return command
    }

    /// Removes `--name` and returns whether it was there.
    mutating func flag(_ names: String...) -> Bool {
        for name in names { ask(name, as: .none) }
        var found = names.contains { fallback($0) != nil }
        tokens.removeAll { token in
            let hit = names.contains(token)
            if hit { onCommandLine.insert(token) }
            found = found || hit
            return hit
        }
        return found
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns the last value given.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        try options(name).last
    }

    /// Removes every `--name VALUE` (repeatable options like `watch --topic`).
    mutating func options(_ name: String) throws(UsageError) -> [String] {
        ask(name, as: .required(""))
        var values: [String] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token == name {
                guard index + 1 < tokens.count else { throw UsageError("\(name) needs a value", command: command) }
                values.append(tokens[index + 1])
                tokens.removeSubrange(index...(index + 1))
            } else if token.hasPrefix(name + "=") {
                values.append(String(token.dropFirst(name.count + 1)))
                tokens.remove(at: index)
            } else if token == "--" {
                break
            } else {
                index += 1
            }
        }
        if !values.isEmpty { onCommandLine.insert(name) }
        if values.isEmpty, case .value(let value)? = fallback(name) { return [value] }
        return values
    }

    /// Removes `--name [VALUE]` (or `--name=VALUE`): nil when absent, `bare` when given without a
    /// value (the next token is taken as its value only when it does not start with `-`).
    mutating func optionalValue(_ name: String, bare: String) -> String? {
        ask(name, as: .optional(""))
        var value: String?
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token == name {
                if index + 1 < tokens.count, !tokens[index + 1].hasPrefix("-") {
                    value = tokens[index + 1]
                    tokens.removeSubrange(index...(index + 1))
                } else {
                    value = bare
                    tokens.remove(at: index)
                }
            } else if token.hasPrefix(name + "=") {
                value = String(token.dropFirst(name.count + 1))
                tokens.remove(at: index)
            } else if token == "--" {
                break
            } else {
                index += 1
            }
        }
        if value != nil { onCommandLine.insert(name) }
        switch value == nil ? fallback(name) : nil {
        case .value(let text)?: return text
        case .bare?: return bare
        case nil: return value
        }
    }

    /// Removes `--name` with its value when the next token is one of `values` (or `--name=VALUE`):
    /// nil when absent, `.some(nil)` when given alone.
    mutating func optionalValue(_ name: String, values: [String]) throws(UsageError) -> String?? {
        ask(name, as: .optional(""))
        guard let index = tokens.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else { return nil }
        let token = tokens.remove(at: index)
        onCommandLine.insert(name)
        if token.hasPrefix(name + "=") {
            let value = String(token.dropFirst(name.count + 1))
            guard values.contains(value) else {
                throw UsageError("\(name) takes \(values.joined(separator: " or ")), not '\(value)'", command: command)
            }
            return .some(value)
        }
        if index < tokens.count, values.contains(tokens[index]) { return .some(tokens.remove(at: index)) }
        return .some(nil)
    }

    /// An integer option, checked against a range.
    mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return value
    }

    /// What remains, which must not look like options.
    mutating func positionals() throws(UsageError) -> [String] {
        if probe {
            reachedEnd = true
            throw .probe(command: command)
        }
        var rest = tokens
        tokens = []
        if let dashes = rest.firstIndex(of: "--") {
            let unknown = rest[..<dashes].first { $0.hasPrefix("-") && $0 != "-" }
            if let unknown { throw unknownOption(unknown) }
            rest.remove(at: dashes)
            return rest
        }
        if let unknown = rest.first(where: { $0.hasPrefix("-") && $0 != "-" && Int($0) == nil }) {
            throw unknownOption(unknown)
        }
        return rest
    }

    /// "unknown option --x", with the options the command takes (from the table).
    private func unknownOption(_ token: String) -> UsageError {
        let known = spec.options.map(\.name).joined(separator: " ")
        return UsageError("unknown option \(token)" + (known.isEmpty ? "; \(command) takes no options" : "; \(command) takes \(known)"), command: command)
    }

    /// An option whose value the table checks (`OptionSpec.setting`): its text, refused with the
    /// table's words ("--devices takes open or strict, not 'x'") when it is not one.
    mutating func checkedOption(_ name: String) throws(UsageError) -> String? {
        guard let text = try option(name) else { return nil }
        if let setting = spec.option(name)?.setting, !setting.accepts(text) {
            throw UsageError("\(name) takes \(setting.phrase), not '\(text)'", command: command)
        }
        return text
    }

    /// Fails if anything was left unclaimed.
    mutating func finish() throws(UsageError) {
        let rest = try positionals()
        if let first = rest.first { throw UsageError("unexpected argument '\(first)'", command: command) }
    }
}

/// A command line that cannot be run as written (exit 2).
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var command: String
    init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    /// What a probing `Arguments` throws at the end of the options (never seen by a user).
    static func probe(command: String) -> UsageError { UsageError("(probe: the options are read)", command: command) }
    var description: String {
        "pushdeck \(command): \(message)\nRun 'pushdeck \(command) --help' for usage."
    }
}
