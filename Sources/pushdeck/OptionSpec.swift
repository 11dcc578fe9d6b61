import Foundation

/// One option of one command: its name, its argument, what it means, where else its value may
/// come from (an environment variable, the config file) and what it is when none says.
struct OptionSpec: Sendable, Equatable {
    /// How the option takes its value.
    enum Argument: Sendable, Equatable {
        /// A flag: `--memory`.
        case none
        /// A value that must follow: `--app BUNDLE`.
        case required(String)
        /// A value that may follow: `--gateway [HOST:PORT]`.
        case optional(String)

        /// How a value is taken, without the placeholder's name: "a flag", "a value", "an optional value".
        var shape: String {
            switch self {
            case .none: "a flag"
            case .required: "a value"
            case .optional: "an optional value"
            }
        }

        var placeholder: String? {
            switch self {
            case .none: nil
            case .required(let name), .optional(let name): name
            }
        }
    }

    /// What a shell offers as the option's value.
    enum Completion: Sendable, Equatable {
        case nothing
        case files
        case words([String])
    }

    var name: String
    var argument: Argument
    var help: String
    var completion: Completion = .nothing
    /// Given more than once, every value counts (`watch --topic`).
    var repeatable = false
    /// The value when nothing gives one, as the help shows it.
    var defaultValue: String?
    /// The environment variable read when the flag is not given.
    var environment: String?
    /// What the config file may hold for it (nil: not settable there); the key is `configKey`.
    var setting: SettingValue?

    init(
        _ name: String, _ argument: Argument = .none, _ help: String, completion: Completion = .nothing,
        repeatable: Bool = false, defaultValue: String? = nil, environment: String? = nil, setting: SettingValue? = nil
    ) {
        self.name = name
        self.argument = argument
        self.help = help
        self.completion = completion
        self.repeatable = repeatable
        self.defaultValue = defaultValue
        self.environment = environment
        self.setting = setting
    }

    /// A flag: `--memory`.
    init(_ name: String, _ help: String, environment: String? = nil, setting: SettingValue? = nil) {
        self.init(name, .none, help, environment: environment, setting: setting)
    }

    /// The option's key in the config file: its name without the dashes, `-` as `_`
    /// (`--banner-seconds` → `banner_seconds`). One rule, so the key is never spelled twice.
    var configKey: String {
        String(name.drop { $0 == "-" }).replacingOccurrences(of: "-", with: "_")
    }

    /// `--app BUNDLE`, `--gateway [HOST:PORT]`, `--memory`.
    var shown: String {
        switch argument {
        case .none: name
        case .required(let value): "\(name) \(value)"
        case .optional(let value): "\(name) [\(value)]"
        }
    }
}
