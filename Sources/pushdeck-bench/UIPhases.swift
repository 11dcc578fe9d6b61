import Foundation
import Glibc
import PushCore
import PushStore

/// The UI figures (banner latency, frame time, memory, start-up, idle CPU), each taken from a real
/// `pushdeck ui` at 200×60 in a detached tmux, timed by the UI's own trace (`PUSHDECK_TRACE`).
struct UIPhases {
    let settings: Bench.Settings
    let folder: String

    func run(into results: inout Results) throws {
        let (p50, p99) = try bannerLatency()
        results.record("banner_p50_ms", p50, "ms")
        results.record("banner_p99_ms", p99, "ms")

        let small = try filledInbox("small", messages: 100)
        let smallUI = try UIUnderTest(folder: folder, database: small, name: "small")
        defer { smallUI.stop() }
        _ = try smallUI.waitForFirstFrame()

        Swift.print("  filling an inbox with \(settings.uiMessages) messages…")
        let big = try filledInbox("big", messages: settings.uiMessages)
        let bigUI = try UIUnderTest(folder: folder, database: big, name: "big")
        defer { bigUI.stop() }
        let firstFrame = try bigUI.waitForFirstFrame()
        let startup = Double(firstFrame - bigUI.spawnedAt) / 1e6
        // The two UIs' frames in alternating blocks, so both medians come from the same minutes
        // of the machine: measured one after the other, a sub-millisecond frame's median moved
        // by a third between runs with the load of the moment, and the ratio with it.
        var smallFrames: [Double] = []
        var bigFrames: [Double] = []
        let blocks = 4
        for _ in 0..<blocks {
            smallFrames += try fullFrames(smallUI, pairs: (settings.quick ? 8 : 20) / blocks)
            bigFrames += try fullFrames(bigUI, pairs: (settings.quick ? 8 : 20) / blocks)
        }
        smallUI.stop()
        let frame100 = percentile(smallFrames.sorted(), 0.5)
        let frameBig = percentile(bigFrames.sorted(), 0.5)
        results.record("frame_ms_100", frame100, "ms")
        results.record("frame_ms_1m", frameBig, "ms")
        results.record("frame_ratio", frameBig / frame100, "x")
        results.record("rss_mb_1m", try bigUI.peakRSSMegabytes(), "MB")
        results.record("startup_ms_1m", startup, "ms")
        results.record("idle_cpu_pct", try idleCPU(bigUI), "%")
        bigUI.stop()
        // The same inbox with 20 Live Activities under the header.
        try ActivityPhases(settings: settings, folder: folder).frames(database: big, ui: self, into: &results)
    }

    /// Socket read of a push → flush of the first frame that shows its banner. Pushes go one at a
    /// time with a jittered gap, so each lands either on an empty screen or on a banner it replaces
    /// (the trace records each message's first banner frame in both cases).
    func bannerLatency() throws -> (Double, Double) {
        let ui = try UIUnderTest(folder: folder, database: folder + "/banner.sqlite", name: "banner")
        defer { ui.stop() }
        _ = try ui.waitForFirstFrame()
        let client = try BenchSocket(path: ui.socket)
        let samples = settings.quick ? 20 : 200
        var generator = SystemRandomNumberGenerator()
        for index in 0..<samples {
            try client.write(Payloads.apns(index) + [UInt8(ascii: "\n")])
            var reply = ""
            try client.readLines(1) { reply = String(decoding: $0, as: UTF8.self) }
            guard isOK(Array(reply.utf8)[...]) else { throw BenchError("UI push \(index) refused: \(reply)") }
            try ui.waitFor("banner line \(index + 1)") { $0.lines("banner ").count > index }
            usleep(UInt32.random(in: 20_000...60_000, using: &generator))
        }
        let latencies = ui.trace.lines("banner ").compactMap { fields -> Double? in
            guard fields.count == 4, let woke = UInt64(fields[2]), let flushed = UInt64(fields[3]) else { return nil }
            return Double(flushed - woke) / 1e6
        }.sorted()
        guard latencies.count == samples else { throw BenchError("\(latencies.count) banner lines for \(samples) pushes") }
        return (percentile(latencies, 0.5), percentile(latencies, 0.99))
    }

    /// The times of frames that change every row: `pairs` times End then Home, each frame
    /// waited for (so the list is back at its top for the next call).
    func fullFrames(_ ui: UIUnderTest, pairs: Int) throws -> [Double] {
        let before = ui.trace.lines("frame ").count
        for index in 0..<2 * pairs {
            try ui.sendKey(index % 2 == 0 ? "End" : "Home")
            try ui.waitFor("frame after key \(index + 1)") { $0.lines("frame ").count > before + index }
        }
        return ui.trace.lines("frame ").dropFirst(before).compactMap { fields in
            fields.count == 2 ? UInt64(fields[1]).map { Double($0) / 1e6 } : nil
        }
    }

    /// The UI's CPU time over an idle phase, as a percentage of one core.
    func idleCPU(_ ui: UIUnderTest) throws -> Double {
        usleep(300_000)  // let the last key's turn settle
        let before = try ui.cpuNanoseconds()
        let start = seconds()
        usleep(UInt32(settings.phaseSeconds * 1_000_000))
        let after = try ui.cpuNanoseconds()
        return Double(after - before) / 1e9 / (seconds() - start) * 100
    }

    /// A database with `messages` stored messages over five apps, written through the Store API
    /// in 1000-row transactions, with badges set. A title carries its message's id written with
    /// as many digits as the big inbox's largest, so End and Home differ in as many cells in
    /// both inboxes (with ids as they come, the big inbox's seven-digit ids against one- and
    /// two-digit ones moved the rest of every title, and the big inbox's frame took half as much
    /// again to draw: the page, not the store's size, made the difference).
    func filledInbox(_ name: String, messages: Int) throws -> String {
        let path = folder + "/\(name).sqlite"
        let store = try Store(path: path)
        defer { store.close() }
        let apps = ["com.example.shop", "com.example.news", "com.example.chat", "com.example.bank", "com.example.mail"]
        let payloads = (0..<1000).map { String(decoding: Payloads.apns($0), as: UTF8.self) }
        let start = Date().addingTimeInterval(-Double(messages))
        let digits = String(settings.uiMessages).count
        func numbered(_ id: Int64) -> String {
            let text = String(id)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        var id: Int64 = 1
        while id <= Int64(messages) {
            try store.begin()
            let end = min(Int64(messages), id + 999)
            while id <= end {
                let index = Int(id % 1000)
                let english = index % 2 == 1
                let message = Message(
                    id: id, app: apps[index % apps.count], channel: english ? .transparent : .apns,
                    title: english ? "Morning brief #\(numbered(id))" : "訂單 \(numbered(id)) 已發貨",
                    body: english ? "Markets open higher; the red packet promotion ends tonight." : "您有一條新消息：訂單已發貨，點擊查看物流詳情。",
                    receivedAt: start.addingTimeInterval(Double(id)), payload: payloads[index])
                try store.apply(.insert(message))
                id += 1
            }
            try store.commit()
        }
        try store.write(apps.enumerated().map { index, app in .badge(app: app, Badge(icon: index + 3, server: index + 3)) })
        return path
    }
}

/// A real `pushdeck ui` (the release binary beside this one) in a detached 200×60 tmux session
/// of its own tmux server, with its trace file, socket and database in the temp folder.
final class UIUnderTest {
    let server: String
    let socket: String
    let trace: TraceFile
    /// Monotonic nanoseconds just before tmux was asked to start the UI.
    let spawnedAt: UInt64
    private(set) var pid: pid_t = 0
    private var stopped = false

    init(folder: String, database: String, name: String) throws {
        server = "pdbench-\(getpid())-\(name)"
        socket = folder + "/\(name)-ui.sock"
        trace = TraceFile(path: folder + "/\(name).trace")
        spawnedAt = DispatchTime.now().uptimeNanoseconds
        // More than one argument: tmux execs them without a shell, and `env` execs pushdeck, so
        // the pane's process is the UI itself.
        try UIUnderTest.tmux(server, [
            "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "60", "-s", "ui",
            "env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PUSHDECK_TRACE=\(trace.path)",
            Bench.siblingBinary("pushdeck"), "ui", "--socket", socket, "--db", database,
        ])
        let panes = try UIUnderTest.tmux(server, ["list-panes", "-t", "ui", "-F", "#{pane_pid}"])
        guard let pid = pid_t(panes.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("no pane pid from tmux: \(panes)")
        }
        self.pid = pid
    }

    deinit { stop() }

    /// Monotonic nanoseconds of the UI's first flushed frame.
    func waitForFirstFrame() throws -> UInt64 {
        try waitFor("the first frame", timeout: 60) { !$0.lines("first-frame ").isEmpty }
        guard let fields = trace.lines("first-frame ").first, fields.count == 2, let ns = UInt64(fields[1]) else {
            throw BenchError("bad first-frame line in \(trace.path)")
        }
        return ns
    }

    /// Polls the trace until `condition` holds; throws if the UI exits or `timeout` passes.
    func waitFor(_ what: String, timeout: Double = 10, _ condition: (TraceFile) -> Bool) throws {
        let deadline = seconds() + timeout
        while !condition(trace) {
            guard kill(pid, 0) == 0 else { throw BenchError("pushdeck ui exited while waiting for \(what)") }
            guard seconds() < deadline else { throw BenchError("pushdeck ui: no \(what) within \(timeout) s") }
            usleep(2_000)
        }
    }

    func sendKey(_ key: String) throws {
        try UIUnderTest.tmux(server, ["send-keys", "-t", "ui", key])
    }

    /// Peak resident set (VmHWM), in MB.
    func peakRSSMegabytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { throw BenchError("no VmHWM for pid \(pid)") }
        return kilobytes / 1024
    }

    /// CPU time of every thread of the UI, in nanoseconds: schedstat's run time (exact) where the
    /// kernel has it, else utime+stime from stat (10 ms ticks).
    func cpuNanoseconds() throws -> UInt64 {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var total: UInt64 = 0
        var exact = !tasks.isEmpty
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                let run = text.split(separator: " ").first.flatMap({ UInt64($0) })
            else {
                exact = false
                break
            }
            total += run
        }
        if exact { return total }
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw BenchError("bad /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else {
            throw BenchError("bad /proc/\(pid)/stat")
        }
        return (user + system) * 1_000_000_000 / UInt64(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Ends the UI and its tmux server, and waits for the UI to be gone.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? UIUnderTest.tmux(server, ["kill-server"])
        let deadline = seconds() + 5
        while pid > 0, kill(pid, 0) == 0, seconds() < deadline { usleep(5_000) }
    }

    /// Runs tmux on this benchmark's own server (`-L`), returning its standard output. Spawned
    /// and reaped by hand: Foundation's `Process` missed the exit of a tmux client here and
    /// waited forever.
    @discardableResult
    static func tmux(_ server: String, _ arguments: [String]) throws -> String {
        let outputPath = "/tmp/pdbench-tmux-\(getpid())-\(server).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A file, not a pipe: the server `new-session` starts would inherit a pipe and hold it open.
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        let argv = ["tmux", "-L", server] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = envp.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, "tmux", &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw BenchError("cannot run tmux: \(String(cString: strerror(spawned))); is tmux installed?") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status >> 8) & 0xff
        guard (status & 0x7f) == 0, exitCode == 0 || arguments.contains("kill-server") else {
            throw BenchError("tmux \(arguments.prefix(3).joined(separator: " ")) failed (status \(status))")
        }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}

/// The UI's trace file, read whole each time (it stays small: a line per frame).
struct TraceFile {
    let path: String

    /// The fields of every line starting with `prefix`.
    func lines(_ prefix: String) -> [[Substring]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { $0.split(separator: " ") }
    }
}
