/// Random (version 4) UUIDs as lowercase text, the form APNs writes its ids in
/// (`apns-id`, `apns-unique-id`, `apns-request-id`) and the team bus names its pushes by.
///
/// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` for every UUID, and
/// `uuidString` formats through `printf`: two of them a push were three system calls and a
/// formatter each. This takes its 16 bytes from the system's generator (`RandomBytes`, no file,
/// no system call for most) and writes the 36 characters itself.
public enum RandomUUID {
    /// A new UUID, like `RandomUUID.text()`.
    public static func text() -> String {
        var generator = RandomBytes()
        return text(high: generator.next(), low: generator.next())
    }

    /// The UUID of these 128 bits, with the version (4) and variant (RFC 9562) bits set.
    static func text(high: UInt64, low: UInt64) -> String {
        let high = (high & ~0xF000) | 0x4000  // version 4 in bits 48–51
        let low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10xx in bits 64–65
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func write(_ bits: UInt64, nibbles: Int) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    buffer[index] = digits.utf8Start[Int((bits >> UInt64(shift)) & 0xF)]
                    index += 1
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            write(high >> 32, nibbles: 8)
            dash()
            write(high >> 16, nibbles: 4)
            dash()
            write(high, nibbles: 4)
            dash()
            write(low >> 48, nibbles: 4)
            dash()
            write(low, nibbles: 12)
            return index
        }
    }
}
