import Foundation
@testable import PushCore
import Testing

@Suite struct RandomUUIDTests {
    @Test func bitsAreWrittenAsFoundationWritesThemWithVersionAndVariant() throws {
        #expect(RandomUUID.text(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(RandomUUID.text(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        let text = RandomUUID.text(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        #expect(text == "01234567-89ab-4def-bedc-ba9876543210")
        let parsed = try #require(UUID(uuidString: text))
        #expect(parsed.uuidString.lowercased() == text)
    }

    @Test func newOnesAreVersion4AndDistinct() throws {
        let made = (0..<10_000).map { _ in RandomUUID.text() }
        #expect(Set(made).count == made.count)
        for text in made.prefix(100) {
            let bytes = try #require(UUID(uuidString: text)).uuid
            #expect(bytes.6 >> 4 == 4 && bytes.8 >> 6 == 0b10, "\(text)")
            #expect(text == text.lowercased() && text.utf8.count == 36)
        }
    }
}
