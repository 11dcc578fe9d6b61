import CNCurses
import PushTUI
import Testing
@testable import PushTerminal

@Suite("Curses input decoding")
struct CursesKeysTests {
    @Test func functionKeys() {
        #expect(CursesKeys.key(functionKey: KEY_UP) == .up)
        #expect(CursesKeys.key(functionKey: KEY_DOWN) == .down)
        #expect(CursesKeys.key(functionKey: KEY_PPAGE) == .pageUp)
        #expect(CursesKeys.key(functionKey: KEY_NPAGE) == .pageDown)
        #expect(CursesKeys.key(functionKey: KEY_HOME) == .home)
        #expect(CursesKeys.key(functionKey: KEY_END) == .end)
        #expect(CursesKeys.key(functionKey: KEY_BACKSPACE) == .backspace)
        #expect(CursesKeys.key(functionKey: KEY_ENTER) == .enter)
        #expect(CursesKeys.key(functionKey: pd_key_resize()) == .resize)
        #expect(CursesKeys.key(functionKey: KEY_F0 + 5) == nil)
    }

    @Test func characters() {
        #expect(CursesKeys.key(character: 13) == .enter)
        #expect(CursesKeys.key(character: 10) == .enter)
        #expect(CursesKeys.key(character: 27) == .escape)
        #expect(CursesKeys.key(character: 127) == .backspace)
        #expect(CursesKeys.key(character: 0x71) == .char("q"))
        #expect(CursesKeys.key(character: 0x4E2D) == .char("中"))
        #expect(CursesKeys.key(character: 3) == nil)
        #expect(CursesKeys.key(character: 0x9B) == nil)
        #expect(CursesKeys.key(character: 0xD800) == nil)
    }

    @Test func mouse() {
        let mask = pd_mouse_mask()
        #expect(CursesKeys.mouse(state: 0, x: 1, y: 2) == [])
        #expect(mask != 0)
        // Pointer moves are asked for and reported (the banner pauses under the pointer).
        #expect(pd_mouse_is_move(mask) != 0)
        #expect(CursesKeys.mouse(state: pd_report_mouse_position(), x: 3, y: 4) == [.mouse(.move(x: 3, y: 4))])
        #expect(CursesKeys.mouse(state: pd_button1_clicked(), x: 3, y: 4) == [.mouse(.click(x: 3, y: 4))])
        // Two clicks whose reports arrive in one read come as a double click (mouseinterval 0 or
        // not): it is asked for, and stands for both clicks.
        #expect(pd_mouse_clicks(mask & pd_button1_double_clicked()) == 2)
        #expect(CursesKeys.mouse(state: pd_button1_double_clicked(), x: 3, y: 4) == Array(repeating: .mouse(.click(x: 3, y: 4)), count: 2))
    }

    /// One `KEY_MOUSE` can stand for several queued events (`getmouse` until it fails, oldest
    /// first): a click and a key read together leave the press and its bare release unmerged.
    @Test func aRunOfMouseEventsCountsEachClickOnce() {
        func event(_ state: mmask_t, y: Int32 = 4) -> CursesKeys.MouseEvent { .init(state: state, x: 3, y: y) }
        let click = Key.mouse(.click(x: 3, y: 4))
        // The release stands for nothing; the press before it is the click.
        #expect(CursesKeys.mouse([event(pd_button1_pressed()), event(pd_button1_released())]) == [click])
        #expect(CursesKeys.mouse([event(pd_button1_released())]) == [])
        // A click curses merged, then the next press whose release came later: two clicks.
        #expect(CursesKeys.mouse([event(pd_button1_clicked() & ~pd_button1_pressed() & ~pd_button1_released()),
                                  event(pd_button1_pressed())]) == [click, click])
        // Oldest first: a click on another row, then this one.
        #expect(CursesKeys.mouse([event(pd_button1_pressed(), y: 7), event(pd_button1_released(), y: 7),
                                  event(pd_button1_pressed())]) == [.mouse(.click(x: 3, y: 7)), click])
        #expect(CursesKeys.mouse([]) == [])
    }

    @Test func glyphsMatchTheGridWidth() {
        // Run in C.UTF-8 so libc wcwidth knows CJK (the real program sets the user's UTF-8 locale).
        TerminalLocale.ensureUTF8()
        #expect(CursesTerminal.glyph(for: "a", width: 1) == [[0x61]])
        #expect(CursesTerminal.glyph(for: "中", width: 2) == [[0x4E2D]])
        #expect(CursesTerminal.glyph(for: "e\u{301}", width: 1) == [[0x65, 0x301]])
        // ❤️: libc counts the heart as 1 column; the grid gives 2, so it is padded.
        #expect(CursesTerminal.glyph(for: "❤️", width: 2) == [[0x2764], [32]])
        // A ZWJ family goes out as its first person.
        #expect(CursesTerminal.glyph(for: "👨‍👩‍👧", width: 2) == [[0x1F468]])
        // A flag as its two letters.
        #expect(CursesTerminal.glyph(for: "🇯🇵", width: 2) == [[0x1F1EF], [0x1F1F5]])
    }
}

enum TerminalLocale {
    /// The locale is process-wide: set C.UTF-8 once, as NOTES-SWIFT-LINUX.md says.
    static let once: Void = { setlocale(LC_ALL, "C.UTF-8") }()
    static func ensureUTF8() { _ = once }
}

@Suite("Colour choice")
struct ColourChoiceTests {
    @Test func noColorMustBeNonEmpty() {
        #expect(CursesTerminal.noColorRequested(["NO_COLOR": "1"]))
        #expect(!CursesTerminal.noColorRequested(["NO_COLOR": ""]))
        #expect(!CursesTerminal.noColorRequested([:]))
    }
}
