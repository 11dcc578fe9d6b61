import Glibc

/// Writes a line to standard output at once (unbuffered: `badge --watch` and `watch` feed pipes
/// that want each line as it happens).
func writeLine(_ text: String) {
    writeAll(1, Array((text + "\n").utf8))
}

/// Writes a line to standard error (fd 2 directly: `stderr` is shared mutable C state).
func printError(_ message: String) {
    writeAll(2, Array((message + "\n").utf8))
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
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
