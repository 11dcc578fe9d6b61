/// Byte strings kept back to back in segments of 64 KiB, handed out and let go of in the order
/// they were stored (the request log's texts: its oldest record goes first). A segment is freed
/// once every string in it has been let go of, so a full log holds its records' bytes and at
/// most one partly used segment more — no allocation per string, no header per string.
struct ByteArena: Sendable {
    /// Where one stored string is: its segment's id and its first byte there.
    struct Place: Sendable, Equatable {
        var segment: UInt32
        var offset: UInt32
    }

    /// The size of a segment; a longer string gets a segment of its own.
    static let segmentSize = 1 << 16

    private struct Segment: Sendable {
        var bytes: [UInt8]
        /// How many strings stored here have not been let go of.
        var live: Int
    }

    private var segments: [Segment] = []
    /// The id of `segments[0]`; ids count on (wrapping), so a place stays valid while its
    /// segment is kept.
    private var firstId: UInt32 = 0

    /// How many segments are kept (each at least `segmentSize` bytes).
    var segmentCount: Int { segments.count }

    /// Stores `bytes` whole in one segment.
    mutating func store(_ bytes: [UInt8]) -> Place {
        if let last = segments.indices.last, segments[last].bytes.count + bytes.count <= Self.segmentSize {
            let offset = segments[last].bytes.count
            segments[last].bytes.append(contentsOf: bytes)
            segments[last].live += 1
            return Place(segment: firstId &+ UInt32(truncatingIfNeeded: last), offset: UInt32(truncatingIfNeeded: offset))
        }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(max(Self.segmentSize, bytes.count))
        fresh.append(contentsOf: bytes)
        segments.append(Segment(bytes: fresh, live: 1))
        return Place(segment: firstId &+ UInt32(truncatingIfNeeded: segments.count - 1), offset: 0)
    }

    /// Lets go of one string stored in `segment`. Segments whose strings are all let go of are
    /// freed from the oldest on; the newest is emptied instead and filled again from its start.
    mutating func release(_ segment: UInt32) {
        let index = Int(segment &- firstId)
        guard segments.indices.contains(index) else { return }
        segments[index].live -= 1
        while segments.count > 1, segments[0].live <= 0 {
            segments.removeFirst()
            firstId &+= 1
        }
        if segments.count == 1, segments[0].live <= 0 { segments[0].bytes.removeAll(keepingCapacity: true) }
    }

    /// The segment `segment` (a string is read at its place's offset there).
    func bytes(of segment: UInt32) -> [UInt8] {
        let index = Int(segment &- firstId)
        return segments.indices.contains(index) ? segments[index].bytes : []
    }

    mutating func removeAll() {
        segments = []
        firstId = 0
    }
}
