@testable import PushGateway
import Testing

/// The routes tell paths and header names by their start on the bytes: the answer is always
/// the one `hasPrefix` gives.
@Suite struct ASCIIPrefixTests {
    static let cases: [(text: String, prefix: String)] = [
        ("/3/device/abcd", "/3/device/"),
        ("/3/device/", "/3/device/"),
        ("/3/device", "/3/device/"),
        ("/3/devices/abcd", "/3/device/"),
        ("", "/v3/"),
        ("/v3/push", ""),
        ("apns-topic", "apns-"),
        ("apns", "apns-"),
        ("APNS-topic", "apns-"),
        // A combining mark after the prefix joins its `/` into one Character: no prefix then.
        ("/3/device/\u{301}abcd", "/3/device/"),
        ("apns-\u{301}id", "apns-"),
        // Other scalars beyond ASCII after the prefix, and before it.
        ("/v3/推送", "/v3/"),
        ("é/v3/push", "/v3/"),
    ]

    @Test(arguments: cases)
    func answersAsHasPrefixDoes(_ text: String, _ prefix: String) {
        #expect(text.hasASCIIPrefix(prefix) == text.hasPrefix(prefix))
    }

    @Test func aPrefixJoinedToTheNextScalarIsNoPrefix() {
        #expect(!"/3/device/\u{301}abcd".hasASCIIPrefix("/3/device/"))
        #expect("/3/device/abcd".hasASCIIPrefix("/3/device/"))
    }
}
