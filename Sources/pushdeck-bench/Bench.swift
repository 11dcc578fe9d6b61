import Foundation
import Glibc
import PushCore
import PushStore
import PushJSON

/// The benchmark: pushdeck against the physical limits of this machine, measured in
/// one run so ratios hold on a noisy machine. Prints a table, then one JSON line.
@main
enum Bench {
    struct Settings {
        var quick: Bool
        var pushes: Int { quick ? 10_000 : 100_000 }
        var phaseSeconds: Double { quick ? 2 : 10 }
        var uiMessages: Int { quick ? 10_000 : 1_000_000 }
    }

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") {
            print("""
                pushdeck-bench [--quick] [--keep] [--only server|ui|verdicts|activities|bus]
                  Runs the benchmark against a release pushdeck beside this binary.
                  --quick  10 000 messages and 2 s phases (the CI run); the full run is for figures
                  --keep   leave the temp folder (databases, UI traces) for a second look
                  --only   run only the server phases, the UI phases, the verdict phases (play and
                           expect; play_ratio needs the server phases' ingest: a run without --only),
                           the Live Activity updates against alerts through the gateway
                           or the team bus phases (a private mosquitto; skipped without one)
                  Its files go in a folder under $TMPDIR (else /tmp): TMPDIR=/dev/shm runs the
                  stores with no disk beneath them.
                """)
            return
        }
        let settings = Settings(quick: arguments.contains("--quick"))
        signal(SIGPIPE, SIG_IGN)
        var results = Results()
        do {
            // What the file system still owes for earlier deletions (a bench run deletes
            // gigabytes) is done before anything is timed: on a file system mounted with online
            // `discard` (this machine's ext4) the journal commit after a deletion sends the disk
            // the freed blocks' discards. A run started right after another measured its
            // ~300-byte ingest at 0.51 of the floor, 0.61–0.64 with these syncs, 0.71–0.85 on a
            // settled machine.
            sync()
            let folder = try makeTempFolder()
            // --keep leaves the databases and traces for a profiler or a second look.
            defer {
                if arguments.contains("--keep") {
                    print("pushdeck-bench: kept \(folder)")
                } else {
                    try? FileManager.default.removeItem(atPath: folder)
                    // And this run's own deletions settle before it returns, not in the next one.
                    sync()
                }
            }
            let only = arguments.firstIndex(of: "--only").map { arguments.index(after: $0) }
                .flatMap { arguments.indices.contains($0) ? arguments[$0] : nil }
            if only == nil || only == "server" { try ServerPhases(settings: settings, folder: folder).run(into: &results) }
            if only == nil || only == "activities" { try ActivityPhases(settings: settings, folder: folder).updates(into: &results) }
            if only == nil || only == "ui" { try UIPhases(settings: settings, folder: folder).run(into: &results) }
            if only == nil || only == "verdicts" { try VerdictPhases(settings: settings, folder: folder).run(into: &results) }
            if only == nil || only == "bus" { try BusPhases(settings: settings, folder: folder).run(into: &results) }
        } catch {
            print("pushdeck-bench: \(error)")
            results.print()
            exit(1)
        }
        results.print()
    }

    static func siblingBinary(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The run's folder, in `$TMPDIR` when it is set (`TMPDIR=/dev/shm`: the same run with no
    /// disk under the store), else in /tmp. Its sockets live in it: a short path.
    static func makeTempFolder() throws -> String {
        let root = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(root)/pdbench-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let path else { throw BenchError("mkdtemp failed") }
        return path
    }
}

/// Monotonic seconds.
func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The figures, in the order the table shows them.
struct Results {
    var entries: [(key: String, value: Double, unit: String)] = []

    mutating func record(_ key: String, _ value: Double, _ unit: String) {
        entries.append((key, value, unit))
        Swift.print("  " + Results.row(key, String(format: "%.2f", value), unit))
    }

    /// The value recorded under `key`, if one was.
    func value(_ key: String) -> Double? { entries.last { $0.key == key }?.value }

    /// One table row; padded by hand, as Foundation's `%-28@` does not pad on Linux.
    static func row(_ key: String, _ value: String, _ unit: String) -> String {
        key.padding(toLength: 28, withPad: " ", startingAt: 0)
            + String(repeating: " ", count: max(0, 14 - value.count)) + value + "  " + unit
    }

    func print() {
        Swift.print("")
        Swift.print(Results.row("figure", "value", "unit"))
        for entry in entries {
            Swift.print(Results.row(entry.key, String(format: "%.2f", entry.value), entry.unit))
        }
        let json = JSON.object(JSONObject(entries.map { entry in
            (key: entry.key, value: JSON.number(JSONNumber(text: String(format: "%.3f", entry.value))))
        }))
        Swift.print(json.compactText)
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
    return sorted[index]
}
