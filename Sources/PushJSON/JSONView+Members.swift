/// One member of a JSON object, read in place: its name, where the name is, and its value.
public struct JSONMember: Sendable {
    public let name: String
    /// The name's text in the document, quotes included.
    public let nameRange: Range<Int>
    public let value: JSONView

    /// The 1-based line the name is on: what a person looks for when a setting is refused.
    /// Counted when asked: counting it for every member read made reading an object's members
    /// grow with its place in the document (a tenth of an FCM send, callgrind on the release server).
    public var line: Int { JSONTape.line(ofOffset: nameRange.lowerBound, in: value.tape.bytes) }
}

extension JSONView {
    /// An object's members in document order, repeated names included (empty for other kinds).
    public var members: [JSONMember] {
        var members: [JSONMember] = []
        tape.forEachMember(of: index) { _, valueIndex in
            let name = valueIndex - 1
            let entry = tape.entries[name]
            members.append(JSONMember(
                name: tape.read { $0.string(at: name) }, nameRange: entry.start..<entry.end, value: JSONView(tape: tape, index: valueIndex)))
        }
        return members
    }

    /// The 1-based line the value starts on.
    public var line: Int { JSONTape.line(ofOffset: sourceRange.lowerBound, in: tape.bytes) }
}

extension JSONError {
    /// The 1-based line of the error's offset in `bytes`, the document it was found in.
    public func line(in bytes: [UInt8]) -> Int { JSONTape.line(ofOffset: offset, in: bytes) }
}

extension JSONTape {
    /// The 1-based line of a byte offset: one more than the newlines before it.
    static func line(ofOffset offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes.prefix(max(0, min(offset, bytes.count))).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
