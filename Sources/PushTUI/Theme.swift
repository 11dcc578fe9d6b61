/// The eight ANSI colours, plus the terminal's own default.
public enum TerminalColor: Int, Sendable, Equatable {
    case terminalDefault = -1
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a terminal shows each colour role: a colour pair and extra attributes.
public struct Theme: Sendable, Equatable {
    /// What one role looks like.
    public struct Look: Sendable, Equatable {
        public var foreground: TerminalColor
        public var background: TerminalColor
        public var bold: Bool
        public var reverse: Bool

        public init(foreground: TerminalColor = .terminalDefault, background: TerminalColor = .terminalDefault,
                    bold: Bool = false, reverse: Bool = false) {
            self.foreground = foreground
            self.background = background
            self.bold = bold
            self.reverse = reverse
        }
    }

    /// False for `monochrome`: the backend then uses no colour pairs at all.
    public var usesColor: Bool
    public var looks: [ColorRole: Look]

    public init(usesColor: Bool, looks: [ColorRole: Look]) {
        self.usesColor = usesColor
        self.looks = looks
    }

    public func look(for role: ColorRole) -> Look { looks[role] ?? Look() }

    /// Colours for terminals that have them.
    public static let standard = Theme(usesColor: true, looks: [
        .normal: Look(),
        .header: Look(foreground: .black, background: .cyan, bold: true),
        .unreadMarker: Look(foreground: .cyan, bold: true),
        .bannerBackground: Look(foreground: .white, background: .blue),
        .dim: Look(foreground: .terminalDefault),
        .selection: Look(foreground: .black, background: .white),
        .warning: Look(foreground: .yellow, bold: true),
    ])

    /// No colour (`NO_COLOR`, or a terminal without colours): roles show by attributes alone.
    public static let monochrome = Theme(usesColor: false, looks: [
        .header: Look(bold: true, reverse: true),
        .unreadMarker: Look(bold: true),
        .bannerBackground: Look(reverse: true),
        .selection: Look(reverse: true),
        .warning: Look(bold: true),
    ])
}
