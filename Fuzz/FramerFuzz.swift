import PushCore

/// Fuzz target: the stream framer.
///
/// The input is a byte stream. It is framed twice — whole, and in a random chunking derived from
/// the input (1 to 97 bytes at a time, some through `fill`) — and both runs must give the same
/// frames and errors. Every frame must be one complete object: it starts with `{`, ends with the
/// bracket that brings the depth back to 0 and nothing shorter does, it fits the limit, and the
/// frames appear in the stream in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let limit = 2048
    let whole = frame(input, limit: limit, chunking: nil)
    var random = InputRandom(input)
    let chunked = frame(input, limit: limit, chunking: &random)
    require(whole == chunked, "chunking changed the outcome: \(whole) vs \(chunked)")

    var searchFrom = 0
    let bytes = Array(input)
    for case .frame(let frame) in whole {
        require(frame.count <= limit, "a frame of \(frame.count) bytes passed the \(limit)-byte limit")
        require(frame.first == UInt8(ascii: "{"), "a frame does not start with '{'")
        require(closesOnlyAtEnd(frame), "a frame is not exactly one object: \(String(decoding: frame, as: UTF8.self))")
        guard let at = find(frame, in: bytes, from: searchFrom) else {
            require(false, "a frame is not a slice of the stream after the previous one")
            return 0
        }
        searchFrom = at + frame.count
    }
    return 0
}

/// What the framer handed out, in order.
enum Outcome: Equatable, CustomStringConvertible {
    case frame([UInt8])
    case error(FramingError)
    var description: String {
        switch self {
        case .frame(let bytes): "frame(\(bytes.count))"
        case .error(let error): "error(\(error))"
        }
    }
}

/// Frames the input whole (chunking nil) or in random chunks; stops after `tooLarge`.
func frame(_ input: UnsafeBufferPointer<UInt8>, limit: Int, chunking: UnsafeMutablePointer<InputRandom>?) -> [Outcome] {
    var framer = StreamFramer(limit: limit)
    var outcomes: [Outcome] = []
    var offset = 0
    while offset < input.count {
        let count = chunking.map { min($0.pointee.upTo(97), input.count - offset) } ?? input.count
        let chunk = UnsafeBufferPointer(rebasing: input[offset..<offset + count])
        if let chunking, chunking.pointee.next() % 4 == 0 {
            framer.fill(capacity: count) { room in
                _ = room.initialize(from: chunk)
                return count
            }
        } else {
            framer.append(chunk)
        }
        offset += count
        if drain(&framer, into: &outcomes) { return outcomes }
    }
    do {
        try framer.finish()
    } catch {
        outcomes.append(.error(error))
    }
    return outcomes
}

/// Takes every frame available now; true once the stream can no longer be framed.
func drain(_ framer: inout StreamFramer, into outcomes: inout [Outcome]) -> Bool {
    while true {
        do {
            guard let frame = try framer.next() else { return false }
            outcomes.append(.frame(frame))
        } catch {
            outcomes.append(.error(error))
            if case .tooLarge = error { return true }
        }
    }
}

/// True when the brackets outside strings come back to depth 0 at the last byte and not before.
func closesOnlyAtEnd(_ frame: [UInt8]) -> Bool {
    var depth = 0
    var inString = false
    var escaped = false
    for (index, byte) in frame.enumerated() {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 { return index == frame.count - 1 }
        default: break
        }
    }
    return false
}

func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard needle.count <= haystack.count - start else { return nil }
    var index = start
    while index + needle.count <= haystack.count {
        if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
        index += 1
    }
    return nil
}
