import PushCore
import PushJSON

/// Fuzz target: nothing pushdeck prints can steer a terminal.
///
/// For any bytes: `TerminalText.inert` (what every print path of the CLI applies) leaves no C0
/// control but `\n` and `\t`, no DEL, no C1 control, no bidi control and only valid UTF-8; the
/// JSON writer's text of any string has none of them either and parses back to that string;
/// and the framer's and the parser's error messages about the bytes, once made inert, are clean.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkInert(TerminalText.inert(bytes), "inert(bytes)")

    let text = String(decoding: bytes, as: UTF8.self)
    let written = JSON.string(text).compactText
    checkInert(written, "JSON string")
    require((try? JSON.parse(written)) == .string(text), "the JSON string does not parse back\n\(written)")

    var framer = StreamFramer(limit: 4096)
    framer.append(bytes)
    var messages: [String] = []
    for _ in 0..<64 {
        do {
            guard let frame = try framer.next() else { break }
            do {
                _ = try JSON.parse(frame)
            } catch {
                messages.append(error.description)
            }
        } catch {
            messages.append(error.description)
            if case .tooLarge = error { break }
        }
    }
    do { try framer.finish() } catch { messages.append(error.description) }
    for message in messages { checkInert(TerminalText.inert(message), "error message") }
    return 0
}

/// Aborts (a crash libFuzzer saves) when `text` holds anything a terminal would obey.
private func checkInert(_ text: String, _ what: String) {
    for scalar in text.unicodeScalars {
        let value = scalar.value
        let forbidden: Bool = switch value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
        require(!forbidden, "\(what) holds U+\(String(value, radix: 16, uppercase: true)): \(text.debugDescription)")
    }
}
