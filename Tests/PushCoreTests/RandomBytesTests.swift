import Foundation
import PushCore
import Testing

private func random(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { RandomBytes.fill($0) }
    return bytes
}

@Suite struct RandomBytesTests {
    @Test func takesAcrossRefillsNeverRepeatAChunk() {
        // 24 does not divide the pool's 4 096 bytes: the takes straddle refills of every kind.
        let chunks = (0..<2_000).map { _ in random(24) }
        #expect(Set(chunks).count == chunks.count)
    }

    @Test func everyByteValueTurnsUpAndLargeFillsGoStraightToTheSystem() {
        for size in [65_536, 100_000] {
            let bytes = random(size)
            #expect(Set(bytes).count == 256, "\(size) bytes")
        }
        #expect(random(0).isEmpty)
    }

    @Test func asAGeneratorItDrawsRangesLikeTheSystemOne() {
        var generator = RandomBytes()
        let draws = (0..<1_000).map { _ in UInt64.random(in: 1_000...1_009, using: &generator) }
        #expect(draws.allSatisfy { (1_000...1_009).contains($0) })
        #expect(Set(draws).count == 10)
    }

    @Test func threadsTakingAtOnceGetDistinctBytes() async {
        let chunks = await withTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<8 { group.addTask { (0..<500).map { _ in random(16) } } }
            var all: [[UInt8]] = []
            for await some in group { all += some }
            return all
        }
        #expect(chunks.count == 4_000)
        #expect(Set(chunks).count == chunks.count)
    }
}
