/// Well-formed UTF-8 (Unicode §3.9, table 3-7): the one check the parser and the terminal
/// escaper share, so text one accepts the other never calls malformed.
enum UTF8Sequence {
    /// The length of the well-formed UTF-8 sequence starting at `index`, or nil when the bytes
    /// there are not one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF,
    /// or cut off by the end).
    @inline(__always)
    static func length(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= lower && second <= upper else { return nil }
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }
}
