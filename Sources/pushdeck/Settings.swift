/// The layers under the command line: an option the command line does not give is taken from
/// its environment variable, else from the config file, else the command uses its default.
/// Flags > environment > file > defaults; `Arguments` asks `resolve` for each option it reads.
struct Settings: Sendable {
    /// What a layer says about an option.
    enum Given: Sendable, Equatable {
        /// A value: `--app shop`, `PUSHDECK_SOCKET=/x`, `"banner_seconds": 8`.
        case value(String)
        /// Present without a value: a flag that is set (`NO_COLOR=1`), `--gateway` alone.
        case bare
    }

    /// Where a value came from.
    enum Source: Sendable, Equatable {
        case commandLine
        case environment(String)
        case file(path: String, line: Int)
    }

    var environment: [String: String] = [:]
    var file: ConfigFile?

    /// The command line's word when there is one, else the environment's (an empty variable is
    /// no value, as for `PUSHDECK_SOCKET` always), else the config file's; nil leaves the
    /// command's own default.
    func resolve(_ option: OptionSpec, commandLine: Given?) -> (given: Given, source: Source)? {
        if let commandLine { return (commandLine, .commandLine) }
        if let variable = option.environment, let text = environment[variable], !text.isEmpty {
            return (option.argument == .none ? .bare : .value(text), .environment(variable))
        }
        if option.setting != nil, let file, let entry = file.values[option.configKey] {
            return (entry.given, .file(path: file.path, line: entry.line))
        }
        return nil
    }
}
