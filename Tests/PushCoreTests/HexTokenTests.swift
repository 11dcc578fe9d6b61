import PushCore
import Testing

/// What the gateway and `device add` take as an APNs token: hex digits, either case, an even
/// number of them, nothing else.
@Suite struct HexTokenTests {
    @Test(arguments: [
        (String(repeating: "ab", count: 32), true), (String(repeating: "AB", count: 80), true), ("0f", true),
        ("09afAF", true), ("", false), ("abc", false), ("0g", false), ("ab cd", false), ("ab/cd", false),
        ("éé", false), ("ab\u{0}c", false), ("ab" + String(repeating: "x", count: 2), false),
    ])
    func onlyAnEvenRunOfHexDigitsIsAToken(text: String, isToken: Bool) {
        #expect(Device.isHexToken(text) == isToken, "\(text.debugDescription)")
    }
}
