/// How many terminal columns a grapheme cluster takes, from Unicode properties alone.
///
/// Measured per `Character`, not per scalar: an emoji with VS16 (❤️), a flag or a ZWJ family is one
/// cluster of width 2, a combining mark adds nothing to the letter it sits on. libc `wcwidth` is not
/// used: it depends on the process locale and counts those sequences scalar by scalar.
public enum DisplayWidth {
    /// The columns `character` takes: 0 (controls, lone combining or format marks), 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.index(after: scalars.startIndex) == scalars.endIndex { return of(first) }
        return ofCluster(scalars, first: first)
    }

    /// The columns a grapheme of the one scalar `scalar` takes (as `of(Character(scalar))`).
    @inline(__always)
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        // Fast paths for what most cells hold, answered as `ofScalarByProperties` would answer
        // them (a test checks every scalar): the property lookups cost a quarter of a frame.
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }  // DEL and C1 controls
        if value < 0x300 { return value == 0xAD ? 0 : 1 }  // Latin-1 and Latin Extended; soft hyphen is a format char
        if value >= 0x3400, value <= 0x9FFF { return 2 }  // CJK ideographs
        if value >= 0xAC00, value <= 0xD7A3 { return 2 }  // Hangul syllables
        if value >= 0x2010, value <= 0x2027 { return 1 }  // dashes, quotes, bullets, ellipsis
        if value >= 0x2500, value <= 0x25FC { return 1 }  // box drawing, blocks, shapes (◽◾ are emoji)
        if value >= 0x3000, value <= 0x3029 { return 2 }  // CJK punctuation (0x302A… are marks)
        if value >= 0x3041, value <= 0x3096 { return 2 }  // hiragana
        if value >= 0x30A0, value <= 0x30FF { return 2 }  // katakana
        if value >= 0xFF01, value <= 0xFF60 { return 2 }  // fullwidth forms
        return ofScalarByProperties(scalar)
    }

    /// The width of a one-scalar grapheme from its Unicode properties.
    static func ofScalarByProperties(_ scalar: Unicode.Scalar) -> Int {
        if isControl(scalar) { return 0 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator:
            // A mark with no base to sit on; a format char draws nothing.
            return properties.isEmojiPresentation ? 2 : 0
        default:
            break
        }
        if (0x1F1E6...0x1F1FF).contains(scalar.value) { return 1 }  // a lone regional indicator
        if properties.isEmojiPresentation { return 2 }
        return isWide(scalar) ? 2 : 1
    }

    /// The width of a grapheme of two or more scalars.
    private static func ofCluster(_ scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Int {
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
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // regional indicators: a pair is a flag
        // VS15 asks for text presentation; VS16 or a ZWJ sequence asks for an emoji picture.
        if scalars.contains(where: { $0.value == 0xFE0E }) { return isWide(first) ? 2 : 1 }
        if first.properties.isEmoji,
            scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || $0.value == 0x20E3 }) {
            return 2
        }
        if first.properties.isEmojiPresentation { return 2 }
        return isWide(first) ? 2 : 1
    }

    /// The columns a whole string takes.
    public static func of(_ text: String) -> Int {
        // Printable ASCII is one column a byte, with no grapheme breaking to do.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        if let columns = ofStandingAlone(text) { return columns }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns of `text` when every scalar in it is a grapheme of its own, else nil.
    static func ofStandingAlone(_ text: String) -> Int? {
        var columns = 0
        for scalar in text.unicodeScalars {
            guard standsAlone(scalar) else { return nil }
            columns += of(scalar)
        }
        return columns
    }

    /// True for scalars that are a grapheme on their own next to any other such scalar: no
    /// combining or spacing mark, joiner, variation selector, regional indicator, Hangul jamo,
    /// prepended mark or line break. Text made only of these needs no grapheme breaking: each
    /// scalar is one cell. (The ranges cover the text the screen mostly shows; a test checks them.)
    @inline(__always)
    static func standsAlone(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x300 { return value >= 0x20 && (value < 0x7F || value >= 0xA0) }
        if value < 0x2010 { return false }
        if value <= 0x2027 { return true }  // dashes, quotes, bullets, ellipsis
        if value < 0x2030 { return false }
        if value <= 0x205E { return true }  // more punctuation
        if value < 0x2070 { return false }
        if value <= 0x20CF { return true }  // super- and subscripts, currency signs (0x20D0… are marks)
        if value < 0x2190 { return false }
        if value <= 0x23FF { return true }  // arrows, mathematical operators, technical symbols
        if value < 0x2500 { return false }
        if value <= 0x27BF { return true }  // box drawing, blocks, shapes, symbols, dingbats
        if value < 0x3000 { return false }
        if value <= 0x3029 { return true }  // CJK symbols and punctuation (0x302A… are marks)
        if value < 0x3041 { return false }
        if value <= 0x3096 { return true }  // hiragana (0x3099… are voicing marks)
        if value < 0x30A0 { return false }
        if value <= 0x30FF { return true }  // katakana
        if value < 0x3400 { return false }
        if value <= 0x4DBF { return true }  // CJK extension A
        if value < 0x4E00 { return false }
        if value <= 0x9FFF { return true }  // CJK unified ideographs
        if value < 0xAC00 { return false }
        if value <= 0xD7A3 { return true }  // Hangul syllables (only jamo join them)
        if value < 0xFF01 { return false }
        if value <= 0xFF9D { return true }  // fullwidth and halfwidth forms (0xFF9E… are marks)
        return value >= 0xFFE0 && value <= 0xFFE6
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
