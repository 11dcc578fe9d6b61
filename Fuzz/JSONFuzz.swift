import PushCore
import PushJSON

/// Fuzz target: the JSON parser, the writers and the push payload decoder.
///
/// When the input parses, its compact and pretty texts must parse back to the same value (the
/// writer emits only what the parser reads). Whatever the input, the payload decoder must answer
/// with a push or a refusal — and a push keeps the payload text exactly and names an app.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSON.parse(bytes) {
        let compact = value.compactText
        let again: JSON
        do {
            again = try JSON.parse(compact)
        } catch {
            require(false, "compactText does not parse: \(error)\n\(compact)")
            return 0
        }
        require(again == value, "compactText changed the value\n\(compact)")
        require(again.compactText == compact, "compactText is not stable\n\(compact)")
        let pretty = value.prettyText
        require((try? JSON.parse(pretty)) == value, "prettyText does not parse back to the value\n\(pretty)")
    }

    let text = String(decoding: bytes, as: UTF8.self)
    let channel: Channel? = switch size % 3 {
    case 0: nil
    case 1: .apns
    default: .transparent
    }
    let request = PushRequest(payloadText: text, app: size % 5 == 0 ? "com.example.fuzz" : nil, channel: channel, offline: size % 2 == 0)
    if let push = try? PushDecoder().decode(request) {
        require(push.payload == text, "the decoded push does not keep the payload text")
        require(!push.app.isEmpty, "the decoded push has an empty app")
        if let channel { require(push.channel == channel, "the request's channel was not kept") }
        // What a message shows must survive the wire: its JSON text parses.
        let shown = JSON.object(["title": .string(orNull: push.title), "body": .string(orNull: push.body), "app": .string(push.app)])
        require((try? JSON.parse(shown.compactText)) == shown, "a decoded field does not survive the wire")
    }
    return 0
}
