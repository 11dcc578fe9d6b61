import Foundation
import PushCore
import Testing
import TestSupport
@testable import PushJSON

@Suite("JSON parser")
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSON.parse(#" { "s": "text", "n": -12.50e+3, "t": true, "f": false, "z": null, "a": [1, [], {}], "o": {"k": "v"} } "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["s", "n", "t", "f", "z", "a", "o"])
        #expect(object["s"] == "text")
        #expect(object["n"]?.numberValue?.text == "-12.50e+3")
        #expect(object["t"] == true)
        #expect(object["f"] == false)
        #expect(object["z"] == .null)
        #expect(object["a"] == [1, [], .object(JSONObject())])
        #expect(object["o"] == ["k": "v"])
    }

    @Test func scalarsAtTopLevel() throws {
        #expect(try JSON.parse("17") == 17)
        #expect(try JSON.parse(" \"x\" ") == "x")
        #expect(try JSON.parse("null") == .null)
        #expect(try JSON.parse("[]") == [])
    }

    @Test func numbersKeepTheirText() throws {
        for text in ["0", "-0", "1.50", "1E+3", "12345678901234567890123", "-0.000001e-7"] {
            #expect(try JSON.parse(text).numberValue?.text == text)
        }
        #expect(try JSON.parse("12345678901234567890123").intValue == nil)
        #expect(try JSON.parse("42").intValue == 42)
    }

    @Test func escapesAndSurrogatePairs() throws {
        let value = try JSON.parse(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u4e2d\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{c}\n\r\tAé中😀"))
    }

    @Test func multiByteUTF8IsKept() throws {
        let value = try JSON.parse(#"{"订单":"1270339 已发货 🎉","Ä":"Erdoğan"}"#)
        #expect(value.objectValue?["订单"] == "1270339 已发货 🎉")
        #expect(value.objectValue?["Ä"] == "Erdoğan")
    }

    @Test func duplicateKeysAreKeptAndTheLastWins() throws {
        let object = try #require(try JSON.parse(#"{"a":1,"a":2}"#).objectValue)
        #expect(object.members.count == 2)
        #expect(object["a"] == 2)
    }

    @Test("trailing commas are accepted, as Apple's parser does", arguments: [
        ("[1,]", JSON.array([1])),
        ("[1, 2 , ]", JSON.array([1, 2])),
        (#"{"a":1,}"#, JSON.object(["a": 1])),
        ("{\"a\": {\"b\": [true,\n],\n},\n}", JSON.object(["a": ["b": [true]]])),
    ] as [(String, JSON)])
    func trailingCommas(text: String, expected: JSON) throws {
        #expect(try JSON.parse(text) == expected)
    }

    @Test("invalid JSON is refused at the right byte", arguments: [
        ("", 0), ("   ", 3), ("{", 1), ("[", 1), (#"{"a""#, 4), (#"{"a":"#, 5), (#"{"a":1"#, 6), ("[1", 2),
        ("[1 2]", 3), (#"{"a" 1}"#, 5), ("{a:1}", 1), ("{'a':1}", 1), ("[01]", 2), ("[-]", 2), ("[1.]", 3),
        ("[1e]", 3), ("[.5]", 1), ("[+1]", 1), ("tru", 3), ("nul", 3), ("[True]", 1), (#""abc"#, 4),
        (#""a\x""#, 2), (#""\u12""#, 5), (#""\uD800""#, 1), (#""\uDC00""#, 1), (#""\uD800\u0041""#, 7),
        ("\"a\tb\"", 2), ("\"a\nb\"", 2), (#"{"a":1}x"#, 7), ("[1,,2]", 3), ("[,]", 1), ("{,}", 1),
        (#"{"a":1,,}"#, 7), ("[1]]", 3), (#"{"a":1]"#, 6), ("nan", 1), ("[Infinity]", 1), ("// c\n{}", 0),
        (#"{"a":1}{"b":2}"#, 7), ("[1,],", 4), ("[\"a\" : 1]", 5), ("\u{0}", 0),
    ])
    func invalidInput(text: String, offset: Int) {
        #expect(throws: JSONError.self) { try JSON.parse(text) }
        do {
            _ = try JSON.parse(text)
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.kind == .syntax)
            #expect(error.description.contains("at byte \(offset)"))
        }
    }

    @Test("invalid UTF-8 is refused with its offset", arguments: [
        ([0x22, 0xFF, 0x22], 1),
        ([0x22, 0xC3, 0x22], 1),  // a 2-byte sequence cut short
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // an encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
        ([0x22, 0x61, 0x80, 0x22], 2),  // a stray continuation byte
        ([0xFF], 0),
        ([0x5B, 0x31, 0x2C, 0x20, 0xE4, 0xB8], 4),  // cut off at the end
        ([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xE4, 0xB8, 0x22, 0x7D], 6),
        ([0x22, 0x5C, 0xFE, 0x22], 2),  // an escape of a non-UTF-8 byte
    ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        do {
            _ = try JSON.parse(bytes)
            Issue.record("accepted invalid UTF-8 \(bytes)")
        } catch {
            #expect(error.kind == .invalidUTF8, "\(error)")
            #expect(error.offset == offset, "\(error)")
        }
    }

    @Test func loneSurrogatesAreRefused() {
        for text in [#""\ud800""#, #""\udfff""#, #""\ud83d x""#, #""\ud83d\ud83d""#, #""\ude00\ud83d""#] {
            #expect(throws: JSONError.self, "\(text)") { try JSON.parse(text) }
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = JSONParser.defaultMaxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(try JSON.parse(text).arrayValue != nil)
    }

    @Test("100 000-deep nesting is an error, not a crash", arguments: ["[", "{\"a\":"])
    func deepNesting(opener: String) {
        let closer = opener == "[" ? "]" : "}"
        let text = String(repeating: opener, count: 100_000) + "1" + String(repeating: closer, count: 100_000)
        do {
            _ = try JSON.parse(text)
            Issue.record("accepted 100 000 levels")
        } catch {
            #expect(error.kind == .tooDeep)
            #expect(error.message.contains("nesting deeper than \(JSONParser.defaultMaxDepth) levels"))
        }
    }

    @Test func depthLimitIsAParameter() {
        #expect(throws: JSONError.self) { try JSON.parse(Array("[[[1]]]".utf8), maxDepth: 2) }
        #expect((try? JSON.parse(Array("[[1]]".utf8), maxDepth: 2)) != nil)
    }

    @Test func valueRangeOfATopLevelMember() throws {
        let text = #"{"op":"push", "payload" : {"a": [1, "}"], "b": {}} , "x":1, "y": "q"}"#
        let bytes = Array(text.utf8)
        let range = try #require(try JSON.valueRange(ofMember: "payload", in: bytes))
        #expect(String(decoding: bytes[range], as: UTF8.self) == #"{"a": [1, "}"], "b": {}}"#)
        let x = try #require(try JSON.valueRange(ofMember: "x", in: bytes))
        #expect(String(decoding: bytes[x], as: UTF8.self) == "1")
        let y = try #require(try JSON.valueRange(ofMember: "y", in: bytes))
        #expect(String(decoding: bytes[y], as: UTF8.self) == #""q""#)
        #expect(try JSON.valueRange(ofMember: "a", in: bytes) == nil)
        #expect(try JSON.valueRange(ofMember: "x", in: Array("[1]".utf8)) == nil)
    }
}

@Suite("JSON text")
struct JSONTextTests {
    @Test func compactTextIsStrictJSON() {
        let value: JSON = ["a": "x/y \"q\" \\ \u{1}\u{1F}\n\t\r\u{8}\u{C} 中文 😀", "b": [1, true, .null], "c": [:]]
        #expect(value.compactText == #"{"a":"x/y \"q\" \\ \u0001\u001F\n\t\r\b\f 中文 😀","b":[1,true,null],"c":{}}"#)
    }

    /// Headers are kept as the tree of them would be written, sorted by name, whatever their text
    /// holds (quotes, control characters, CJK, what a terminal must not get raw).
    @Test func anObjectOfStringsIsWrittenAsItsTreeIs() {
        let headers = ["apns-topic": "com.example.shop", "apns-collapse-id": "订单 \"17\"\n", "x": "\u{202E}\u{1}/\\", "": ""]
        let tree = JSON.object(Message.headerObject(headers)).compactText
        #expect(Message.headerText(headers) == tree)
        #expect(tree.hasPrefix(#"{"":"","apns-collapse-id":"订单 \"17\"\n","#))
        #expect(Message.headerText([:]) == "{}")
        var bytes: [UInt8] = []
        JSON.writeObject(strings: [(key: "b", value: "1"), (key: "a", value: "2"), (key: "b", value: "3")], into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"b":"1","a":"2","b":"3"}"#)
    }

    /// Plain text is skipped sixteen, then eight bytes at a time: strings of every length with
    /// escapes, multi-byte characters and control characters at every offset of the blocks read
    /// the same as Foundation's parser reads them, and a raw control character is refused wherever it is.
    @Test func stringsReadAsFoundationReadsThemWhereverTheirBytesFall() throws {
        let pieces = [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, #"\ud83d\ude00"#, "é", "深", "😀", "\u{7F}", "\u{1}", "\t"]
        var random = SeededRandom(seed: 16)
        for _ in 0..<400 {
            let text = random.text(pieces, runs: 6, longestRun: 40) + String(repeating: "y", count: Int(random.next() % 20))
            let document = Array(#"{"k":""#.utf8) + Array(text.utf8) + Array(#"","n":1}"#.utf8)
            let foundation = (try? JSONSerialization.jsonObject(with: Data(document))) as? [String: Any]
            let ours = try? JSON.parse(document)
            #expect((foundation == nil) == (ours == nil), "\(text.debugDescription)")
            if let foundation, let ours {
                #expect(ours.objectValue?["k"]?.stringValue == foundation["k"] as? String, "\(text.debugDescription)")
            }
        }
    }

    /// Printable ASCII is written sixteen bytes at a time: strings with quotes, backslashes,
    /// control characters, DEL, C1 and bidi controls, CJK and emoji anywhere (across the blocks)
    /// read back as they were (Foundation's parser), with nothing a terminal must not get raw.
    @Test func stringsAreWrittenWhateverFallsWhere() throws {
        let pieces = ["\"", "\\", "\n", "\u{1}", "\u{7F}", "\u{85}", "\u{202E}", "\u{2028}", "é", "深圳", "😀", "/"]
        var random = SeededRandom(seed: 32)
        for _ in 0..<400 {
            let text = random.text(pieces, runs: 6, longestRun: 40, filler: "a")
            let written = JSON.string(text).compactText
            let read = try JSONSerialization.jsonObject(with: Data(written.utf8), options: .fragmentsAllowed) as? String
            #expect(read == text, "\(text.debugDescription) → \(written)")
            #expect(!written.unicodeScalars.contains { $0.value < 0x20 || TerminalText.mustEscape($0.value) }, "\(written)")
        }
    }

    @Test func prettyTextIndentsByTwo() {
        let value: JSON = ["aps": ["alert": "Hi", "badge": 1], "list": [1, [:], []], "empty": [:]]
        let expected = """
            {
              "aps": {
                "alert": "Hi",
                "badge": 1
              },
              "list": [
                1,
                {},
                []
              ],
              "empty": {}
            }
            """
        #expect(value.prettyText == expected)
    }

    @Test func numbersThatAreNotJSONBecomeNull() {
        #expect(JSON.number(JSONNumber(text: "nan")).compactText == "null")
        #expect(JSON.number(JSONNumber(text: "01")).compactText == "null")
        #expect(JSON.number(JSONNumber(text: "-1.5e3")).compactText == "-1.5e3")
    }

    @Test("a number's text is checked against the JSON grammar before it is written", arguments: [
        ("0", true), ("-0", true), ("17", true), ("-12.50e+3", true), ("1E-3", true), ("12345678901234567890123", true),
        ("", false), ("-", false), ("01", false), ("-01", false), ("1.", false), (".5", false), ("1e", false),
        ("1e+", false), ("1.5e3x", false), ("--1", false), ("+1", false), ("1 ", false), ("nan", false), ("１", false),
    ])
    func numberGrammar(text: String, valid: Bool) {
        #expect(JSONNumber(text: text).isValidJSON == valid)
    }

    @Test func writeAppendsToABuffer() {
        var bytes = Array("x".utf8)
        JSON.array([1, "a"]).write(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"x[1,"a"]"#)
    }

    @Test("compact and pretty text parse back to the same value", arguments: [
        #"{"a":[1,2.5,-3e2,{"b":null}],"c":"\u0000\"\\/","d":true}"#,
        #"[[[[]]],{},"",0]"#,
        #"{"中":"文","emoji":"👨‍👩‍👧","ctl":"\u001b[31m"}"#,
    ])
    func roundTrip(text: String) throws {
        let value = try JSON.parse(text)
        #expect(try JSON.parse(value.compactText) == value)
        #expect(try JSON.parse(value.prettyText) == value)
        #expect(value.compactText == (try JSON.parse(value.prettyText)).compactText)
    }
}

/// The string scanner's eight-bytes-at-a-time fast path stops exactly where a byte-by-byte scan
/// would first meet a byte that is not plain text, or before the last word that holds one.
@Suite struct JSONPlainASCIIScanTests {
    private func isSpecial(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 }

    /// Whole words from `start`, none with a special byte before the stop; at the stop, fewer
    /// than eight bytes left or a word that holds one.
    private func check(_ bytes: [UInt8], from start: Int) {
        let end = bytes.withUnsafeBufferPointer { JSONParser.plainASCIIPrefixEnd($0, from: start) }
        #expect((end - start) % 8 == 0 && end <= bytes.count, "\(bytes) from \(start): \(end)")
        #expect(!bytes[start..<end].contains(where: isSpecial), "\(bytes) from \(start): \(end)")
        #expect(end + 8 > bytes.count || bytes[end..<end + 8].contains(where: isSpecial), "\(bytes) from \(start): \(end)")
    }

    @Test func everySpecialByteAtEveryPlaceOfAWordStopsIt() {
        let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x0A, 0x80, 0xC3, 0xFF]
        // Neighbours that make the bit tricks borrow: just above each special value.
        let fillers: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x41]
        for filler in fillers {
            for special in specials {
                for place in 0..<24 {
                    var bytes = [UInt8](repeating: filler, count: 24)
                    bytes[place] = special
                    for start in 0..<3 { check(bytes, from: start) }
                }
            }
        }
    }

    @Test func randomTextAgreesWithAByteByByteScan() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in
                // Mostly plain text, now and then anything.
                Int.random(in: 0..<10, using: &generator) == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            check(bytes, from: count == 0 ? 0 : Int.random(in: 0..<count, using: &generator))
        }
    }

    @Test func stringsWithEveryKindOfByteParseAsBefore() throws {
        let text = "plain text long enough for several words, then é and \\\"quoted\\\" and \\u00e9 and a tab\\t end"
        let json = try JSON.parse(Array("[\"\(text)\",\"\(String(repeating: "x", count: 37))\"]".utf8))
        #expect(json.arrayValue?.first?.stringValue == "plain text long enough for several words, then é and \"quoted\" and é and a tab\t end")
        #expect(json.arrayValue?.last?.stringValue == String(repeating: "x", count: 37))
        // Non-ASCII text, then plain text again (the scanner goes back to whole words).
        let mixed = "订单 1270339 已发货 " + String(repeating: "x", count: 41) + "é" + String(repeating: "y", count: 17)
        #expect(try JSON.parse(Array("\"\(mixed)\"".utf8)).stringValue == mixed)
        #expect(throws: JSONError.self) { try JSON.parse(Array("\"订单 long plain text then a raw \u{1} control\"".utf8)) }
        #expect(throws: JSONError.self) { try JSON.parse(Array("[\"long plain text then a raw \u{1} control\"]".utf8)) }
        #expect(throws: JSONError.self) { try JSON.parse([0x5B, 0x22] + Array("long plain text then".utf8) + [0xFF, 0x22, 0x5D]) }
    }
}
