import Foundation

/// Timing lines for the benchmark (`PUSHDECK_TRACE=FILE`): monotonic nanoseconds, one event a line.
public final class Trace {
    private let handle: FileHandle

    /// Nil without a path, or when the file cannot be made.
    public init?(path: String?) {
        guard let path, !path.isEmpty, FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return nil }
        self.handle = handle
    }

    func write(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }
}
