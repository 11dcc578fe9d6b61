import Glibc

/// Stops the fuzzer with a message when an invariant breaks: libFuzzer catches the abort, saves
/// the input as a crash file and exits non-zero. A trap (`precondition`) would do the same but
/// say less.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let text = "fuzz invariant broken: \(message())\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    abort()
}

/// A small deterministic generator (xorshift64*): the same input always gets the same choices,
/// so a saved crash input reproduces.
struct InputRandom {
    private var state: UInt64

    /// Seeds from the input's bytes (FNV-1a), never zero.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        state = hash == 0 ? 0x9e37_79b9_7f4a_7c15 : hash
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_f491_4f6c_dd1d
    }

    /// A number in `1...limit`.
    mutating func upTo(_ limit: Int) -> Int { Int(next() % UInt64(max(limit, 1))) + 1 }
}
