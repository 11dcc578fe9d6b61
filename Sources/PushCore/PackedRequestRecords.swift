import Foundation

/// The request log's records as it keeps them: a ring of fixed-size slots (seq, the two times,
/// the vendor, where the rest is) and the rest of each record packed into one run of bytes in a
/// `ByteArena`, the short strings a log repeats (method, app, reason, id names) numbered once in
/// a `NameTable`. A `ProviderRequestRecord` is built again only when one is read. A record of a
/// push costs its slot and about its path's length again, where the record itself held eight
/// heap blocks of its own.
///
/// One record's bytes, in order (an integer is a LEB128 varint, a signed one zigzag-coded):
/// a flags byte (which optional fields follow), the status, the method, the path, the count of
/// tokens and each token, the app, the reason, retry-after, the count of ids and each name and
/// value, the notification key, the fault. A text is a varint tag whose two low bits say how
/// the text is kept and whose high bits are a number: 0, that many bytes follow; 1, the name of
/// that number; 2, a splice: that many bytes, then the offset and length of bytes earlier in
/// the same record (the first token's), then a count and that many bytes. The first token is
/// the one a path and a notification key repeat (`/3/device/{token}`, `token:{token}:…`), so
/// it is kept once.
struct PackedRequestRecords: Sendable {
    /// One record's fixed part; the rest is at `place` in the arena.
    struct Slot: Sendable {
        var seq: Int
        /// `Date.timeIntervalSinceReferenceDate`, which a `Date` is, exactly.
        var receivedAt: Double
        var answeredAt: Double
        var place: ByteArena.Place
        /// The index of the vendor in `vendors`.
        var vendor: UInt8
    }

    /// Which optional fields a record's bytes hold.
    enum Flag {
        static let app: UInt8 = 1
        static let reason: UInt8 = 2
        static let retryAfter: UInt8 = 4
        static let notificationKey: UInt8 = 8
        static let fault: UInt8 = 16
    }

    static let vendors = Via.allCases

    let capacity: Int
    /// A ring once full: the oldest record is at `start`.
    private var slots: [Slot] = []
    private var start = 0
    private var arena = ByteArena()
    private var names = NameTable()

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { slots.count }
    /// How many arena segments the records' bytes take (a test's window on the arena).
    var segmentCount: Int { arena.segmentCount }

    /// Keeps `record`; past `capacity` the oldest goes.
    mutating func append(_ record: ProviderRequestRecord) {
        var encoder = RecordEncoder()
        encoder.encode(record, names: &names)
        let vendor = UInt8(truncatingIfNeeded: Self.vendors.firstIndex(of: record.vendor) ?? 0)
        var slot = Slot(
            seq: record.seq, receivedAt: record.receivedAt.timeIntervalSinceReferenceDate,
            answeredAt: record.answeredAt.timeIntervalSinceReferenceDate, place: ByteArena.Place(segment: 0, offset: 0), vendor: vendor)
        if slots.count < capacity {
            // Grown by doubling up to the capacity, not past it.
            if slots.count == slots.capacity { slots.reserveCapacity(min(capacity, max(64, slots.count * 2))) }
            slot.place = arena.store(encoder.bytes)
            slots.append(slot)
        } else {
            // The oldest's bytes are let go of first, so a log of one record reuses its segment.
            arena.release(slots[start].place.segment)
            slot.place = arena.store(encoder.bytes)
            slots[start] = slot
            start = (start + 1) % capacity
        }
    }

    mutating func removeAll() {
        slots = []
        start = 0
        arena.removeAll()
        names.removeAll()
    }

    // MARK: Reading, by index from the oldest (0) to the newest (count - 1)

    private func slot(_ index: Int) -> Slot { slots[(start + index) % slots.count] }

    func seq(at index: Int) -> Int { slot(index).seq }

    func vendor(at index: Int) -> Via {
        let code = Int(slot(index).vendor)
        return Self.vendors.indices.contains(code) ? Self.vendors[code] : .socket
    }

    private func reader(_ slot: Slot) -> RecordReader {
        RecordReader(bytes: arena.bytes(of: slot.place.segment), base: Int(slot.place.offset))
    }

    /// The whole record.
    func record(at index: Int) -> ProviderRequestRecord {
        let slot = slot(index)
        var reader = reader(slot)
        let flags = reader.byte()
        let status = reader.int()
        let method = reader.text(names)
        let path = reader.text(names)
        let tokenCount = reader.count()
        var tokens: [String] = []
        tokens.reserveCapacity(tokenCount)
        for _ in 0..<tokenCount { tokens.append(reader.text(names)) }
        let app = flags & Flag.app != 0 ? reader.text(names) : nil
        let reason = flags & Flag.reason != 0 ? reader.text(names) : nil
        let retryAfter = flags & Flag.retryAfter != 0 ? reader.int() : nil
        let ids = reader.ids(names)
        let notificationKey = flags & Flag.notificationKey != 0 ? reader.text(names) : nil
        let fault = flags & Flag.fault != 0 ? reader.int() : nil
        return ProviderRequestRecord(
            seq: slot.seq, receivedAt: Date(timeIntervalSinceReferenceDate: slot.receivedAt),
            answeredAt: Date(timeIntervalSinceReferenceDate: slot.answeredAt), vendor: vendor(at: index), method: method, path: path,
            tokens: tokens, app: app, status: status, reason: reason, retryAfter: retryAfter, ids: ids, notificationKey: notificationKey,
            fault: fault)
    }

    /// The record's status, read alone.
    func status(at index: Int) -> Int {
        var reader = reader(slot(index))
        _ = reader.byte()
        return reader.int()
    }

    /// The record's ids, read without the texts before them.
    func ids(at index: Int) -> [String: String] {
        var reader = reader(slot(index))
        reader.skipToIds()
        return reader.ids(names)
    }

    /// Whether the record's notification key is `key` (both nil, or the same bytes), read
    /// without building a string.
    func notificationKey(at index: Int, is key: String?) -> Bool {
        var reader = reader(slot(index))
        let flags = reader.skipToIds()
        let idCount = reader.count()
        for _ in 0..<idCount {
            reader.skipText()
            reader.skipText()
        }
        guard flags & Flag.notificationKey != 0 else { return key == nil }
        guard var key else { return false }
        return key.withUTF8 { reader.text(names, equals: $0) }
    }
}

// MARK: - Writing one record

struct RecordEncoder {
    private(set) var bytes: [UInt8] = []
    /// The first token and where its bytes are in `bytes`, once written: a later text that
    /// holds it refers to them.
    private var anchor: (text: String, bytes: Range<Int>)?
    /// A token shorter than this is not worth a reference.
    static let shortestAnchor = 8

    mutating func encode(_ record: ProviderRequestRecord, names: inout NameTable) {
        bytes.reserveCapacity(64 + record.path.utf8.count + (record.notificationKey?.utf8.count ?? 0))
        var flags: UInt8 = 0
        if record.app != nil { flags |= PackedRequestRecords.Flag.app }
        if record.reason != nil { flags |= PackedRequestRecords.Flag.reason }
        if record.retryAfter != nil { flags |= PackedRequestRecords.Flag.retryAfter }
        if record.notificationKey != nil { flags |= PackedRequestRecords.Flag.notificationKey }
        if record.fault != nil { flags |= PackedRequestRecords.Flag.fault }
        bytes.append(flags)
        int(record.status)
        name(record.method, names: &names)
        let path = literal(record.path)
        varint(UInt64(record.tokens.count))
        for (index, token) in record.tokens.enumerated() {
            if index == 0 { first(token, path: record.path, at: path) } else { text(token) }
        }
        if let app = record.app { name(app, names: &names) }
        if let reason = record.reason { name(reason, names: &names) }
        if let retryAfter = record.retryAfter { int(retryAfter) }
        varint(UInt64(record.ids.count))
        for (key, value) in record.ids {
            name(key, names: &names)
            text(value)
        }
        if let key = record.notificationKey { text(key) }
        if let fault = record.fault { int(fault) }
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Zigzag: small magnitudes of either sign take few bytes.
    private mutating func int(_ value: Int) {
        let wide = Int64(value)
        varint(UInt64(bitPattern: wide << 1) ^ UInt64(bitPattern: wide >> 63))
    }

    /// `text` as its bytes; where they are.
    @discardableResult
    private mutating func literal(_ text: String) -> Range<Int> {
        varint(UInt64(text.utf8.count) << 2)
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return start..<bytes.count
    }

    /// `text` by its number when the table has it or room for it, else as its bytes.
    private mutating func name(_ text: String, names: inout NameTable) {
        if let number = names.number(of: text) { varint(UInt64(number) << 2 | 1) } else { literal(text) }
    }

    /// The first token: a reference to the path's bytes when the path holds it, else its bytes.
    private mutating func first(_ token: String, path: String, at pathBytes: Range<Int>) {
        guard token.utf8.count >= Self.shortestAnchor else {
            literal(token)
            return
        }
        var token = token
        var path = path
        let found = token.withUTF8 { needle in path.withUTF8 { Self.firstIndex(of: needle, in: $0) } }
        if let found {
            let start = pathBytes.lowerBound + found
            anchor = (token, start..<start + token.utf8.count)
            splice(prefix: UnsafeBufferPointer(start: nil, count: 0), suffix: UnsafeBufferPointer(start: nil, count: 0))
        } else {
            anchor = (token, literal(token))
        }
    }

    /// Any other text: a splice around the first token when it holds it, else its bytes.
    private mutating func text(_ text: String) {
        guard var anchorText = anchor?.text else {
            literal(text)
            return
        }
        var text = text
        let spliced = text.withUTF8 { utf8 in
            guard let found = anchorText.withUTF8({ Self.firstIndex(of: $0, in: utf8) }) else { return false }
            splice(
                prefix: UnsafeBufferPointer(rebasing: utf8[..<found]),
                suffix: UnsafeBufferPointer(rebasing: utf8[(found + anchorText.utf8.count)...]))
            return true
        }
        if !spliced { literal(text) }
    }

    private mutating func splice(prefix: UnsafeBufferPointer<UInt8>, suffix: UnsafeBufferPointer<UInt8>) {
        guard let anchor else { return }
        varint(UInt64(prefix.count) << 2 | 2)
        bytes.append(contentsOf: prefix)
        varint(UInt64(anchor.bytes.lowerBound))
        varint(UInt64(anchor.bytes.count))
        varint(UInt64(suffix.count))
        bytes.append(contentsOf: suffix)
    }

    /// Where `needle` first occurs in `haystack`.
    static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let wanted = needle.baseAddress, let base = haystack.baseAddress, !needle.isEmpty, needle.count <= haystack.count else {
            return nil
        }
        let first = wanted.pointee
        for index in 0...(haystack.count - needle.count) where base[index] == first {
            if memcmp(base + index, wanted, needle.count) == 0 { return index }
        }
        return nil
    }
}

// MARK: - Reading one record

struct RecordReader {
    /// The record's segment, and where the record starts in it.
    let bytes: [UInt8]
    let base: Int
    private var at: Int

    init(bytes: [UInt8], base: Int) {
        self.bytes = bytes
        self.base = base
        self.at = base
    }

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return bytes[at]
    }

    mutating func varint() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64 {
            let next = byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { break }
            shift += 7
        }
        return value
    }

    mutating func count() -> Int { Int(truncatingIfNeeded: varint()) }

    mutating func int() -> Int {
        let coded = varint()
        return Int(truncatingIfNeeded: Int64(bitPattern: (coded >> 1) ^ (0 &- (coded & 1))))
    }

    /// A text's parts: its own bytes before, the referred bytes, its own bytes after (a
    /// literal is all before; a name is none of them).
    private enum Kept {
        case bytes(Range<Int>, Range<Int>, Range<Int>)
        case name(Int)
    }

    private mutating func kept() -> Kept {
        let tag = varint()
        let number = Int(truncatingIfNeeded: tag >> 2)
        switch tag & 3 {
        case 1:
            return .name(number)
        case 2:
            let prefix = at..<at + number
            at += number
            let offset = base + count()
            let reference = offset..<offset + count()
            let suffixCount = count()
            let suffix = at..<at + suffixCount
            at += suffixCount
            return .bytes(prefix, reference, suffix)
        default:
            let literal = at..<at + number
            at += number
            return .bytes(literal, at..<at, at..<at)
        }
    }

    mutating func text(_ names: NameTable) -> String {
        switch kept() {
        case .name(let number):
            return names.name(number)
        case .bytes(let prefix, let reference, let suffix):
            if reference.isEmpty && suffix.isEmpty { return String(decoding: bytes[prefix], as: UTF8.self) }
            let total = prefix.count + reference.count + suffix.count
            return bytes.withUnsafeBufferPointer { source in
                String(unsafeUninitializedCapacity: total) { target in
                    var written = 0
                    func copy(_ part: Range<Int>) {
                        written = UnsafeMutableBufferPointer(rebasing: target[written..<written + part.count])
                            .initialize(fromContentsOf: source[part]) + written
                    }
                    copy(prefix)
                    copy(reference)
                    copy(suffix)
                    return written
                }
            }
        }
    }

    mutating func skipText() { _ = kept() }

    /// Whether the next text is `utf8`, byte for byte.
    mutating func text(_ names: NameTable, equals utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kept() {
        case .name(let number):
            return names.name(number).utf8.elementsEqual(utf8)
        case .bytes(let prefix, let reference, let suffix):
            guard prefix.count + reference.count + suffix.count == utf8.count else { return false }
            let tail = prefix.count + reference.count
            return bytes[prefix].elementsEqual(utf8[..<prefix.count]) && bytes[reference].elementsEqual(utf8[prefix.count..<tail])
                && bytes[suffix].elementsEqual(utf8[tail...])
        }
    }

    /// Reads up to the ids (the flags byte, the status, the method, the path, the tokens, the
    /// app, the reason, retry-after); the flags.
    @discardableResult
    mutating func skipToIds() -> UInt8 {
        let flags = byte()
        _ = varint()
        skipText()
        skipText()
        for _ in 0..<count() { skipText() }
        if flags & PackedRequestRecords.Flag.app != 0 { skipText() }
        if flags & PackedRequestRecords.Flag.reason != 0 { skipText() }
        if flags & PackedRequestRecords.Flag.retryAfter != 0 { _ = varint() }
        return flags
    }

    mutating func ids(_ names: NameTable) -> [String: String] {
        let idCount = count()
        var ids: [String: String] = [:]
        guard idCount > 0 else { return ids }
        ids.reserveCapacity(idCount)
        for _ in 0..<idCount {
            let key = text(names)
            ids[key] = text(names)
        }
        return ids
    }
}
