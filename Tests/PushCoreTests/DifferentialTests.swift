import Foundation
import PushCore
import TestSupport
import Testing
import PushJSON

/// The tape parser and the in-place push decoder against the reference reader and decoder in
/// `Reference/` — written apart from them (another design, sharing no code) so that a slip in
/// either shows up here: every input must get the same value or the same refusal — same
/// message, same offset — whether it is a real file, a generated payload or a mangled one.
///
/// `PUSHDECK_DIFFERENTIAL_ROUNDS` raises the number of generated inputs for a longer run.
@Suite("Tape parser and in-place decoder against the tree ones")
struct DifferentialTests {
    static let rounds = ProcessInfo.processInfo.environment["PUSHDECK_DIFFERENTIAL_ROUNDS"].flatMap(Int.init) ?? 1500

    /// Real files and samples, as they are.
    static func seeds() throws -> [[UInt8]] {
        var folders = CorpusTests.folders.map { PackagePaths.corpus.appendingPathComponent($0) }
        folders.append(PackagePaths.resources)
        var seeds = try folders.flatMap { folder in
            try PackagePaths.files(in: folder, endingWith: [".apns", ".json"]).map(PackagePaths.bytes(of:))
        }
        seeds += Self.tricky.map { Array($0.utf8) }
        seeds += Self.utf8Edges
        return seeds
    }

    /// UTF-8 at the edges of well-formedness (Unicode §3.9, table 3-7): the first and last
    /// sequences of each length and range, and what lies just outside them — encoded surrogates,
    /// overlong forms, past U+10FFFF, cut short, stray continuation bytes — in a string, in a
    /// member name and between values.
    static let utf8Edges: [[UInt8]] = {
        let sequences: [[UInt8]] = [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF],
            [0xF0, 0x80, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
            [0xE4, 0xB8], [0xF0, 0x9F, 0x98], [0x80], [0xBF, 0x80], [0xE4, 0x41, 0x42],
        ]
        let frames: [(before: String, after: String)] = [
            (#"{"aps":{"alert":"a"#, #"b"}}"#), (#"{"k"#, #"":1}"#), (#"{"a":1"#, "}"), (#"{"a":"\"#, #""}"#),
        ]
        var inputs: [[UInt8]] = []
        for sequence in sequences {
            for frame in frames { inputs.append(Array(frame.before.utf8) + sequence + Array(frame.after.utf8)) }
        }
        return inputs
    }()

    /// Inputs written to hit the corners: escaped and canonically-equal keys, duplicates,
    /// wrong types at every field the decoder reads, deep nesting, trailing commas.
    static let tricky: [String] = [
        #"{"\u0061ps":{"alert":"escaped key"}}"#,
        "{\"app\u{212A}ey\":\"kelvin.sign.app\",\"aps\":{}}",
        #"{"app\u212Aey":"escaped.kelvin"}"#,
        #"{"aps":{"alert":"a"},"aps":null}"#,
        #"{"aps":null,"aps":{"alert":"last wins"}}"#,
        #"{"aps":{"alert":{"title":1}}}"#,
        "{\"aps\":{\"alert\":{\"title\":\"\u{301}starts with a combining mark\",\"body\":\"e\u{301}\u{301}\"}}}",
        "{\"aps\":{\"alert\":\"\u{301}\"},\"Simulator Target Bundle\":\"\u{200D}\u{1F469}\"}",
        #"{"aps":{"alert":{"title":"a","title":1}}}"#,
        #"{"aps":{"alert":{"title":1,"title":"last"},"badge":1,"badge":"x"}}"#,
        #"{"aps":{"alert":{"title":"escaped","loc-key":"K","loc-args":["a"],"loc-args":null}}}"#,
        "{\"aps\":{\"alert\":{\"\u{212A}\":1,\"title-loc-key\":\"T\"}},\"app\u{212A}ey\":7}",
        #"{"aps":{"alert":{"loc-key":"K","loc-args":[1,"a",null,{"x":[true]}]}}}"#,
        #"{"aps":{"alert":{"title-loc-key":"T","title-loc-args":"not an array"}}}"#,
        #"{"aps":{"badge":"3"}}"#,
        #"{"aps":{"badge":-1}}"#,
        #"{"aps":{"badge":2147483648}}"#,
        #"{"aps":{"badge":1.0}}"#,
        #"{"aps":[]}"#,
        #"{"aps":{"alert":true}}"#,
        #"{"payload":"{\"title\":\"T\",\"content\":\"C\",\"url\":\"u\",\"mid\":7}","taskId":12}"#,
        #"{"payload":"{\"roomId\":15152}"}"#,
        "{\"payload\":\"{\u{301}\\\"title\\\":1}\"}",
        #"{"payload":7}"#,
        #"{"aps":{},"payload":7}"#,
        #"{"offLine":1,"autoBadge":" +2 "}"#,
        #"{"offLine":"yes"}"#,
        #"{"autoBadge":"+-1"}"#,
        #"{"autoBadge":"99999999999"}"#,
        #"{"autoBadge":{"n":1}}"#,
        #"{"taskId":[],"msgId":1}"#,
        #"{"_j_msgid":123456789012345678901}"#,
        #"{"Simulator Target Bundle":7}"#,
        #"{"Simulator Target Bundle":"","appId":"a.b"}"#,
        #"{"push_message":{"notification":{"title":"t","body":"b","url":"u"},"transmission":"{\"title\":\"x\"}"}}"#,
        #"{"notification":{"alert":"A","ios":{"alert":{"title":"t","body":"b"},"extras":{"url":"u"}},"android":{"title":"at","alert":"ab"}},"message":{"title":"m","msg_content":"mc","extras":{"url":"mu"}}}"#,
        #"{"notification":{"alert":"A","ios":{"alert":"i","badge":"+2"}},"message":{"msg_content":"m"}}"#,
        #"{"notification":{"ios":{"badge":"-1"}},"autoBadge":"3"}"#,
        #"{"notification":{"ios":{"badge":1.5}}}"#,
        #"{"notification":{"ios":{"badge":true}},"push_channel":{"ios":{"auto_badge":false}}}"#,
        #"{"notification":{"ios":{"badge":"7"}},"message":"text"}"#,
        #"{"push_message":{"transmission":"{\"title\":\"T\"}"},"push_channel":{"ios":{"aps":{"alert":{"title":"a"}},"auto_badge":"+1"}}}"#,
        #"{"push_channel":{"ios":{"aps":{"alert":"x"},"payload":"{\"url\":\"u\"}","auto_badge":"-2"}},"url":"top"}"#,
        #"{"push_message":{"notification":{"title":"n"},"transmission":"t"},"notification":{"alert":"j"}}"#,
        #"{"title":"\u00e9\u0301","content":"\ud83d\ude00","extras":{"url":""}}"#,
        "{\"aps\":{\"alert\":\"\(String(repeating: "x", count: 50))\"},\"autoBadge\":\"\(String(repeating: "y", count: 50))\"}",
        #"[1,2,]"#, #"{"a":1,}"#, #"{"a":[1,,2]}"#, "{\"a\":\"\u{7}\"}", "{\"a\":\"\\u12\"}", #"{"a":"\ud800"}"#,
        #"{"a":"\udc00"}"#, #"{"a":"\ud800\u0041"}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":1.}"#, #"{"a":1e}"#,
        #"{"a":tru}"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":1"#, #"{"a":"#, "", " ", "null", "\"text\"", "{} {}",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        "{\"a\":" + String(repeating: "{\"b\":", count: 520) + "1" + String(repeating: "}", count: 521),
    ]

    @Test func seedsParseAndDecodeTheSame() throws {
        for seed in try Self.seeds() { try Self.compare(seed) }
    }

    @Test func generatedPayloadsParseAndDecodeTheSame() throws {
        var generator = PayloadGenerator(seed: 0x5EED_0001)
        for _ in 0..<Self.rounds {
            try Self.compare(Array(generator.payload().utf8))
        }
    }

    @Test func mangledInputsParseAndDecodeTheSame() throws {
        var generator = PayloadGenerator(seed: 0x5EED_0002)
        let seeds = try Self.seeds()
        for round in 0..<Self.rounds {
            let base = round % 3 == 0 ? seeds[round % seeds.count] : Array(generator.payload().utf8)
            try Self.compare(generator.mangle(base))
        }
    }

    @Test func pushRequestsWithAnOpReadTheirPayloadInPlace() throws {
        var generator = PayloadGenerator(seed: 0x5EED_0003)
        for round in 0..<Self.rounds / 3 {
            let payload = generator.payload()
            let app = round % 2 == 0 ? #","app":"com.example.op""# : ""
            let frame = Array((#"{"op":"push","payload":"# + payload + app + "}").utf8)
            try Self.compare(frame)
        }
    }

    // MARK: - Comparing

    /// One input through both parsers, both payload decoders and the request path.
    static func compare(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(Outcome { try JSON.parse(bytes) } == Outcome { try ReferenceJSONParser.parse(bytes) }, "\(text)")

        let decoder = PushDecoder(maxPayloadBytes: 1 << 20)
        let reference = ReferencePushDecoder(maxPayloadBytes: 1 << 20)
        #expect(
            Outcome { try decoder.decode(payload: bytes) } == Outcome { try reference.decode(payload: bytes) }, "\(text)")

        // A request read in place decodes as its payload text does, parsed again from scratch.
        guard case .push(let request)? = try? Request.decode(frame: bytes) else { return }
        let again = PushRequest(payloadText: request.payloadText, app: request.app, channel: request.channel, offline: request.offline)
        #expect(Outcome { try decoder.decode(request) } == Outcome { try reference.decode(again) }, "\(text)")
    }
}

/// A value or the error's full description (message, offset and kind for `JSONError`).
enum Outcome<Value: Equatable>: Equatable {
    case value(Value)
    case refusal(String)

    init(_ body: () throws -> Value) {
        do {
            self = .value(try body())
        } catch let error as JSONError {
            self = .refusal("\(error.kind) \(error.offset) \(error.message)")
        } catch {
            self = .refusal("\(error)")
        }
    }
}

/// Push payloads built from the keys the decoder reads, with values of every kind.
struct PayloadGenerator {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    static let topKeys = [
        "aps", "aps", "payload", "taskId", "msgId", "_j_msgid", "offLine", "autoBadge", "url", "title", "subtitle",
        "content", "message", "alert", "body", "extras", "push_message", "notification", "push_channel", "Simulator Target Bundle",
        "Simulate Target Bundle", "appId", "appKey", "app\u{212A}ey", #"\u0061ps"#, "orderId",
    ]
    static let innerKeys = [
        "alert", "alert", "badge", "title", "subtitle", "body", "title-loc-key", "title-loc-args", "subtitle-loc-key",
        "subtitle-loc-args", "loc-key", "loc-args", "url", "content", "mid", "transmission", "notification", "ios",
        "android", "extras", "msg_content", "sound", "t\u{0301}itle", "aps", "auto_badge", "payload",
    ]
    static let scalars = [
        "null", "true", "false", "0", "1", "-1", "7", "2147483647", "2147483648", "1.5", "1e3", "-0",
        "12345678901234567890", #""""#, #""hello""#, #""订单 1270339 已发货""#, #""😀 emoji""#, #""+3""#, #"" -2 ""#,
        #""5""#, #""a\nb""#, #""\u0041\u4e2d""#, #""{\"title\":\"T\",\"content\":\"C\",\"url\":\"u\",\"mid\":\"m\"}""#,
        #""{\"roomId\":1}""#, #""{""#, "\"e\u{301}\"", "\"\(String(repeating: "long ", count: 10))\"", "\"\u{212A}\"",
        #""com.example.shop""#,
    ]

    private mutating func below(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    private mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    /// A payload: an object of top-level keys, now and then something else.
    mutating func payload() -> String {
        if below(40) == 0 { return value(depth: 2) }
        return object(keys: Self.topKeys, depth: 3)
    }

    private mutating func object(keys: [String], depth: Int) -> String {
        let count = below(6)
        var members: [String] = []
        for _ in 0..<count {
            members.append("\"\(pick(keys))\"\(pick(["", " "])):\(value(depth: depth - 1))")
        }
        let trailing = below(8) == 0 && !members.isEmpty ? "," : ""
        return "{" + members.joined(separator: pick([",", ", ", ",\n"])) + trailing + "}"
    }

    private mutating func value(depth: Int) -> String {
        guard depth > 0 else { return pick(Self.scalars) }
        switch below(10) {
        case 0..<5: return pick(Self.scalars)
        case 5..<8: return object(keys: Self.innerKeys, depth: depth)
        default:
            let elements = (0..<below(4)).map { _ in value(depth: depth - 1) }
            return "[" + elements.joined(separator: ",") + "]"
        }
    }

    /// `bytes` with a few bytes deleted, inserted, replaced or the end cut off.
    mutating func mangle(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let interesting: [UInt8] = Array("{}[]\",:\\ u0ae-+.".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE4, 0xED, 0xF0, 0xF4, 0xFF]
        for _ in 0...below(3) {
            let at = bytes.isEmpty ? 0 : below(bytes.count)
            switch below(4) {
            case 0 where !bytes.isEmpty: bytes.remove(at: at)
            case 1: bytes.insert(pick(interesting), at: at)
            case 2 where !bytes.isEmpty: bytes[at] = pick(interesting)
            default: bytes = Array(bytes.prefix(at))
            }
        }
        return bytes
    }
}
