/// Makes untrusted text inert before it reaches a cell.
///
/// Payload text can carry terminal escape sequences (clear the screen, set the window title, write
/// the clipboard with OSC 52), raw controls, bidi overrides that make text read backwards, and
/// zero-width characters that hide text. None of them may reach the terminal.
public enum Sanitize {
    /// `text` with every control, escape sequence, bidi control and hiding character removed, and
    /// newlines and tabs turned into spaces.
    public static func inert(_ text: String) -> String {
        inert(text, keepNewlines: false)
    }

    /// As `inert(_:)`, but line breaks stay `\n` (for multi-line text like a pretty payload).
    public static func inertLines(_ text: String) -> String {
        inert(text, keepNewlines: true)
    }

    private static func inert(_ text: String, keepNewlines: Bool) -> String {
        // Fast paths: most text has nothing to remove; printable ASCII never has.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return text }
        if !text.unicodeScalars.contains(where: needsCare) { return text }
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        // True while inside a tag sequence that follows a black flag (subdivision flags like 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
        var inFlagTags = false
        while i < scalars.count {
            let scalar = scalars[i]
            let value = scalar.value
            i += 1
            if (0xE0020...0xE007F).contains(value) {
                if inFlagTags { output.append(scalar) }
                continue
            }
            inFlagTags = value == 0x1F3F4
            switch value {
            case 0x0A, 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                output.append(keepNewlines ? "\n" : " ")
            case 0x0D:
                // CR LF is one break, not two.
                if i < scalars.count, scalars[i].value == 0x0A { continue }
                output.append(keepNewlines ? "\n" : " ")
            case 0x09:
                output.append(" ")
            case 0x1B:
                i = skipEscape(scalars, from: i)
            case 0x9B:
                i = skipControlSequence(scalars, from: i)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                i = skipString(scalars, from: i)
            case 0x00...0x1F, 0x7F...0x9F:
                continue
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
                continue  // bidi embeddings, overrides, isolates and marks
            case 0x200B, 0x2060...0x2064, 0xFEFF, 0x180E, 0x00AD, 0x034F, 0xFFF9...0xFFFB, 0x115F, 0x1160, 0x3164, 0xFFA0:
                continue  // zero-width and blank-looking characters that can hide text
            case 0x200D, 0xFE0E, 0xFE0F, 0x20E3:
                // A joiner, presentation selector or keycap mark counts only on an emoji; with
                // no such base, terminals disagree on its width (some widen the cell before it),
                // so it would shift the columns after it. It is dropped.
                if hasEmojiBase(scalar, after: output, before: i < scalars.count ? scalars[i] : nil) {
                    output.append(scalar)
                }
            default:
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// True when the joiner, selector or keycap mark `mark` sits where an emoji sequence has it:
    /// VS15/VS16 after an emoji (digits, `#` and `*` included), U+20E3 after a keycap base
    /// (optionally with VS16 between), a ZWJ between two emoji.
    private static func hasEmojiBase(_ mark: Unicode.Scalar, after output: String.UnicodeScalarView, before next: Unicode.Scalar?) -> Bool {
        guard let previous = output.last else { return false }
        func isKeycapBase(_ scalar: Unicode.Scalar) -> Bool {
            (0x30...0x39).contains(scalar.value) || scalar == "#" || scalar == "*"
        }
        switch mark.value {
        case 0xFE0E, 0xFE0F:
            return previous.properties.isEmoji
        case 0x20E3:
            if isKeycapBase(previous) { return true }
            guard previous.value == 0xFE0F else { return false }
            let selector = output.index(before: output.endIndex)
            guard selector > output.startIndex else { return false }
            return isKeycapBase(output[output.index(before: selector)])
        default:
            // ZWJ: both sides must be emoji pictures (an ASCII digit is not one here).
            let leftIsEmoji = previous.value == 0xFE0F || (previous.value > 0x7F && previous.properties.isEmoji)
            guard leftIsEmoji, let next else { return false }
            return next.value > 0x7F && next.properties.isEmoji
        }
    }

    private static func needsCare(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xAD || value == 0x034F || value == 0x061C { return true }
        if value < 0x115F { return false }
        switch value {
        case 0x115F, 0x1160, 0x180E, 0x200B...0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x20E3, 0xFE0E, 0xFE0F,
            0x2060...0x2064, 0x2066...0x2069, 0x3164, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB, 0xE0020...0xE007F:
            return true
        default:
            return false
        }
    }

    /// Skips what follows an ESC: a CSI, a string command (OSC, DCS, SOS, PM, APC) or a two-byte escape.
    private static func skipEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start < scalars.count else { return start }
        switch scalars[start] {
        case "[":
            return skipControlSequence(scalars, from: start + 1)
        case "]", "P", "X", "^", "_":
            return skipString(scalars, from: start + 1)
        default:
            var i = start
            // nF escapes: intermediate bytes, then one final byte.
            while i < scalars.count, (0x20...0x2F).contains(scalars[i].value) { i += 1 }
            if i < scalars.count, (0x30...0x7E).contains(scalars[i].value) { i += 1 }
            return i
        }
    }

    /// Skips a CSI's parameter and intermediate bytes and its final byte.
    private static func skipControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < scalars.count {
            let value = scalars[i].value
            i += 1
            if (0x40...0x7E).contains(value) { return i }
            // Anything that is not a parameter or intermediate byte ends a malformed sequence.
            if !(0x20...0x3F).contains(value) { return i - 1 }
        }
        return i
    }

    /// Skips a string command up to its terminator: BEL, ESC \ or the C1 string terminator.
    private static func skipString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < scalars.count {
            let value = scalars[i].value
            if value == 0x07 || value == 0x9C { return i + 1 }
            if value == 0x1B {
                return i + 1 < scalars.count && scalars[i + 1] == "\\" ? i + 2 : i + 1
            }
            i += 1
        }
        return i
    }
}
