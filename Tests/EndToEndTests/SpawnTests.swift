import Foundation
import Testing
import TestSupport

/// The tests' own process runner: every program a test runs ends by its deadline, takes what it
/// is given on stdin whatever it writes meanwhile, and holds nothing of another test's.
@Suite struct SpawnTests {
    @Test func aProgramStillRunningAtItsDeadlineIsKilledAndSaysSo() throws {
        let started = Date()
        let finished = try Spawn.collect(["sh", "-c", "echo begun; exec sleep 60"], timeout: 1)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(finished.timedOut && finished.status == -1)
        #expect(String(decoding: finished.stdout, as: UTF8.self) == "begun\n")
        let result = try Spawn.run(["sleep", "60"], captureOutput: true, timeout: 1)
        #expect(result.status == -1 && result.output.contains("sleep 60: killed, still running after 1 s"), "\(result.output)")
    }

    /// A grandchild left holding the output keeps its end open: the wait for end of file ends at
    /// the deadline all the same, with what was written.
    @Test func aGrandchildHoldingTheOutputDoesNotHoldTheTest() throws {
        let started = Date()
        let finished = try Spawn.collect(["sh", "-c", "sleep 60 & echo left"], timeout: 1)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(String(decoding: finished.stdout, as: UTF8.self) == "left\n")
        #expect(finished.timedOut)
    }

    /// Four megabytes in while the program writes them back: neither side waits for the other.
    @Test func stdinIsWrittenWhileBothOutputsAreRead() throws {
        let input = (0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let finished = try Spawn.collect(["sh", "-c", "tee /dev/stderr"], stdin: input, timeout: 60)
        #expect(finished.status == 0 && !finished.timedOut)
        #expect(finished.stdout == input && finished.stderr == input)
        // A program that stops reading early gets what it read; the rest is dropped, not a hang.
        let head = try Spawn.collect(["head", "-c", "10"], stdin: input, timeout: 60)
        #expect(head.status == 0 && head.stdout == Array(input.prefix(10)))
    }

    @Test func exitCodesAndSignalsAreTold() throws {
        #expect(try Spawn.collect(["sh", "-c", "exit 3"]).status == 3)
        let killed = try Spawn.collect(["sh", "-c", "kill -TERM $$"])
        #expect(killed.status == 128 + SIGTERM && killed.signal == SIGTERM)
        // runPushdeck and runProgram say a signal's number, as Foundation's terminationStatus does.
        #expect(try runProgram(["sh", "-c", "kill -TERM $$"]).status == SIGTERM)
        #expect(throws: SpawnError.self) { try Spawn.collect(["/nonexistent/program"]) }
    }

    /// A long-lived program started while another test holds a pipe (not close-on-exec, as
    /// Foundation makes them) has only its standard descriptors.
    @Test func aStartedProgramHoldsNoDescriptorOfAnotherTests() throws {
        let other = Pipe()
        defer { try? other.fileHandleForWriting.close() }
        let pid = try Spawn.start(["sleep", "60"])
        defer {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid)
        }
        // posix_spawn returns once the program is exec'd, but its loader and setlocale then open
        // (and close) libc and locale files: what it holds is read again until it settles, and
        // the other test's pipe must never be among it.
        let otherPipe = try FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/self/fd/\(other.fileHandleForReading.fileDescriptor)")
        var held: [String] = []
        var targets: [String?] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").sorted()
            targets = held.map { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            if held == ["0", "1", "2"] || targets.contains(otherPipe) { break }
            usleep(1_000)
        } while Date() < deadline
        #expect(held == ["0", "1", "2"], "\(held): \(targets)")
        // The watchdog's list of this process's children names it. posix_spawn returns once the
        // program's exec has let go of this process's memory, before the kernel has put the new
        // arguments in place: until then its /proc/PID/cmdline is empty. So the list is read
        // again (for at most 10 s) until it names it, and a miss says what /proc held for it.
        var listed = false
        let listedBy = Date().addingTimeInterval(10)
        repeat {
            listed = RunWatchdog.children().contains { $0.pid == pid && $0.command.hasPrefix("sleep 60") }
            if !listed { usleep(10_000) }
        } while !listed && Date() < listedBy
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "unreadable"
        #expect(listed, "running: \(Spawn.isRunning(pid)), stat: \(stat)")
    }
}
