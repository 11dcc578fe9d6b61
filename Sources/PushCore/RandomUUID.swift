/// Random (version 4) and time-ordered (version 7) UUIDs as lowercase text, the form APNs
/// writes its ids in (`apns-id`, `apns-unique-id`, `apns-request-id`) and the team bus names
/// its pushes by.
///
/// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` for every UUID, and
/// `uuidString` formats through `printf`: two of them a push were three system calls and a
/// formatter each. This takes its 16 bytes from the system's generator through `RandomBytes`
/// (a pool refilled 4 KiB at a time: no file, one system call per 256 UUIDs) and writes the 36
/// characters itself.
public enum RandomUUID {
    /// A new random (version 4) UUID.
    public static func text() -> String {
        let (high, low) = randomBits()
        return text(high: high, low: low)
    }

    /// A new time-ordered UUID (version 7, RFC 9562 §5.7): the first 48 bits are
    /// `millisecondsSince1970`, the rest random. Ids made one after another sort (as text, too)
    /// in the order they were made, to the millisecond: a table keyed by them takes each new row
    /// at its end, on the page the previous one filled, where a random key writes a page of its
    /// own somewhere in the tree for every row.
    public static func timeOrdered(millisecondsSince1970: Int64) -> String {
        let (random, low) = randomBits()
        let milliseconds = UInt64(clamping: max(0, millisecondsSince1970)) & 0xFFFF_FFFF_FFFF
        return text(high: milliseconds << 16 | random & 0xFFFF, low: low, version: 7)
    }

    /// `text` is a UUID as text: 36 characters, hex digits (either case) in groups of 8, 4, 4, 4
    /// and 12 between dashes — what Foundation's `UUID(uuidString:)` takes, without its
    /// `sscanf` (a push by the bus and its receipt each have their id checked).
    public static func isWellFormed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 36 else { return false }
            for (index, byte) in bytes.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else {
                    let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    let letter = (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
                    guard digit || letter else { return false }
                }
            }
            return true
        }
    }

    /// 128 random bits.
    private static func randomBits() -> (UInt64, UInt64) {
        var bits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bits) { RandomBytes.fill($0) }
        return bits
    }

    /// The UUID of these 128 bits, with the version and the variant (RFC 9562) bits set.
    static func text(high: UInt64, low: UInt64, version: UInt64 = 4) -> String {
        let high = (high & ~0xF000) | (version & 0xF) << 12  // the version in bits 48–51
        let low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10xx in bits 64–65
        return String(unsafeUninitializedCapacity: 36) { buffer in
            guard let base = UnsafeMutableRawPointer(buffer.baseAddress) else { return 0 }
            // 8-4-4-4-12: each 32 bits' eight digits go out at once, and a group of four that a
            // dash splits from the four before it is moved one byte on.
            func put(_ bits: UInt64, at offset: Int) {
                base.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: bits)), toByteOffset: offset, as: UInt64.self)
            }
            func splitAfterFour(at offset: Int) {
                let four = base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                base.storeBytes(of: four, toByteOffset: offset + 5, as: UInt32.self)
            }
            put(high >> 32, at: 0)
            put(high, at: 9)
            splitAfterFour(at: 9)
            put(low >> 32, at: 19)
            splitAfterFour(at: 19)
            put(low, at: 28)
            let dash = UInt8(ascii: "-")
            base.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
            base.storeBytes(of: dash, toByteOffset: 13, as: UInt8.self)
            base.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
            base.storeBytes(of: dash, toByteOffset: 23, as: UInt8.self)
            return 36
        }
    }

    /// The eight lowercase hex digits of `value`, most significant first, as the bytes of a
    /// UInt64 in memory order: each nibble spread into a byte of its own, then made a digit in
    /// all eight bytes at once ('0' + n, and 'a' − '0' − 10 more where n > 9). A loop over the
    /// nibbles, a table lookup each, was 1 300 instructions a UUID; two a push.
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // Nibble i (from the least significant) is now byte i of the value; the text wants the
        // most significant first, at the lowest address: big-endian order.
        let nibbles = spread.bigEndian
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }
}
