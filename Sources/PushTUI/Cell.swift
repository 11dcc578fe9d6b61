/// One column of the screen: a grapheme, or the right half of a wide grapheme to its left.
public struct Cell: Sendable, Equatable {
    /// What a cell shows.
    ///
    /// Almost every grapheme on screen is one Unicode scalar (ASCII, CJK, box drawing), kept inline:
    /// copying and comparing it is integer work, where a `Character` is a `String` compared with
    /// canonical equivalence — that was over half of a frame's cost. Graphemes of several scalars
    /// (emoji sequences, flags, letters with combining marks) keep their text.
    public enum Content: Sendable {
        /// A grapheme that is one scalar.
        case scalar(Unicode.Scalar)
        /// A grapheme of two or more scalars. (`init(_:)` never makes one of a single scalar.)
        case cluster(String)
        /// The second column of a wide grapheme; the terminal draws nothing here.
        case continuation

        /// The content that shows `character`: inline when it is one scalar.
        @inlinable
        public init(_ character: Character) {
            let scalars = character.unicodeScalars
            if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
                self = .scalar(first)
            } else {
                self = .cluster(String(character))
            }
        }

        /// The grapheme, nil for a continuation.
        @inlinable
        public var character: Character? {
            switch self {
            case .scalar(let scalar): Character(scalar)
            case .cluster(let text): Character(text)
            case .continuation: nil
            }
        }
    }

    public var content: Content
    public var style: Style

    @inlinable
    public init(_ content: Content = .scalar(" "), style: Style = .plain) {
        self.content = content
        self.style = style
    }

    /// A cell showing `character`.
    @inlinable
    public init(_ character: Character, style: Style = .plain) {
        self.init(Content(character), style: style)
    }

    public static let blank = Cell()

    @inlinable
    public var isContinuation: Bool {
        if case .continuation = content { true } else { false }
    }

    /// The grapheme, nil for a continuation.
    @inlinable
    public var character: Character? { content.character }
}

extension Cell.Content: Equatable {
    /// Scalars compare as integers; clusters as text. A cluster that happens to hold one scalar
    /// (built by hand rather than by `init(_:)`) equals that scalar, as the characters would.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        // One case at a time rather than a switch over the pair, which copies both payloads.
        switch lhs {
        case .scalar(let a):
            if case .scalar(let b) = rhs { return a == b }
        case .continuation:
            if case .continuation = rhs { return true }
            return false
        case .cluster(let a):
            if case .cluster(let b) = rhs { return a == b }
        }
        if case .continuation = rhs { return false }
        return lhs.character == rhs.character
    }
}

extension Cell {
    // Written out so other modules inline it instead of calling the synthesized one.
    @inlinable
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        lhs.style == rhs.style && lhs.content == rhs.content
    }
}
