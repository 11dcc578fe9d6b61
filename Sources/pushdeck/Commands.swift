/// A command of the command line, as a type: what it is (`spec` — its name, summary, usage and
/// options, declared once in `CommandTable`) and what it does (`run`). The parser, `--help`, the
/// man page, the completions and the config file read the specs of `Commands.all`; the command
/// line runs the type whose name the first word is. Nothing dispatches on the word itself.
protocol PushdeckCommand {
    /// The command's declaration: name, usage lines, summary, description and options.
    static var spec: CommandSpec { get }
    /// The words the completions offer after the command (its `spec.words` unless it says so).
    static var words: [String] { get }
    /// Whether a bad config file stops it before it starts (all but help, which says how to
    /// write one, and completions).
    static var readsConfigFile: Bool { get }
    /// Runs the command on its arguments (its options not read yet); returns the exit code.
    static func run(_ arguments: inout Arguments) throws -> Int32
}

extension PushdeckCommand {
    static var name: String { spec.name }
    static var summary: String { spec.summary }
    static var options: [OptionSpec] { spec.options }
    static var words: [String] { spec.words }
    static var readsConfigFile: Bool { true }
}

/// The commands of `pushdeck`, one type each.
enum Commands {
    /// Every command, in the order help shows them. Adding a command is one line here (and its
    /// spec in `CommandTable`, its `run` below or beside its code).
    static var all: [any PushdeckCommand.Type] {
        [
            UI.self,
            Serve.self,
            Send.self,
            Badge.self,
            Mode.self,
            Mute.self,
            Unmute.self,
            Quiet.self,
            Read.self,
            Delete.self,
            List.self,
            App.self,
            Watch.self,
            Demo.self,
            Ping.self,
            Device.self,
            Activity.self,
            Channel.self,
            Requests.self,
            Fault.self,
            Key.self,
            Gateway.self,
            Bus.self,
            Clock.self,
            Reset.self,
            Expect.self,
            Play.self,
            Record.self,
            Help.self,
            Completions.self,
        ]
    }

    /// The command named `name`, if there is one.
    static func named(_ name: String) -> (any PushdeckCommand.Type)? { all.first { $0.spec.name == name } }

    enum UI: PushdeckCommand {
        static let spec = CommandTable.ui
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ServeCommand.ui(&arguments) }
    }

    enum Serve: PushdeckCommand {
        static let spec = CommandTable.serve
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ServeCommand.serve(&arguments) }
    }

    enum Send: PushdeckCommand {
        static let spec = CommandTable.send
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.send(&arguments) }
    }

    enum Badge: PushdeckCommand {
        static let spec = CommandTable.badge
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.badge(&arguments) }
    }

    enum Mode: PushdeckCommand {
        static let spec = CommandTable.mode
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.mode(&arguments) }
    }

    enum Mute: PushdeckCommand {
        static let spec = CommandTable.mute
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.mute(&arguments) }
    }

    enum Unmute: PushdeckCommand {
        static let spec = CommandTable.unmute
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.mute(&arguments) }
    }

    enum Quiet: PushdeckCommand {
        static let spec = CommandTable.quiet
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.quiet(&arguments) }
    }

    enum Read: PushdeckCommand {
        static let spec = CommandTable.read
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.read(&arguments) }
    }

    enum Delete: PushdeckCommand {
        static let spec = CommandTable.delete
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.delete(&arguments) }
    }

    enum List: PushdeckCommand {
        static let spec = CommandTable.list
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.list(&arguments) }
    }

    enum App: PushdeckCommand {
        static let spec = CommandTable.app
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.app(&arguments) }
    }

    enum Watch: PushdeckCommand {
        static let spec = CommandTable.watch
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.watch(&arguments) }
    }

    enum Demo: PushdeckCommand {
        static let spec = CommandTable.demo
        static func run(_ arguments: inout Arguments) throws -> Int32 { try DemoCommand.run(&arguments) }
    }

    enum Ping: PushdeckCommand {
        static let spec = CommandTable.ping
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.ping(&arguments) }
    }

    enum Device: PushdeckCommand {
        static let spec = CommandTable.device
        static func run(_ arguments: inout Arguments) throws -> Int32 { try DeviceCommands.device(&arguments) }
    }

    enum Activity: PushdeckCommand {
        static let spec = CommandTable.activity
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ActivityCommands.run(&arguments) }
    }

    enum Channel: PushdeckCommand {
        static let spec = CommandTable.channel
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ActivityCommands.channel(&arguments) }
    }

    enum Requests: PushdeckCommand {
        static let spec = CommandTable.requests
        static func run(_ arguments: inout Arguments) throws -> Int32 { try RequestCommands.run(&arguments) }
    }

    enum Fault: PushdeckCommand {
        static let spec = CommandTable.fault
        static func run(_ arguments: inout Arguments) throws -> Int32 { try FaultCommands.run(&arguments) }
    }

    enum Key: PushdeckCommand {
        static let spec = CommandTable.key
        static func run(_ arguments: inout Arguments) throws -> Int32 { try DeviceCommands.key(&arguments) }
    }

    enum Gateway: PushdeckCommand {
        static let spec = CommandTable.gateway
        static func run(_ arguments: inout Arguments) throws -> Int32 { try GatewayCommand.run(&arguments) }
    }

    enum Clock: PushdeckCommand {
        static let spec = CommandTable.clock
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.clock(&arguments) }
    }

    enum Bus: PushdeckCommand {
        static let spec = CommandTable.bus
        static func run(_ arguments: inout Arguments) throws -> Int32 { try ClientCommands.bus(&arguments) }
    }

    enum Reset: PushdeckCommand {
        static let spec = CommandTable.reset
        static func run(_ arguments: inout Arguments) throws -> Int32 { try VerdictCommands.reset(&arguments) }
    }

    enum Expect: PushdeckCommand {
        static let spec = CommandTable.expect
        static func run(_ arguments: inout Arguments) throws -> Int32 { try VerdictCommands.expect(&arguments) }
    }

    enum Play: PushdeckCommand {
        static let spec = CommandTable.play
        static func run(_ arguments: inout Arguments) throws -> Int32 { try PlayCommand.run(&arguments) }
    }

    enum Record: PushdeckCommand {
        static let spec = CommandTable.record
        static func run(_ arguments: inout Arguments) throws -> Int32 { try RecordCommand.run(&arguments) }
    }

    enum Help: PushdeckCommand {
        static let spec = CommandTable.help
        /// `help COMMAND` completes the command words, known only once the list is.
        static var words: [String] { CommandTable.commandNames }
        static var readsConfigFile: Bool { false }
        static func run(_ arguments: inout Arguments) throws -> Int32 { try Pushdeck.helpCommand(&arguments) }
    }

    enum Completions: PushdeckCommand {
        static let spec = CommandTable.completions
        static var readsConfigFile: Bool { false }
        static func run(_ arguments: inout Arguments) throws -> Int32 { try Pushdeck.completionsCommand(&arguments) }
    }
}
