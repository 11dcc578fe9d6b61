import CNCurses
import PushTUI

/// How curses input codes become `Key`s.
public enum CursesKeys {
    /// A function key code (`get_wch` returned `KEY_CODE_YES`), nil for keys the UI does not use.
    /// `KEY_MOUSE` is decoded separately with `getmouse`.
    public static func key(functionKey code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME, KEY_A1: .home
        case KEY_END, KEY_C1: .end
        case KEY_ENTER: .enter
        case KEY_BACKSPACE, KEY_DC: .backspace
        case KEY_BTAB: .tab
        default: code == pd_key_resize() ? .resize : nil
        }
    }

    /// A character `get_wch` returned; controls other than Enter, Esc, Tab and Backspace are dropped.
    public static func key(character value: UInt32) -> Key? {
        switch value {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 0..<32, 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .char(Character(scalar))
        }
    }

    /// One mouse event as `getmouse` gives it: button state and cell.
    public struct MouseEvent: Equatable, Sendable {
        public var state: mmask_t
        public var x: Int32
        public var y: Int32

        public init(state: mmask_t, x: Int32, y: Int32) {
            self.state = state
            self.x = x
            self.y = y
        }
    }

    /// The keys a run of mouse events stands for, oldest first. A release stands for nothing:
    /// its press (or the click curses merged them into) already counted.
    public static func mouse(_ events: [MouseEvent]) -> [Key] {
        events.flatMap { mouse(state: $0.state, x: $0.x, y: $0.y) }
    }

    /// The keys a mouse event stands for, from its button state and cell: a double (triple)
    /// click is two (three) clicks, so the second opens the row the first selected.
    public static func mouse(state: mmask_t, x: Int32, y: Int32) -> [Key] {
        let clicks = Int(pd_mouse_clicks(state))
        if clicks > 0 { return Array(repeating: .mouse(.click(x: Int(x), y: Int(y))), count: clicks) }
        if pd_mouse_is_wheel_up(state) != 0 { return [.mouse(.wheelUp)] }
        if pd_mouse_is_wheel_down(state) != 0 { return [.mouse(.wheelDown)] }
        if pd_mouse_is_move(state) != 0 { return [.mouse(.move(x: Int(x), y: Int(y)))] }
        return []
    }
}
