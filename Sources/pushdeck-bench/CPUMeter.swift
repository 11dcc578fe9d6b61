import Foundation
import Glibc

/// CPU time a push took over a phase, in the server and in its client (the bench's own threads,
/// or the h2load it ran): what the machine's two cores had to give each push. Two cores make at
/// most 2 000 000 / (server + client) pushes a second, so these figures say what bounds a rate
/// that no single thread limits.
struct CPUMeter {
    private let pid: Int32
    private let serverStart: Double
    private let loopStart: Double
    private let clientStart: Double

    /// Starts counting for the server process `pid` and for this process with its children.
    init(server pid: Int32) {
        self.pid = pid
        serverStart = Self.processSeconds(pid)
        loopStart = Self.loopSeconds(pid)
        clientStart = Self.ownSeconds()
    }

    /// Microseconds of CPU a push since `init`, for `pushes` pushes: the server's (every
    /// thread), its main thread's alone (a pushdeck server's loop) and the client's.
    func microsecondsPerPush(_ pushes: Double) -> (server: Double, loop: Double, client: Double) {
        guard pushes > 0 else { return (0, 0, 0) }
        let server = Self.processSeconds(pid) - serverStart
        let loop = Self.loopSeconds(pid) - loopStart
        let client = Self.ownSeconds() - clientStart
        return (server / pushes * 1e6, loop / pushes * 1e6, client / pushes * 1e6)
    }

    /// Records `PREFIX_server_us` and `PREFIX_client_us`, and with `loop` (a pushdeck server)
    /// `PREFIX_loop_us`: the part of the server's that its loop took, the rest being the
    /// store's writer and checkpoint threads.
    func record(_ prefix: String, pushes: Double, loop: Bool = true, into results: inout Results) {
        let measured = microsecondsPerPush(pushes)
        results.record(prefix + "_server_us", measured.server, "µs")
        if loop { results.record(prefix + "_loop_us", measured.loop, "µs") }
        results.record(prefix + "_client_us", measured.client, "µs")
    }

    /// User and system time of every thread of `pid` (`/proc/PID/stat`), in seconds; 0 when gone.
    static func processSeconds(_ pid: Int32) -> Double { seconds(stat: "/proc/\(pid)/stat") }

    /// User and system time of the main thread of `pid` (`/proc/PID/task/PID/stat`), in seconds.
    static func loopSeconds(_ pid: Int32) -> Double { seconds(stat: "/proc/\(pid)/task/\(pid)/stat") }

    private static func seconds(stat path: String) -> Double {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return 0 }
        // After the command's closing parenthesis: field 3 (state) on; utime and stime are 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// User and system time of this process and of the children it has waited for, in seconds.
    static func ownSeconds() -> Double {
        func seconds(_ who: __rusage_who) -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(who.rawValue), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return seconds(RUSAGE_SELF) + seconds(RUSAGE_CHILDREN)
    }
}
