/// SplitMix64: a seeded generator, so random tests repeat exactly.
public struct SeededRandom: Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension SeededRandom {
    /// `count` draws, each a random byte one time in three, else one of `pieces` (the bytes a test
    /// means to stress, like ESC, C1 lead bytes, bidi controls and cut-off sequences), all joined.
    public mutating func bytes(_ count: Int, mixing pieces: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            if next() % 3 == 0 {
                bytes.append(UInt8(truncatingIfNeeded: next()))
            } else {
                bytes += pieces[Int(next() % UInt64(pieces.count))]
            }
        }
        return bytes
    }
}

extension SeededRandom {
    /// Fewer than `runs` runs of `filler`, each shorter than `longestRun` and followed by one of
    /// `pieces`: texts where the pieces fall at every offset of whatever blocks the code under
    /// test reads (its words, its SIMD blocks, its reads).
    public mutating func text(_ pieces: [String], runs: Int, longestRun: Int, filler: String = "x") -> String {
        var text = ""
        for _ in 0..<Int(next() % UInt64(runs)) {
            text += String(repeating: filler, count: Int(next() % UInt64(longestRun)))
            text += pieces[Int(next() % UInt64(pieces.count))]
        }
        return text
    }
}
