import CSpawn
import Foundation
import Glibc

/// Runs programs with `posix_spawnp` and `waitpid`, never waiting without a deadline.
///
/// Foundation's `Process` learns that a child ended when a descriptor it shares with the child
/// closes; a program that leaves a daemon behind (tmux starting its server) keeps that descriptor
/// open, and `waitUntilExit` never returns. `waitpid` has no such problem.
///
/// Tests run in parallel, so a program started here must hold no descriptor of another test's:
/// every pipe made here is close-on-exec, and a child closes every descriptor above 2 before it
/// runs. Otherwise a long-lived child (a tmux server, a broker) started while another test reads a
/// pipe keeps that pipe's write end open, and the other test waits for an end of file that comes
/// only when the child dies.
public enum Spawn {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
    }

    /// What a program run to its end left: its status (its exit code, 128 + the signal when a
    /// signal ended it, -1 when it was killed at its deadline) and what it wrote.
    public struct Finished: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        public var timedOut: Bool
        /// How the program ended, in Foundation's words: a signal's number when one ended it.
        public var signal: Int32?
    }

    /// How long a program a test runs may take before it is killed: far beyond what any of them
    /// needs (a client's whole exchange is seconds; making the test venv, which takes minutes,
    /// passes its own), so a program that hangs fails its test, naming the program, instead of
    /// hanging the run.
    public static let deadline: Double = 300

    /// Runs `arguments` to its end: stdout kept when `captureOutput` (else /dev/null), stderr
    /// to /dev/null.
    public static func run(_ arguments: [String], captureOutput: Bool, timeout: Double = deadline) throws -> Result {
        let finished = try collect(arguments, stdout: captureOutput ? .pipe : .null, stderr: .null, timeout: timeout)
        var output = String(decoding: finished.stdout, as: UTF8.self)
        if finished.timedOut { output += "\n[\(arguments.joined(separator: " ")): killed, still running after \(Int(timeout)) s]" }
        return Result(status: finished.status, output: output)
    }

    /// Where a child's output goes.
    public enum Sink: Sendable { case null, pipe }

    /// Runs `arguments` (found on `PATH`) to its end: `stdin` written and closed (nothing: /dev/null),
    /// both outputs read while it runs (so neither pipe fills up), and at `timeout` seconds a
    /// SIGKILL. `environment` replaces this process's (nil: this process's, TMUX removed).
    public static func collect(
        _ arguments: [String], environment: [String: String]? = nil, stdin: [UInt8]? = nil,
        stdout: Sink = .pipe, stderr: Sink = .pipe, timeout: Double = deadline
    ) throws -> Finished {
        ignoreBrokenPipes
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The parent's ends: the child's input (written, then closed), its two outputs (read to end of file).
        var input: Int32?
        var outputs: [Int32?] = [nil, nil]
        var childEnds: [Int32] = []
        defer { for fd in [input] + outputs { if let fd { close(fd) } } }
        if stdin != nil {
            let ends = try makePipe()
            (input, childEnds) = (ends.write, [ends.read])
            posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (index, sink) in [stdout, stderr].enumerated() {
            switch sink {
            case .null: posix_spawn_file_actions_addopen(&actions, Int32(index + 1), "/dev/null", O_WRONLY, 0)
            case .pipe:
                let ends = try makePipe()
                outputs[index] = ends.read
                childEnds.append(ends.write)
                posix_spawn_file_actions_adddup2(&actions, ends.write, Int32(index + 1))
            }
        }
        let spawned = Swift.Result { try spawn(arguments, environment: environment, actions: &actions) }
        // The child has its copies: end of file comes when the child (and what it left behind) closes them.
        childEnds.forEach { close($0) }
        let pid = try spawned.get()

        let deadline = Date().addingTimeInterval(timeout)
        let pending = stdin ?? []
        var written = 0
        if let fd = input {
            if pending.isEmpty {
                close(fd)
                input = nil
            } else {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        var bytes: [[UInt8]] = [[], []]
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while input != nil || outputs.contains(where: { $0 != nil }) {
            var remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                // Killed at its deadline: one more poll (up to a second) takes what it wrote last;
                // an output a left-behind grandchild still holds is not waited for.
                guard !timedOut else { break }
                timedOut = true
                kill(pid, SIGKILL)
                if let fd = input { close(fd) }
                input = nil
                remaining = 1
            }
            var fds = outputs.compactMap { $0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let fd = input { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1) < 0 && errno == EINTR { continue }
            for entry in fds where entry.revents != 0 {
                if let slot = outputs.firstIndex(where: { $0 == entry.fd }) {
                    let count = read(entry.fd, &buffer, buffer.count)
                    if count > 0 {
                        bytes[slot].append(contentsOf: buffer[0..<count])
                    } else if count == 0 || errno != EINTR {
                        close(entry.fd)
                        outputs[slot] = nil
                    }
                } else if entry.fd == input {
                    let count = pending[written...].withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 { written += count }
                    // Written whole, or the child closed its standard input: either way it is done with it.
                    if written == pending.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        input = nil
                    }
                }
            }
        }
        let ended = wait(pid, until: timedOut ? Date() : deadline)
        return Finished(
            status: timedOut || ended.killed ? -1 : ended.status, stdout: bytes[0], stderr: bytes[1],
            timedOut: timedOut || ended.killed, signal: ended.signal)
    }

    /// Starts a program in the background (stdin, stdout and stderr /dev/null) with the same
    /// clean signal state and descriptors as `run`; `wait` reaps it.
    public static func start(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return try spawn(arguments, environment: nil, actions: &actions)
    }

    /// Waits for `pid` to end; its exit code (128 + the signal when a signal ended it).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return decode(status).status
    }

    /// Whether `pid` (a child not yet reaped) still runs.
    public static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Waits for `pid` until `deadline`, then SIGKILLs it and reaps it.
    private static func wait(_ pid: pid_t, until deadline: Date) -> (status: Int32, signal: Int32?, killed: Bool) {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return (decode(status).status, decode(status).signal, false) }
            if reaped < 0 && errno != EINTR { return (-1, nil, false) }
            if Date() >= deadline { break }
            usleep(2_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (decode(status).status, decode(status).signal, true)
    }

    /// WIFEXITED / WEXITSTATUS are macros: the low 7 bits are the signal, the next 8 the code.
    private static func decode(_ status: Int32) -> (status: Int32, signal: Int32?) {
        status & 0x7f == 0 ? ((status >> 8) & 0xff, nil) : (128 + (status & 0x7f), status & 0x7f)
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pushdeck_pipe_cloexec(&fds) == 0 else { throw SpawnError(message: "pipe2: \(String(cString: strerror(errno)))") }
        return (fds[0], fds[1])
    }

    /// A test writing to a child that has exited gets EPIPE, not a signal that ends the test run.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func spawn(
        _ arguments: [String], environment given: [String: String]?, actions: inout posix_spawn_file_actions_t
    ) throws -> pid_t {
        RunWatchdog.arm()
        var environment = given ?? ProcessInfo.processInfo.environment
        if given == nil { environment["TMUX"] = nil }
        // Nothing of another test's (a pipe, Foundation's watch on its own child) goes with the program.
        pushdeck_spawn_actions_closefrom(&actions, 3)
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        // Start with no signal blocked and every handler at its default: the test runner's threads
        // block signals, and tmux's panes would otherwise ignore the SIGHUP of `kill-server`.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw SpawnError(message: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }
}

public struct SpawnError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
