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

    /// A process the test started may still be writing or removing a file in the folder while it
    /// is removed (a shell writing its exit status, a server removing its socket); the removal
    /// then fails half-way, and is tried again.
    deinit {
        for _ in 0..<5 where FileManager.default.fileExists(atPath: path) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
