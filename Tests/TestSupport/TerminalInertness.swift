/// What must never reach a terminal from pushdeck's output: bytes that are
/// not UTF-8, C0 controls other than `\n` and `\t` (ESC and BEL included), DEL, C1 controls
/// (U+0080–U+009F) and bidi controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069).
public enum TerminalInertness {
    /// Each offending scalar or byte, described (`U+001B at byte 3`); empty when `bytes` are inert.
    public static func violations(in bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if isForbidden(scalar.value) {
                    found.append("U+\(String(scalar.value, radix: 16, uppercase: true)) at byte \(offset)")
                }
                offset += UTF8.width(scalar)
            case .emptyInput:
                break loop
            case .error:
                found.append("invalid UTF-8 near byte \(offset)")
                offset += 1
            }
        }
        return found
    }

    public static func violations(in text: String) -> [String] { violations(in: Array(text.utf8)) }

    public static func isForbidden(_ value: UInt32) -> Bool {
        switch value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
