import Foundation
import Glibc

/// Runs a program with `posix_spawnp` and `waitpid`.
///
/// Foundation's `Process` learns that a child ended when a descriptor it shares with the child
/// closes; a program that leaves a daemon behind (tmux starting its server) keeps that descriptor
/// open, and `waitUntilExit` never returns. `waitpid` has no such problem.
public enum Spawn {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
    }

    public static func run(_ arguments: [String], captureOutput: Bool) throws -> Result {
        var fds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&fds) == 0 else { throw SpawnError(message: "pipe failed") }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let pid: pid_t
        do {
            pid = try spawn(arguments, actions: &actions)
        } catch {
            if captureOutput {
                close(fds[0])
                close(fds[1])
            }
            throw error
        }
        if captureOutput { close(fds[1]) }
        var output = Data()
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fds[0], &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                output.append(contentsOf: buffer[0..<count])
            }
            close(fds[0])
        }
        return Result(status: wait(pid), output: String(decoding: output, as: UTF8.self))
    }

    /// Starts a program in the background (stdin, stdout and stderr /dev/null) with the same
    /// clean signal state as `run`; `wait` reaps it.
    public static func start(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return try spawn(arguments, actions: &actions)
    }

    /// Waits for `pid` to end; its exit code (128 + the signal when a signal ended it).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros: the low 7 bits are the signal, the next 8 the code.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Whether `pid` (a child not yet reaped) still runs.
    public static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    private static func spawn(_ arguments: [String], actions: inout posix_spawn_file_actions_t) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
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
