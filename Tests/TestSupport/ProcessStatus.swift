import Foundation

/// What Linux's /proc says about a running process: its memory and the CPU it has used.
public enum ProcessStatus {
    /// Resident memory in bytes (`VmRSS` of /proc/PID/status), or nil when the process is gone.
    public static func residentBytes(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }

    /// User plus system CPU time in clock ticks (`utime` + `stime` of /proc/PID/stat).
    public static func cpuTicks(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)" come the fields from `state` (field 3) on; utime and stime are 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`).
    public static var ticksPerSecond: Int { sysconf(Int32(_SC_CLK_TCK)) }
}
