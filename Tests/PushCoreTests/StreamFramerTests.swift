import PushCore
import Testing
import PushJSON
import TestSupport

/// What the framer produced, in order.
enum Framed: Equatable, CustomStringConvertible {
    case frame(String)
    case unexpected
    case tooLarge

    var description: String {
        switch self {
        case .frame(let text): "frame \(text)"
        case .unexpected: "unexpected"
        case .tooLarge: "tooLarge"
        }
    }
}

/// Feeds `bytes` to a framer `chunk` bytes at a time, draining it after every append.
func frame(_ bytes: [UInt8], chunk: Int, limit: Int = 64 * 1024) -> [Framed] {
    framing(bytes, chunk: chunk, limit: limit).framed
}

/// Like `frame`, also returning the error messages.
func framing(_ bytes: [UInt8], chunk: Int, limit: Int = 64 * 1024) -> (framed: [Framed], messages: [String]) {
    var framer = StreamFramer(limit: limit)
    var out: [Framed] = []
    var messages: [String] = []
    var index = 0
    drain: while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        framer.append(bytes[index..<end])
        index = end
        while true {
            do {
                guard let frame = try framer.next() else { break }
                out.append(.frame(String(decoding: frame, as: UTF8.self)))
            } catch {
                messages.append(error.description)
                if case .tooLarge = error {
                    out.append(.tooLarge)
                    break drain
                }
                out.append(.unexpected)
            }
        }
    }
    return (out, messages)
}

let chunkSizes = Array(1...64) + [Int.max]

@Suite("Stream framer")
struct StreamFramerTests {
    @Test("pretty and compact objects back to back", arguments: chunkSizes)
    func prettyAndCompact(chunk: Int) {
        let pretty = """
            {
              "aps" : {
                "alert" : "Hi",
                "badge" : 1,
              },
            }
            """
        let objects = [#"{"a":1}"#, #"{"b":[1,{"c":2}]}"#, pretty, "{}", #"{"op":"ping"}"#]
        let stream = objects[0] + objects[1] + "\n" + objects[2] + "  \n\t\r\n" + objects[3] + objects[4] + "\n"
        #expect(frame(Array(stream.utf8), chunk: chunk) == objects.map { .frame($0) })
    }

    @Test("braces, quotes and backslashes inside strings", arguments: chunkSizes)
    func stringsWithStructure(chunk: Int) {
        let objects = [
            #"{"s":"}{\"\\","t":"\\\\"}"#,
            #"{"u":"\"}","v":"{{{[[["}"#,
            #"{"w":"\\"}"#,
            #"{"x":"a\\\"}\\\\\"{"}"#,
        ]
        #expect(frame(Array(objects.joined(separator: " ").utf8), chunk: chunk) == objects.map { .frame($0) })
    }

    /// Strings are skipped by words, blocks and `memchr`: texts of every length with quotes,
    /// backslashes, braces and multi-byte characters anywhere (across the blocks and the reads),
    /// each object framed whole.
    @Test func stringsOfEveryShapeAreFramedWhole() {
        // A long plain run too: past 80 bytes of one string the framer searches with memchr.
        let pieces = [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "}", "{", "[", "]", "深", "😀", #"\\\""#, String(repeating: "z", count: 100)]
        let long = String(repeating: "z", count: 100)
        let escapedAfterALongRun = [#"{"a":""# + long + #"\"}{\\","b":1}"#, #"{"c":""# + long + #"\\"}"#]
        for chunk in [1, 7, 64, Int.max] {
            #expect(frame(Array(escapedAfterALongRun.joined().utf8), chunk: chunk) == escapedAfterALongRun.map { .frame($0) })
        }
        var random = SeededRandom(seed: 8)
        for _ in 0..<300 {
            var objects: [String] = []
            for _ in 0...Int(random.next() % 4) {
                let text = random.text(pieces, runs: 10, longestRun: 41)
                objects.append(#"{"k\"":""# + text + #"","n":[{"t":""# + text + #""}]}"#)
            }
            let stream = Array(objects.joined(separator: "\n").utf8)
            let chunk = 1 + Int(random.next() % 40)
            #expect(frame(stream, chunk: chunk) == objects.map { .frame($0) }, "chunk \(chunk): \(objects)")
            #expect(objects.allSatisfy { (try? JSON.parse($0)) != nil }, "\(objects)")
        }
    }

    @Test("UTF-8 split across reads", arguments: chunkSizes)
    func multiByteSplit(chunk: Int) throws {
        let objects = [#"{"t":"订单 1270339 已发货 😀"}"#, #"{"Ä":"Erdoğan 👨‍👩‍👧"}"#]
        let framed = frame(Array(objects.joined().utf8), chunk: chunk)
        #expect(framed == objects.map { .frame($0) })
        for case .frame(let text) in framed {
            #expect(try JSON.parse(text).objectValue != nil)
        }
    }

    @Test("an object over the limit ends the stream", arguments: chunkSizes)
    func overLimit(chunk: Int) {
        let small = #"{"a":"0123456789"}"#  // 18 bytes
        let big = #"{"a":""# + String(repeating: "x", count: 100) + #""}"#
        let (framed, messages) = framing(Array((small + big + small).utf8), chunk: chunk, limit: 32)
        #expect(framed == [.frame(small), .tooLarge])
        #expect(messages.last?.contains("32 bytes") == true)
    }

    @Test func anObjectExactlyAtTheLimitPasses() {
        let object = #"{"a":"0123456789"}"#
        #expect(frame(Array(object.utf8), chunk: 5, limit: object.utf8.count) == [.frame(object)])
        #expect(frame(Array(object.utf8), chunk: 5, limit: object.utf8.count - 1) == [.tooLarge])
    }

    @Test func afterTooLargeEveryCallFails() {
        var framer = StreamFramer(limit: 4)
        framer.append(Array(#"{"abc":1}{}"#.utf8))
        #expect(throws: FramingError.tooLarge(limit: 4)) { try framer.next() }
        #expect(throws: FramingError.tooLarge(limit: 4)) { try framer.next() }
    }

    @Test("junk between objects is reported and skipped", arguments: chunkSizes)
    func junk(chunk: Int) {
        let stream = #"{"a":1} hello {"b":2}]{"c":3}[1]"# + "\n" + #"{"d":4}"# + "\n"
        let (framed, messages) = framing(Array(stream.utf8), chunk: chunk)
        #expect(framed == [
            .frame(#"{"a":1}"#), .unexpected, .frame(#"{"b":2}"#), .unexpected, .frame(#"{"c":3}"#), .unexpected,
            .frame(#"{"d":4}"#),
        ])
        #expect(messages.count == 3)
        #expect(messages.first?.contains("\"hello\"") == true)
        #expect(messages.dropFirst().first?.contains("\"]\"") == true)
        #expect(messages.last?.contains("\"[1]\"") == true)
        #expect(messages.allSatisfy { $0.contains("expected a JSON object starting with '{'") })
    }

    @Test func longJunkIsCutInTheMessageAndNotBuffered() throws {
        var framer = StreamFramer(limit: 64)
        framer.append(Array(repeating: UInt8(ascii: "x"), count: 10_000))
        #expect(try framer.next() == nil)
        #expect(framer.bufferedCount == 0)
        framer.append(Array("{}".utf8))
        #expect(throws: FramingError.self) { try framer.next() }
        #expect(try framer.next() == Array("{}".utf8))
    }

    @Test("100 000-deep nesting is framed without recursion", arguments: [1, 7, 4096, Int.max])
    func deepNesting(chunk: Int) throws {
        let text = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        let framed = frame(Array(text.utf8), chunk: chunk, limit: 1 << 20)
        #expect(framed == [.frame(text)])
        #expect(frame(Array(text.utf8), chunk: chunk) == [.tooLarge])
        // The parser then refuses it cleanly.
        #expect(throws: WireError.self) { try Request.decode(frame: Array(text.utf8)) }
    }

    @Test("invalid UTF-8 passes the framer; decoding refuses it with the offset", arguments: [1, 2, 3, Int.max])
    func invalidUTF8(chunk: Int) throws {
        let bytes = Array(#"{"a":""#.utf8) + [0xFF, 0xFE] + Array(#""}{"op":"ping"}"#.utf8)
        var framer = StreamFramer()
        var frames: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + chunk)
            framer.append(bytes[index..<end])
            index = end
            while let frame = try framer.next() { frames.append(frame) }
        }
        #expect(frames.count == 2)
        let error = try #require(throws: WireError.self) { try Request.decode(frame: frames[0]) }
        #expect(error.message.contains("not valid UTF-8 at byte 6"))
        #expect(try Request.decode(frame: frames[1]) == .ping)
    }

    @Test func finishReportsACutObject() throws {
        var framer = StreamFramer()
        framer.append(Array(#"{"a":1}{"b":"#.utf8))
        #expect(try framer.next() == Array(#"{"a":1}"#.utf8))
        #expect(try framer.next() == nil)
        #expect(framer.hasPartialFrame)
        let error = try #require(throws: FramingError.self) { try framer.finish() }
        #expect(error.description.contains("ended inside an object"))
        #expect(!framer.hasPartialFrame)
        try framer.finish()
    }

    @Test func fillReadsStraightIntoTheBuffer() throws {
        var framer = StreamFramer()
        let source = Array(#"{"op":"ping"} {"op":"#.utf8)
        let count = framer.fill(capacity: 4096) { room in
            for (index, byte) in source.enumerated() { room[index] = byte }
            return source.count
        }
        #expect(count == source.count)
        #expect(try framer.next() == Array(#"{"op":"ping"}"#.utf8))
        #expect(try framer.next() == nil)
        let rest = Array(#""list"}"#.utf8)
        framer.fill(capacity: 16) { room in
            for (index, byte) in rest.enumerated() { room[index] = byte }
            return rest.count
        }
        #expect(try framer.next() == Array(#"{"op":"list"}"#.utf8))
        #expect(framer.bufferedCount == 0)
    }

    @Test func aLongStreamStaysSmall() throws {
        var framer = StreamFramer(limit: 256)
        let object = Array(#"{"op":"ping"}"#.utf8) + [0x0A]
        var count = 0
        for _ in 0..<20_000 {
            framer.append(object)
            while try framer.next() != nil { count += 1 }
        }
        #expect(count == 20_000)
        #expect(framer.bufferedCount == 0)
    }
}
