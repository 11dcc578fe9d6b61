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
///
/// Kept as one integer (the role's place in `ColorRole.allCases`, then a bit per attribute) so a
/// cell is two integers and rows of them compare as memory.
public struct Style: Sendable, Equatable, Hashable {
    @usableFromInline var bits: UInt32

    public init(_ role: ColorRole = .normal, bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        bits = role.ordinal
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()

    @usableFromInline
    init(bits: UInt32) { self.bits = bits }

    // Written out so the grid diff in another module inlines it.
    @inlinable
    public static func == (lhs: Style, rhs: Style) -> Bool { lhs.bits == rhs.bits }

    public var role: ColorRole {
        get { ColorRole(ordinal: bits & 0xFF) }
        set { bits = bits & ~0xFF | newValue.ordinal }
    }

    public var bold: Bool {
        get { flag(Self.boldBit) }
        set { set(Self.boldBit, newValue) }
    }

    public var dim: Bool {
        get { flag(Self.dimBit) }
        set { set(Self.dimBit, newValue) }
    }

    public var reverse: Bool {
        get { flag(Self.reverseBit) }
        set { set(Self.reverseBit, newValue) }
    }

    public var underline: Bool {
        get { flag(Self.underlineBit) }
        set { set(Self.underlineBit, newValue) }
    }

    /// A small number for each style (role and attributes), below `Style.indexCount`: for tables
    /// indexed by style.
    @inlinable
    public var index: Int { Int(bits & 0xFF) << 4 | Int(bits >> 8 & 0xF) }

    /// One more than the largest `index`.
    public static var indexCount: Int { ColorRole.allCases.count << 4 }

    /// The same style with bold on.
    public var bolded: Style {
        var copy = self
        copy.bold = true
        return copy
    }

    private static let boldBit: UInt32 = 1 << 8
    private static let dimBit: UInt32 = 1 << 9
    private static let reverseBit: UInt32 = 1 << 10
    private static let underlineBit: UInt32 = 1 << 11

    private func flag(_ bit: UInt32) -> Bool { bits & bit != 0 }

    private mutating func set(_ bit: UInt32, _ on: Bool) {
        bits = on ? bits | bit : bits & ~bit
    }
}

extension ColorRole {
    /// The role's place in `allCases` (a test checks they agree).
    var ordinal: UInt32 {
        switch self {
        case .normal: 0
        case .header: 1
        case .unreadMarker: 2
        case .bannerBackground: 3
        case .dim: 4
        case .selection: 5
        case .warning: 6
        }
    }

    init(ordinal: UInt32) {
        switch ordinal {
        case 1: self = .header
        case 2: self = .unreadMarker
        case 3: self = .bannerBackground
        case 4: self = .dim
        case 5: self = .selection
        case 6: self = .warning
        default: self = .normal
        }
    }
}

extension Style: CustomStringConvertible {
    public var description: String {
        let flags = [(bold, "bold"), (dim, "dim"), (reverse, "reverse"), (underline, "underline")]
            .filter(\.0).map(\.1)
        return "Style(\(([role.rawValue] + flags).joined(separator: ", ")))"
    }
}
