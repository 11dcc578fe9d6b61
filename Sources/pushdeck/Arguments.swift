/// A command's arguments, taken one kind at a time: flags, options, then positionals. Whatever is
/// left unclaimed at the end is a usage error, so a typo is never silently ignored.
struct Arguments {
    private var tokens: [String]
    let command: String

    init(command: String, _ tokens: [String]) {
        self.command = command
        self.tokens = tokens
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
        var found = false
        tokens.removeAll { token in
            let hit = names.contains(token)
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
        return values
    }

    /// Removes `--name [VALUE]` (or `--name=VALUE`): nil when absent, `bare` when given without a
    /// value (the next token is taken as its value only when it does not start with `-`).
    mutating func optionalValue(_ name: String, bare: String) -> String? {
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
        return value
    }

    /// Removes `--name` with its value when the next token is one of `values` (or `--name=VALUE`):
    /// nil when absent, `.some(nil)` when given alone.
    mutating func optionalValue(_ name: String, values: [String]) throws(UsageError) -> String?? {
        guard let index = tokens.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else { return nil }
        let token = tokens.remove(at: index)
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
        var rest = tokens
        tokens = []
        if let dashes = rest.firstIndex(of: "--") {
            let unknown = rest[..<dashes].first { $0.hasPrefix("-") && $0 != "-" }
            if let unknown { throw UsageError("unknown option \(unknown)", command: command) }
            rest.remove(at: dashes)
            return rest
        }
        if let unknown = rest.first(where: { $0.hasPrefix("-") && $0 != "-" && Int($0) == nil }) {
            throw UsageError("unknown option \(unknown)", command: command)
        }
        return rest
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
    var description: String {
        "pushdeck \(command): \(message)\nRun 'pushdeck \(command) --help' for usage."
    }
}
