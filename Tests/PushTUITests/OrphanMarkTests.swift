import Testing
import PushTUI

/// A joiner, variation selector or keycap mark with no emoji to sit on is
/// dropped, so the grid's widths and the terminal's agree; real emoji sequences are kept.
@Suite struct OrphanMarkTests {
    @Test(arguments: [
        ("\u{200d}\u{fe0f}\u{20e3}", ""),
        ("ab\u{200d}\u{fe0f}\u{20e3}cd", "abcd"),
        ("a \u{200d}\u{fe0f}\u{20e3} e", "a  e"),
        ("x\u{fe0f}y\u{fe0e}", "xy"),
        ("\u{20e3}1", "1"),
        ("a\u{200d}b", "ab"),
        ("中\u{200d}\u{fe0f}文", "中文"),
    ] as [(String, String)])
    func orphanMarksAreDropped(input: String, expected: String) {
        #expect(Sanitize.inert(input) == expected)
        #expect(Sanitize.inert(input).columns == expected.columns)
    }

    @Test(arguments: ["❤️", "👨‍👩‍👧", "1️⃣", "#⃣", "☺︎", "🏳️‍🌈", "👍🏽", "*️⃣ keycaps 9️⃣"])
    func emojiSequencesAreKept(text: String) {
        #expect(Sanitize.inert(text) == text)
    }

    /// What is left has the width every grapheme of it adds up to: no cluster the grid counts as
    /// zero columns with marks a terminal might widen.
    @Test func widthsAfterSanitizingAddUpScalarByScalar() {
        let text = Sanitize.inert("T\u{200d}\u{fe0f}\u{20e3}x ab\u{200d}\u{fe0f}\u{20e3}cd \u{200d}\u{fe0f}\u{20e3} e")
        #expect(text == "Tx abcd  e")
        #expect(text.columns == 10)
        #expect(!text.unicodeScalars.contains { [0x200D, 0xFE0F, 0x20E3].contains($0.value) })
    }
}
