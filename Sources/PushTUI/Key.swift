/// One input from the terminal, decoded by the backend.
public enum Key: Sendable, Equatable {
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    case char(Character)
    /// The terminal changed size; the host has already updated `Screen.size`.
    case resize
    case mouse(Mouse)
}

/// A mouse event, in screen cells.
public enum Mouse: Sendable, Equatable {
    case click(x: Int, y: Int)
    case wheelUp
    case wheelDown
    /// The pointer moved to (`x`, `y`) (terminals in any-motion mode report it).
    case move(x: Int, y: Int)
}
