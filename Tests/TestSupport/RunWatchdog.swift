import Foundation
import Glibc

/// A test run that hangs ends in failure, saying what it was waiting for.
///
/// Every wait of the tests has its own deadline; this is the one behind them all. The whole run
/// takes minutes; once `limit` has passed since the first program a test started, the programs
/// the tests still run are listed on stderr and killed, so a test blocked on one of them fails
/// with its name; if the run is still going a minute later, the process exits with status 1.
public enum RunWatchdog {
    /// Far beyond a whole run on a slow machine (3 to 6 minutes).
    public static let limit: TimeInterval = 25 * 60

    /// Starts the watch once; every way the tests start a program calls it.
    public static func arm() { _ = armed }

    private static let armed: Void = {
        let thread = Thread {
            Thread.sleep(forTimeInterval: limit)
            report("the test run is still going after \(Int(limit / 60)) minutes; the programs it still runs are killed:")
            for child in children() {
                report("  \(child.pid) \(child.command)")
                kill(child.pid, SIGKILL)
            }
            Thread.sleep(forTimeInterval: 60)
            report("the test run is still going a minute later: it ends here, failed")
            _exit(1)
        }
        thread.name = "pushdeck test watchdog"
        thread.start()
    }()

    /// This process's children, with their command lines.
    public static func children() -> [(pid: pid_t, command: String)] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> (pid_t, String)? in
            guard let pid = pid_t(name),
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command's closing parenthesis: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == me else { return nil }
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline"))) ?? Data()
            return (pid, String(decoding: command.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self))
        }
    }

    /// Straight to the descriptor: the runner's own output may be buffered, and this must be seen.
    private static func report(_ line: String) {
        let bytes = Array("pushdeck tests: \(line)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
