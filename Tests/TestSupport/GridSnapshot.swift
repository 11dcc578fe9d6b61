import Foundation
import PushTUI

/// Grid snapshots: plain text files beside the test, compared cell for cell as text.
///
/// Re-recorded only on purpose, with `PUSHDECK_RECORD_SNAPSHOTS=1`; a missing file is a failure.
public enum GridSnapshot {
    /// True when this run re-records snapshots.
    public static var recording: Bool {
        ProcessInfo.processInfo.environment["PUSHDECK_RECORD_SNAPSHOTS"] == "1"
    }

    /// The `Snapshots` folder beside the test file whose `#filePath` is given.
    public static func directory(besides filePath: String) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    }

    /// Compares `grid` as text with the file `name.txt` in `directory`. Returns nil when they match
    /// (or when recording), else what is wrong, with both texts.
    public static func mismatch(_ grid: Grid, named name: String, in directory: URL) -> String? {
        mismatch(text(of: grid), named: name, in: directory)
    }

    /// The grid as the snapshot file holds it: a ruler of its width, then its rows.
    public static func text(of grid: Grid) -> String {
        "size \(grid.width)x\(grid.height)\n" + grid.text + "\n"
    }

    public static func mismatch(_ actual: String, named name: String, in directory: URL) -> String? {
        let file = directory.appendingPathComponent(name + ".txt")
        if recording {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            do {
                try actual.write(to: file, atomically: true, encoding: .utf8)
                return nil
            } catch {
                return "could not record \(file.path): \(error)"
            }
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            return "snapshot \(file.path) is missing; record it with PUSHDECK_RECORD_SNAPSHOTS=1\n--- actual ---\n\(actual)"
        }
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var report = "snapshot \(name) differs (re-record with PUSHDECK_RECORD_SNAPSHOTS=1):\n"
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let e = index < expectedLines.count ? String(expectedLines[index]) : "<none>"
            let a = index < actualLines.count ? String(actualLines[index]) : "<none>"
            if e != a { report += "line \(index + 1)\n  expected: \(e)\n  actual:   \(a)\n" }
        }
        return report
    }
}
