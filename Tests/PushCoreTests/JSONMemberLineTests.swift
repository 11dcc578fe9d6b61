import PushJSON
import Testing

/// Where members and errors are, by line: what a config file's refusal names.
@Suite struct JSONMemberLineTests {
    @Test func membersComeInOrderWithTheirLinesRepeatsIncluded() throws {
        let text = "{\n  \"a\": 1,\n\n  \"b\": {\"c\": [true]},\n  \"a\": \"again\"\n}"
        let tape = try JSONTape.parse(Array(text.utf8))
        let members = tape.root.members
        #expect(members.map(\.name) == ["a", "b", "a"])
        #expect(members.map(\.line) == [2, 4, 5])
        #expect(members[1].value.json == ["c": [true]])
        #expect(members[2].value.string == "again")
        #expect(String(decoding: Array(text.utf8)[members[0].nameRange], as: UTF8.self) == "\"a\"")
        #expect(members[1].value.line == 4)
        #expect(tape.root.line == 1)
    }

    @Test func escapedNamesAreDecodedAndOtherKindsHaveNoMembers() throws {
        let tape = try JSONTape.parse(Array(#"{"\u0062anner": 1}"#.utf8))
        #expect(tape.root.members.map(\.name) == ["banner"])
        #expect(try JSONTape.parse(Array("[1, 2]".utf8)).root.members.isEmpty)
    }

    @Test func anErrorsLineCountsTheNewlinesBeforeIt() {
        let bytes = Array("{\n  \"a\": 1\n  \"b\": 2\n}".utf8)
        do {
            _ = try JSON.parse(bytes)
            Issue.record("a missing comma was accepted")
        } catch {
            #expect(error.line(in: bytes) == 3)
        }
        #expect(JSONError("x", offset: 0).line(in: []) == 1)
    }
}
