import Foundation
import PushJSON

/// Why the framer could not produce a frame.
public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An object grew past the limit; the stream can no longer be framed (close the connection).
    case tooLarge(limit: Int)
    /// Bytes that cannot start an object were skipped; the stream goes on at the next `{`.
    case unexpected(String)

    /// The text of the error reply.
    public var description: String {
        switch self {
        case .tooLarge(let limit):
            "request is larger than the limit of \(limit) bytes; the connection is closed"
        case .unexpected(let message):
            message
        }
    }
}

/// Splits a byte stream into JSON objects sent back to back.
///
/// An object ends where its top-level `{` closes; whitespace between objects is skipped. Only
/// the structure is tracked (a depth counter, whether inside a string, after a backslash), so
/// state survives any split between reads, deep nesting costs nothing, and every byte is
/// scanned once. Whether a frame is valid JSON is the parser's business.
public struct StreamFramer: Sendable {
    public let limit: Int

    /// Bytes received and not yet handed out; `buffer[start...]` is live.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where scanning resumes.
    private var scan = 0
    /// Where the object being scanned began, or nil between objects.
    private var frameStart: Int?
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Bytes that cannot start an object, while they are being skipped (the first few, for the
    /// message), or nil.
    private var junk: [UInt8]?
    private var failed = false

    private static let junkPreview = 24

    public init(limit: Int = 64 * 1024) { self.limit = limit }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream without an intermediate copy: `body` gets room for up to
    /// `capacity` bytes (e.g. for `read(2)`) and returns how many it filled (0 or less: none).
    @discardableResult
    public mutating func fill<E: Error>(
        capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Int
    ) throws(E) -> Int {
        compact()
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: capacity))
        let filled: Result<Int, E> = buffer.withUnsafeMutableBufferPointer { whole in
            let room = UnsafeMutableBufferPointer(rebasing: whole[oldCount...])
            return Result { () throws(E) in try body(room) }
        }
        switch filled {
        case .success(let count):
            let kept = min(max(count, 0), capacity)
            buffer.removeLast(capacity - kept)
            return kept
        case .failure(let error):
            buffer.removeLast(capacity)
            throw error
        }
    }

    /// Bytes held: an unfinished object, or received but not yet framed.
    public var bufferedCount: Int { buffer.count - start }

    /// True when an object has begun and not yet closed (the stream ending now would cut it).
    public var hasPartialFrame: Bool { frameStart != nil }

    /// The next complete object's bytes, nil when more input is needed.
    ///
    /// Throws `.unexpected` once per run of bytes that cannot start an object (then goes on),
    /// and `.tooLarge` when an object passes the limit (every later call throws it too).
    public mutating func next() throws(FramingError) -> [UInt8]? {
        if failed { throw .tooLarge(limit: limit) }
        // A second reference to the storage (no copy): `scanFrame` mutates `self` meanwhile.
        let received = buffer
        let result: Result<Range<Int>?, FramingError> = received.withUnsafeBufferPointer { bytes in
            Result { () throws(FramingError) in try scanFrame(in: bytes) }
        }
        guard let range = try result.get() else { return nil }
        return Array(received[range])
    }

    /// Call when the stream ended: throws if it ended inside an object or inside junk.
    public mutating func finish() throws(FramingError) {
        if let junk {
            self.junk = nil
            throw .unexpected(Self.junkMessage(junk, atEnd: true))
        }
        if let frameStart {
            let count = buffer.count - frameStart
            self.frameStart = nil
            start = buffer.count
            scan = start
            depth = 0
            inString = false
            escaped = false
            throw .unexpected("the stream ended inside an object (\(count) bytes without its closing '}')")
        }
    }

    // MARK: - Scanning

    /// Scans from where it stopped; returns a complete frame's range and moves past it.
    private mutating func scanFrame(in bytes: UnsafeBufferPointer<UInt8>) throws(FramingError) -> Range<Int>? {
        var index = scan
        let end = bytes.count
        defer { scan = index }
        while index < end {
            guard let frameStart else {
                // Between objects.
                let byte = bytes[index]
                switch byte {
                case ascii("{"):
                    if let junk {
                        self.junk = nil
                        start = index
                        throw .unexpected(Self.junkMessage(junk, atEnd: false))
                    }
                    self.frameStart = index
                    depth = 1
                    index += 1
                case 0x20, 0x0A, 0x0D, 0x09:
                    if let junk {
                        self.junk = nil
                        index += 1
                        start = index
                        throw .unexpected(Self.junkMessage(junk, atEnd: false))
                    }
                    index += 1
                    start = index
                default:
                    if junk == nil { junk = [] }
                    if let count = junk?.count, count < Self.junkPreview { junk?.append(byte) }
                    index += 1
                    start = index
                }
                continue
            }
            // Inside an object: to its closing brace, or to the end of what has come.
            let closed = scanObject(bytes, from: &index)
            if index - frameStart > limit { return try fail() }
            guard closed else { return nil }
            self.frameStart = nil
            start = index
            return frameStart..<index
        }
        return nil
    }

    /// Moves `index` through an object's bytes to just past its closing brace (true) or to the
    /// end (false), keeping the depth and whether it is in a string or after a backslash.
    @inline(__always)
    private mutating func scanObject(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Bool {
        let end = bytes.count
        while index < end {
            if escaped {
                // The byte after a backslash, which may have come in this read.
                escaped = false
                index += 1
            } else if inString {
                index = Self.quoteOrBackslash(in: bytes, from: index)
                guard index < end else { return false }
                if bytes[index] == ascii("\"") { inString = false } else { escaped = true }
                index += 1
            } else {
                let byte = bytes[index]
                index += 1
                switch byte {
                case ascii("\""): inString = true
                case ascii("{"), ascii("["): depth += 1
                case ascii("}"), ascii("]"):
                    depth -= 1
                    if depth == 0 { return true }
                default: break
                }
            }
        }
        return false
    }

    /// Where the first `"` or `\` of `bytes[from...]` is, or the end: most of a payload's bytes
    /// are inside strings, and most strings are short (a key, a title) — two calls of `memchr` a
    /// string cost more than its text. Two words of eight bytes as one integer each, then up to
    /// four blocks of sixteen bytes as SSE2 compares them, then `memchr` for a long text; the
    /// block that holds one, or the last few bytes, by words again.
    ///
    /// `(w ^ c) - 0x01…` borrows into a byte's top bit where that byte of `w` equals `c`; `& ~(w ^
    /// c)` keeps only those. A borrow can make a later byte look flagged, never hide one or flag
    /// an earlier one: a clean word holds neither byte, and a flagged word's first flag is one.
    @inline(__always)
    private static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        /// The flags of the word at `index`: nonzero when it holds a quote or a backslash.
        @inline(__always) func flags(at index: Int) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* UInt64(ascii("\"")))
            let backslash = word ^ (ones &* UInt64(ascii("\\")))
            return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & 0x8080_8080_8080_8080
        }
        var index = start
        // Most strings (a key, a title) end within two words: those by words, then blocks.
        for _ in 0..<2 where index + 8 <= bytes.count {
            let found = flags(at: index)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        let quotes = SIMD16<UInt8>(repeating: ascii("\"")), backslashes = SIMD16<UInt8>(repeating: ascii("\\"))
        var blocks = 0
        while blocks < 4, index + 16 <= bytes.count {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            if any((block .== quotes) .| (block .== backslashes)) { break }
            index += 16
            blocks += 1
        }
        if blocks == 4 { return longTextEnd(base, from: index, to: bytes.count) }
        while index + 8 <= bytes.count {
            let found = flags(at: index)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count, bytes[index] != ascii("\""), bytes[index] != ascii("\\") { index += 1 }
        return index
    }

    /// Past 80 bytes of one string (a long body, a padded payload) `memchr` goes faster than the
    /// blocks: the quote, and a backslash before it; `end` when neither comes.
    private static func longTextEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        func find(_ byte: UInt8, before limit: Int) -> Int? {
            memchr(base + start, Int32(byte), limit - start).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
        }
        let quote = find(ascii("\""), before: end) ?? end
        return find(ascii("\\"), before: quote) ?? quote
    }

    private mutating func fail() throws(FramingError) -> Range<Int>? {
        failed = true
        buffer = []
        start = 0
        frameStart = nil
        throw .tooLarge(limit: limit)
    }

    /// Drops handed-out bytes once they are at least half the buffer, so appends stay amortized O(1).
    private mutating func compact() {
        guard start > 0, start >= buffer.count / 2 else { return }
        buffer.removeSubrange(0..<start)
        scan -= start
        if let frameStart { self.frameStart = frameStart - start }
        start = 0
    }

    private static func junkMessage(_ junk: [UInt8], atEnd: Bool) -> String {
        let preview = String(decoding: junk, as: UTF8.self)
        let more = junk.count >= junkPreview ? "…" : ""
        let whereText = atEnd ? "at the end of the stream" : "between objects"
        return "unexpected \"\(preview)\(more)\" \(whereText); expected a JSON object starting with '{' (skipped up to the next '{' or whitespace)"
    }
}
