/// What a cell is for; the theme decides what colours that means on a given terminal.
public enum ColorRole: String, Sendable, Equatable, Hashable, CaseIterable {
    case normal
    case header
    case unreadMarker
    case bannerBackground
    case dim
    case selection
    case warning
}

/// How a cell is drawn: its colour role and attributes.
public struct Style: Sendable, Equatable, Hashable {
    public var role: ColorRole
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(_ role: ColorRole = .normal, bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()

    /// The same style with bold on.
    public var bolded: Style {
        var copy = self
        copy.bold = true
        return copy
    }
}
