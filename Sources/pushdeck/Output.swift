import Glibc
import PushCore
import PushJSON

// Every line a command prints goes through here, made inert by `TerminalText.inert`: payload
// text, framer and parser errors quoting junk bytes, and whatever the server says (it may be
// hostile) cannot steer the terminal, whichever message carries them.

/// Writes a line to standard output at once (unbuffered: `badge --watch` and `watch` feed pipes
/// that want each line as it happens).
func writeLine(_ text: String) {
    writeAll(1, Array((TerminalText.inert(text) + "\n").utf8))
}

/// Writes a line of bytes received from elsewhere (a `watch` event) to standard output, inert.
func writeLine(bytes: [UInt8]) {
    writeAll(1, Array((TerminalText.inert(bytes) + "\n").utf8))
}

/// Writes a line to standard error (fd 2 directly: `stderr` is shared mutable C state).
func printError(_ message: String) {
    writeAll(2, Array((TerminalText.inert(message) + "\n").utf8))
}

/// Writes raw bytes; only `writeLine` and `printError` call it, after making them inert.
private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
    }
}
