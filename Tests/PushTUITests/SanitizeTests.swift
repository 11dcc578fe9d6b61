import Testing
import PushTUI

@Suite("Inert text")
struct SanitizeTests {
    @Test(arguments: [
        ("clear\u{1b}[2Jscreen", "clearscreen"),
        ("a\u{1b}[1;31mred\u{1b}[0m", "ared"),
        ("clip\u{1b}]52;c;ZXZpbA==\u{7}board", "clipboard"),
        ("title\u{1b}]0;pwned\u{1b}\\ok", "titleok"),
        ("dcs\u{1b}Pq#0;2;0;0;0\u{1b}\\end", "dcsend"),
        ("bell\u{7}", "bell"),
        ("c1\u{9b}2Jcsi", "c1csi"),
        ("osc8\u{9d}8;;http://x\u{9c}link", "osc8link"),
        ("abc\u{202e}fed", "abcfed"),
        ("iso\u{2066}late\u{2069}", "isolate"),
        ("zero\u{200b}width\u{feff}", "zerowidth"),
        ("line\nbreak\ttab", "line break tab"),
        ("crlf\r\nend", "crlf end"),
        ("nul\u{0}del\u{7f}", "nuldel"),
        ("esc c reset\u{1b}c!", "esc c reset!"),
        ("訂單 ❤️ 👨‍👩‍👧 🇯🇵 café", "訂單 ❤️ 👨‍👩‍👧 🇯🇵 café"),
        ("trailing escape\u{1b}", "trailing escape"),
        ("unterminated\u{1b}]0;title", "unterminated"),
    ] as [(String, String)])
    func inert(input: String, expected: String) {
        #expect(Sanitize.inert(input) == expected)
    }

    @Test func inertLinesKeepsNewlines() {
        #expect(Sanitize.inertLines("a\r\nb\u{1b}[Kc\n") == "a\nbc\n")
    }

    @Test func nothingDangerousSurvives() {
        let nasty = "\u{1b}[2J\u{1b}]52;c;AAAA\u{7}\u{9b}31m\u{202e}\u{200b}\u{90}x\u{9c}\u{85}"
        let result = Sanitize.inert(nasty)
        for scalar in result.unicodeScalars {
            #expect(scalar.value >= 0x20 && !(0x7f...0x9f).contains(scalar.value))
            #expect(!(0x202a...0x202e).contains(scalar.value))
        }
    }
}
