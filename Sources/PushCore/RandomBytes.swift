import Glibc
import Synchronization

/// Random bytes from the system's generator, fetched 4 KiB at a time.
///
/// Every call of `SystemRandomNumberGenerator.next()` is a `getrandom` system call: an APNs push
/// took two per id it made up (its `apns-id` and `apns-unique-id`), four calls and the kernel's
/// generator setup each, 2 % of the writer's time under a gateway load. glibc's `arc4random_buf`
/// takes its bytes from the same kernel generator (`getrandom`) and never fails; a pool refilled
/// a page at a time makes that one call per 256 UUIDs.
public struct RandomBytes: RandomNumberGenerator, Sendable {
    public init() {}

    public mutating func next() -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { Self.fill($0) }
        return value
    }

    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        // Larger than the pool: straight from the system.
        guard buffer.count <= Pool.size else { return arc4random_buf(base, buffer.count) }
        pool.withLock { pool in pool.take(buffer.count, into: base) }
    }

    private static let pool = Mutex(Pool())

    private struct Pool: Sendable {
        static let size = 4096
        private var bytes = [UInt8](repeating: 0, count: size)
        /// Bytes before this index were handed out (and wiped).
        private var used = size

        mutating func take(_ count: Int, into destination: UnsafeMutableRawPointer) {
            if Self.size - used < count { refill() }
            bytes.withUnsafeMutableBytes { source in
                let start = source.baseAddress.unsafelyUnwrapped + used
                destination.copyMemory(from: start, byteCount: count)
                // What was handed out is not kept.
                start.initializeMemory(as: UInt8.self, repeating: 0, count: count)
            }
            used += count
        }

        private mutating func refill() {
            bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress.unsafelyUnwrapped, Self.size) }
            used = 0
        }
    }
}
