/// One column of the screen: a grapheme, or the right half of a wide grapheme to its left.
public struct Cell: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case grapheme(Character)
        /// The second column of a wide grapheme; the terminal draws nothing here.
        case continuation
    }

    public var content: Content
    public var style: Style

    public init(_ content: Content = .grapheme(" "), style: Style = .plain) {
        self.content = content
        self.style = style
    }

    public static let blank = Cell()

    public var isContinuation: Bool { content == .continuation }

    /// The grapheme, nil for a continuation.
    public var character: Character? {
        if case .grapheme(let character) = content { character } else { nil }
    }
}
