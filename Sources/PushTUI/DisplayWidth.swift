/// How many terminal columns a grapheme cluster takes, from Unicode properties alone.
///
/// Measured per `Character`, not per scalar: an emoji with VS16 (❤️), a flag or a ZWJ family is one
/// cluster of width 2, a combining mark adds nothing to the letter it sits on. libc `wcwidth` is not
/// used: it depends on the process locale and counts those sequences scalar by scalar.
public enum DisplayWidth {
    /// The columns `character` takes: 0 (controls, lone combining or format marks), 1 or 2.
    public static func of(_ character: Character) -> Int {
        // Fast paths for what most cells hold, answered as the property lookups below would
        // answer them: those lookups were a quarter of a frame's cost.
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if (0x4E00...0x9FFF).contains(first.value) || (0x3400...0x4DBF).contains(first.value),
            scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return 2  // a CJK ideograph alone: wide, never emoji, never a mark
        }
        if isControl(first) { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator:
            // A cluster that starts with a mark has no base to sit on; a format char draws nothing.
            // (A flag's regional indicators and emoji sequences start with a symbol, not these.)
            return scalars.contains(where: { $0.properties.isEmojiPresentation }) ? 2 : 0
        default:
            break
        }
        if scalars.contains(where: isControl) { return 0 }
        if (0x1F1E6...0x1F1FF).contains(first.value) {  // regional indicators: a pair is a flag
            return scalars.count >= 2 ? 2 : 1
        }
        if scalars.count > 1 {
            // VS15 asks for text presentation; VS16 or a ZWJ sequence asks for an emoji picture.
            if scalars.contains(where: { $0.value == 0xFE0E }) { return isWide(first) ? 2 : 1 }
            if first.properties.isEmoji,
                scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || $0.value == 0x20E3 }) {
                return 2
            }
        }
        if first.properties.isEmojiPresentation { return 2 }
        return isWide(first) ? 2 : 1
    }

    /// The columns a whole string takes.
    public static func of(_ text: String) -> Int {
        // Printable ASCII is one column a byte, with no grapheme breaking to do.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// False for clusters that carry a control character (C0, DEL, C1): they never reach a cell.
    public static func isPrintable(_ character: Character) -> Bool {
        !character.unicodeScalars.contains(where: isControl)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// East Asian Wide or Fullwidth (UAX #11) outside the emoji ranges, which
    /// `isEmojiPresentation` already answers.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Wide and fullwidth blocks, sorted (from Unicode's EastAsianWidth.txt, merged per block).
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
        0x3041...0x33FF,  // kana, Bopomofo, Hangul compatibility Jamo, enclosed CJK, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4DC0...0x4DFF,  // Yijing hexagrams
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth ASCII
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1,
        0x17000...0x18CFF,  // Tangut, Khitan
        0x18D00...0x18D08,
        0x1AFF0...0x1B2FF,  // kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B–F
        0x30000...0x3FFFD,  // CJK extensions G–H
    ]
}
