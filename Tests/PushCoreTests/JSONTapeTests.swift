import PushCore
import Testing
import PushJSON

@Suite("JSON tape and views")
struct JSONTapeTests {
    private func root(_ text: String) throws -> JSONView { try JSONTape.parse(Array(text.utf8)).root }

    @Test func readsEveryKindInPlace() throws {
        let value = try root(#" { "s": "订单 \u00e9\n", "n": -12.50e+3, "t": true, "f": false, "z": null, "a": [1, [], {}], "o": {"k": "v"}, } "#)
        #expect(value.kind == .object)
        #expect(value["s"]?.string == "订单 é\n")
        #expect(value["n"]?.number?.text == "-12.50e+3")
        #expect(value["t"]?.bool == true)
        #expect(value["f"]?.bool == false)
        #expect(value["z"]?.isNull == true)
        #expect(value["a"]?.elements.map(\.kindName) == ["a number", "an array", "an object"])
        #expect(value["o"]?["k"]?.string == "v")
        #expect(value["missing"] == nil)
        #expect(value["s"]?.number == nil && value["n"]?.string == nil && value["t"]?.elements.isEmpty == true)
    }

    @Test func lookupFindsTheLastMemberAsSwiftComparesStrings() throws {
        let value = try root("{\"a\":1,\"b\":{\"a\":9},\"a\":2,\"\\u0063\":3,\"\u{212A}\":4,\"e\u{301}\":5}")
        #expect(value["a"]?.number?.text == "2")
        // An escaped name, and names equal only as Swift compares strings (canonical equivalence).
        #expect(value["c"]?.number?.text == "3")
        #expect(value["K"]?.number?.text == "4")
        #expect(value["\u{E9}"]?.number?.text == "5")
        #expect(value["b"]?["a"]?.number?.text == "9")
        #expect(try root(#"{"":1,"a":2}"#)[""]?.number?.text == "1")
        #expect(try root(#"{"a":2}"#)[""] == nil)
        #expect(try root("[1]")["a"] == nil)
        #expect(try root("{}")["a"] == nil)
    }

    /// A member's name is found in a table of names as `==` compares them: byte for byte when
    /// both are plain ASCII, as Swift compares strings otherwise (escapes, canonical equivalence).
    @Test func aMemberNameIsFoundInATableAsSwiftComparesStrings() throws {
        let value = try root("{\"a\":1,\"bb\":2,\"\\u0063\":3,\"\u{212A}\":4,\"e\u{301}\":5,\"\":6,\"zz\":7}")
        let keys: [StaticString] = ["", "a", "c", "K", "bb", "\u{E9}"]
        var found: [Int?] = []
        value.forEachMemberPosition { name, _ in found.append(name.position(in: keys)) }
        #expect(found == [1, 4, 2, 3, 5, 0, nil])
    }

    @Test func anObjectBuildsItsTreeAroundAMemberReadInPlace() throws {
        let text = #"{"op":"push","payload":{"aps":{"alert":"订单"}},"app":"com.example.shop","payload":{"late":[1,2]},"n":1}"#
        let value = try root(text)
        let object = try #require(value.object(readingInPlace: "payload"))
        // Every member but the in-place one is the parser's tree; that one is left empty, and
        // read in place it is still the last such member, whole.
        var expected = try #require(try JSON.parse(text).objectValue)
        expected.members = expected.members.map { $0.key == "payload" ? ($0.key, .object(JSONObject())) : $0 }
        #expect(object == expected)
        #expect(value["payload"]?.json == (try JSON.parse(#"{"late":[1,2]}"#)))
        // A member of that name that is not an object is built as any other, so a refusal can show it.
        #expect(try root(#"{"payload":"text","a":[true]}"#).object(readingInPlace: "payload") == ["payload": "text", "a": [true]])
        #expect(try root("[1]").object(readingInPlace: "payload") == nil)
    }

    @Test func aValueBuildsTheSameTreeAsTheParser() throws {
        let text = #"{"x":[1,{"y":[true,null,"\ud83d\ude00"]},[]],"z":{},"w":-0.5}"#
        let value = try root(text)
        #expect(value.json == (try JSON.parse(text)))
        #expect(value["x"]?.json == (try JSON.parse(#"[1,{"y":[true,null,"😀"]},[]]"#)))
        #expect(value["w"]?.json == .number(JSONNumber(text: "-0.5")))
    }

    @Test func aTreeKeepsEveryMemberAndElementInOrder() throws {
        // Duplicates kept, containers closed several at once, numbers as written.
        let text = #"{"a":1,"b":[{"c":[[],[{}]],"c":2E+3},{"d":"é\n"}],"a":[-0,1.5e-7,[[[null]]]],"e":{"f":{"g":{}}}}"#
        let b: JSON = [
            .object(JSONObject([(key: "c", value: [[], [[:]]]), (key: "c", value: .number(JSONNumber(text: "2E+3")))])),
            ["d": "é\n"],
        ]
        let expected = JSONObject([
            (key: "a", value: 1), (key: "b", value: b),
            (key: "a", value: [.number(JSONNumber(text: "-0")), .number(JSONNumber(text: "1.5e-7")), [[[nil]]]]),
            (key: "e", value: ["f": ["g": [:]]]),
        ])
        #expect(try root(text).json == .object(expected))
        #expect(try root(text)["b"]?.json == b)
        #expect(try JSON.parse(text) == .object(expected))
    }

    @Test func sourceRangesCoverEachValueAsWritten() throws {
        let text = #"{ "p" : {"a": [1, 2,] } , "s":"q\"x" , "n": 12 }"#
        let bytes = Array(text.utf8)
        let value = try JSONTape.parse(bytes).root
        func source(_ key: String) -> String? {
            value[key].map { String(decoding: bytes[$0.sourceRange], as: UTF8.self) }
        }
        #expect(source("p") == #"{"a": [1, 2,] }"#)
        #expect(source("s") == #""q\"x""#)
        #expect(source("n") == "12")
        #expect(value.sourceRange == 0..<bytes.count)
    }

    /// Texts are made without a second UTF-8 check: they must be the same strings a checked
    /// decoding makes, ASCII or not, escaped or not, whole document or one value.
    @Test func textsAreTheStringsACheckedDecodingMakes() throws {
        let text = " {\"t\":\"訂單 已發貨\",\"e\":\"tab\\t \\u6df1\\ud83d\\ude00 é\",\"a\":\"plain\",\"o\":{\"k\":\"ﬁ😀\"}} \n"
        let bytes = Array(text.utf8)
        let tape = try JSONTape.parse(bytes)
        #expect(tape.text == text && tape.text.utf8.elementsEqual(bytes))
        #expect(tape.root["t"]?.string == "訂單 已發貨")
        #expect(tape.root["e"]?.string == "tab\t 深😀 é")
        #expect(tape.root["a"]?.string == "plain")
        #expect(tape.root["o"]?.sourceText == #"{"k":"ﬁ😀"}"#)
        #expect(tape.root["o"]?["k"]?.string == "ﬁ😀")
        // Compared and hashed as any other string: equal strings, one set entry.
        let made = try #require(tape.root["t"]?.string)
        #expect(Set([made, String(decoding: Array("訂單 已發貨".utf8), as: UTF8.self)]).count == 1)
        #expect(tape.root["a"]?.string?.utf8.count == 5)
    }

    /// The compact size, counted from the tape, is the length of the value written compactly:
    /// whatever the whitespace, for every value inside too (nested and empty containers, every
    /// kind); a string with escapes is the caller's to measure, given its bytes as written.
    @Test func theCompactSizeIsTheCompactTextsLength() throws {
        let documents = [
            #" { "s" : "深圳 plain 😀", "n" : -12.50e+3 , "t":true,"f" : false, "z" :null, "a" : [ 1 , [ ], { } , [[]] ], "o" : { "k" : "v" } , } "#,
            "[]", "{}", "0", #""""#, #" [ [ [ 1 ] , 2 ] , { "a" : { "b" : [ ] } } ] "#,
        ]
        var checked = 0
        func check(_ value: JSONView) {
            #expect(value.compactSize { _ in Issue.record("no string here has escapes"); return 0 } == value.json.compactText.utf8.count,
                    "\(value.sourceText)")
            checked += 1
            value.forEachMember { _, member in check(member) }
            value.elements.forEach(check)
        }
        for document in documents { check(try root(document)) }
        #expect(checked == 26)
        // A string with escapes: measured by the closure, from its quote to its quote.
        var given: [String] = []
        let value = try root(#" [ "a\nb" , { "k\u00e9" : 1 } ] "#)
        let size = value.compactSize { bytes in
            given.append(String(decoding: bytes, as: UTF8.self))
            return 100
        }
        #expect(given == [#""a\nb""#, #""k\u00e9""#])
        #expect(size == 2 + 100 + 1 + 2 + 100 + 1 + 1)
    }

    @Test func refusesWhatTheParserRefuses() {
        for text in ["", "{", #"{"a":}"#, "[1 2]", "\"\u{1}\"", "{\"a\":1} x"] {
            let tapeError = #expect(throws: JSONError.self) { try JSONTape.parse(Array(text.utf8)) }
            let treeError = #expect(throws: JSONError.self) { try JSON.parse(text) }
            #expect(tapeError == treeError, "\(text)")
        }
    }
}
