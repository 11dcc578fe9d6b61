import CNCurses
import Glibc
import PushTUI
import Testing
@testable import PushTerminal

/// The terminal's fast path for one-scalar graphemes must hand curses what the general path does.
@Suite("Curses cells")
struct CursesGlyphTests {
    @Test(arguments: [
        ("a", 1), ("~", 1), ("中", 2), ("한", 2), ("Ａ", 2), ("─", 1), ("…", 1), ("❤", 2), ("😀", 2),
        ("😀", 1), ("中", 1), ("\u{7}", 1), ("\u{301}", 1), ("\u{AD}", 1), ("é", 1),
    ] as [(String, Int)])
    func oneScalarGlyphIsTheGeneralGlyph(text: String, width: Int) throws {
        TerminalLocale.ensureUTF8()
        let scalar = try #require(text.unicodeScalars.first)
        let fast = CursesTerminal.glyph(for: scalar, width: width)
        let general = CursesTerminal.glyph(for: Character(scalar), width: width)
        #expect([[fast.first]] + Array(repeating: [32], count: fast.padding) == general)
        #expect(fast.firstWidth == CursesTerminal.cursesWidth(fast.first))
        // What curses adds spans exactly the columns the grid gave.
        #expect(fast.firstWidth + fast.padding == width)
    }

    @Test func aLooksCcharIsWhatSetccharMakes() {
        TerminalLocale.ensureUTF8()
        for (attributes, pair) in [(pd_a_normal(), Int16(0)), (pd_a_bold() | pd_a_dim(), Int16(3)), (pd_a_reverse(), Int16(7))] {
            let look = CursesTerminal.Look(attributes: attributes, pair: pair)
            for character in ["x", "中", "…", " "] as [Unicode.Scalar] {
                var expected = cchar_t()
                var text: [wchar_t] = [wchar_t(bitPattern: character.value), 0]
                _ = setcchar(&expected, &text, attributes, pair, nil)
                var made = look.cchar(wchar_t(bitPattern: character.value))
                #expect(memcmp(&made, &expected, MemoryLayout<cchar_t>.size) == 0, "\(character)")
                var viaPieces = look.cchar([character.value])
                #expect(memcmp(&viaPieces, &expected, MemoryLayout<cchar_t>.size) == 0, "\(character)")
            }
        }
    }
}
