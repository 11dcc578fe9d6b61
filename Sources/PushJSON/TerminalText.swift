/// Untrusted bytes made inert for a terminal: what every human-facing print path applies.
///
/// Push payloads, framer junk, JSON parse errors that quote the offending bytes and the server's
/// own replies (the server may be hostile) can carry escape sequences (clear the screen, set the
/// window title), C1 controls some terminals obey in UTF-8, and bidi controls that make text read
/// backwards. Rather than patch each message, `pushdeck` passes all it prints through `inert`:
///
/// - C0 controls but `\n` and `\t`, and DEL, become `\x1b`-style escapes;
/// - bytes that are not UTF-8 become `\xff`-style escapes;
/// - scalars `mustEscape` names (C1, bidi, line separators, invisible format characters) become
///   JSON-style `\u009B` escapes (a surrogate pair above U+FFFF), so a JSON line stays valid JSON
///   with the same meaning;
/// - everything else, `\` included, is kept as it is.
public enum TerminalText {
    /// `text` made inert (see the type); the same text when there is nothing to escape.
    public static func inert(_ text: String) -> String {
        if isInert(text.utf8) { return text }
        return inert(Array(text.utf8))
    }

    /// `bytes` as inert text (see the type).
    public static func inert(_ bytes: [UInt8]) -> String {
        if isInert(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && byte != 0x0A && byte != 0x09 || byte == 0x7F {
                    appendByteEscape(byte, to: &output)
                } else {
                    output.append(byte)
                }
                index += 1
                continue
            }
            guard let length = utf8Length(bytes, at: index) else {
                appendByteEscape(byte, to: &output)
                index += 1
                continue
            }
            let scalar = decode(bytes, at: index, length: length)
            if mustEscape(scalar) {
                appendUnicodeEscape(scalar, to: &output)
            } else {
                output.append(contentsOf: bytes[index..<index + length])
            }
            index += length
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// True when a scalar must not reach a terminal (or a JSON line a person reads) as it is:
    /// DEL, C1 controls, bidi marks, embeddings, overrides and isolates, line and paragraph
    /// separators, zero-width and invisible format characters (not the joiners emoji are made
    /// of: ZWJ and ZWNJ are inert), the BOM and interlinear annotation controls. (Tag
    /// characters stay: they move nothing and subdivision flags are made of them.) C0 controls are the caller's business
    /// (JSON escapes them all; `inert` keeps `\n` and `\t`).
    @inline(__always)
    public static func mustEscape(_ value: UInt32) -> Bool {
        if value < 0x7F { return false }
        if value <= 0x9F { return true }
        if value < 0x061C { return false }
        switch value {
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x206F,
            0xFEFF, 0xFFF9...0xFFFB:
            return true
        default:
            return false
        }
    }

    /// True for a UTF-8 lead byte whose scalar may be one `mustEscape` names (C2: U+0080–U+00BF,
    /// D8: U+0600–U+063F, E2: U+2000–U+2FFF, EF: U+F000–U+FFFF). Lets a
    /// byte scanner skip every other non-ASCII byte without decoding it.
    @inline(__always)
    public static func mayStartEscape(_ byte: UInt8) -> Bool {
        byte == 0xC2 || byte == 0xE2 || byte == 0xEF || byte == 0xD8
    }

    // MARK: - Pieces

    /// True when `bytes` hold nothing `inert` would change (a quick scan, no decoding for most).
    private static func isInert(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7F || byte == 0x0A || byte == 0x09 { continue }
            if byte >= 0x80 && byte < 0xC2 { continue }  // continuation bytes (checked with their lead)
            if byte >= 0xC2 && byte < 0xF5 && !mayStartEscape(byte) { continue }
            // Anything else needs a closer look (a lead byte's sequence is checked by the slow path).
            return false
        }
        return true
    }

    /// The length of the valid UTF-8 sequence at `index`, or nil when the bytes there are not one.
    static func utf8Length(_ bytes: [UInt8], at index: Int) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Sequence.length(in: $0, at: index) }
    }

    /// The scalar value of the valid UTF-8 sequence of `length` bytes at `index`.
    @inline(__always)
    static func decode(_ bytes: some RandomAccessCollection<UInt8>, at index: Int, length: Int) -> UInt32 {
        let base = bytes.index(bytes.startIndex, offsetBy: index)
        let lead = UInt32(bytes[base])
        func next(_ offset: Int) -> UInt32 { UInt32(bytes[bytes.index(base, offsetBy: offset)] & 0x3F) }
        switch length {
        case 2: return (lead & 0x1F) << 6 | next(1)
        case 3: return (lead & 0x0F) << 12 | next(1) << 6 | next(2)
        default: return (lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3)
        }
    }

    private static func appendByteEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(contentsOf: [ascii("\\"), ascii("x"), hexDigit(byte >> 4, lower: true), hexDigit(byte & 0xF, lower: true)])
    }

    /// Appends `\uXXXX` (upper-case hex, as the JSON writer's other escapes), or a surrogate pair
    /// above U+FFFF.
    public static func appendUnicodeEscape(_ scalar: UInt32, to output: inout [UInt8]) {
        if scalar > 0xFFFF {
            let offset = scalar - 0x10000
            appendUnit(0xD800 + (offset >> 10), to: &output)
            appendUnit(0xDC00 + (offset & 0x3FF), to: &output)
        } else {
            appendUnit(scalar, to: &output)
        }
    }

    private static func appendUnit(_ unit: UInt32, to output: inout [UInt8]) {
        output.append(ascii("\\"))
        output.append(ascii("u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hexDigit(UInt8(truncatingIfNeeded: unit >> UInt32(shift)) & 0xF, lower: false))
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8, lower: Bool) -> UInt8 {
        nibble < 10 ? ascii("0") + nibble : (lower ? ascii("a") : ascii("A")) + nibble - 10
    }
}
