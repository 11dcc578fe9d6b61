import Foundation

/// A private temporary folder for one test (tests run in parallel), removed when dropped.
/// Kept short: a Unix socket path inside it must stay under 108 bytes.
public final class TempFolder: @unchecked Sendable {
    // @unchecked: `path` is immutable after init.
    public let path: String

    public init() {
        var template = Array("/tmp/pd-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        path = created ?? "/tmp/pd-\(UUID().uuidString.prefix(8))"
        if created == nil { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
