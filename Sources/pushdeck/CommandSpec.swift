/// One command of the command line as `CommandTable` describes it: what the parser accepts, and
/// what `--help`, the man page and the shell completions say about it.
struct CommandSpec: Sendable {
    /// The word that names it (`send`); `ui` is also what runs with no command word.
    var name: String
    /// How the usage line shows the name (`[ui]` for the default command).
    var shownName: String
    /// The usage lines after the name, one per line as `--help` prints them.
    var synopsis: [String]
    /// One line for the overview of commands and the completions' descriptions.
    var summary: String
    /// What it does, as paragraphs of text (a blank line between paragraphs).
    var description: String
    var options: [OptionSpec]
    /// The words that may follow the command (actions, choices), offered by the completions.
    var words: [String] = []
    /// Whether a positional argument is a file (completions offer file names).
    var takesFiles = false

    init(
        _ name: String, shownName: String? = nil, synopsis: [String], summary: String, description: String,
        options: [OptionSpec], words: [String] = [], takesFiles: Bool = false
    ) {
        self.name = name
        self.shownName = shownName ?? name
        self.synopsis = synopsis
        self.summary = summary
        self.description = description
        self.options = options
        self.words = words
        self.takesFiles = takesFiles
    }

    /// The option named `name` (`--app`), if the command takes it.
    func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}
