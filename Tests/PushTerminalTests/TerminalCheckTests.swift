import CNCurses
import Foundation
import Glibc
import Testing
@testable import PushTerminal

// setupterm writes curses' global cur_term: these tests must not overlap.
@Suite("Terminal checks", .serialized)
struct TerminalCheckTests {
    @Test func pipeIsNotATerminal() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(TerminalCheck.tty(fds[1]) == .notATerminal)
        #expect(TerminalCheck.run(fd: fds[1], environment: ["TERM": "xterm"]) == .notATerminal)
    }

    @Test func devNullIsNotATerminal() {
        let fd = open("/dev/null", O_WRONLY)
        defer { close(fd) }
        #expect(TerminalCheck.run(fd: fd, environment: [:]) == .notATerminal)
    }

    @Test func dumbTerminalCannotAddress() throws {
        let pty = try #require(Pseudoterminal())
        defer { pty.close() }
        #expect(TerminalCheck.tty(pty.secondary) == nil)
        #expect(TerminalCheck.run(fd: pty.secondary, environment: [:]) == .termUnset)
        #expect(TerminalCheck.terminfo(term: "dumb", fd: pty.secondary) == .notAddressable("dumb"))
    }

    @Test func unknownTerminal() throws {
        let pty = try #require(Pseudoterminal())
        defer { pty.close() }
        let problem = TerminalCheck.terminfo(term: "no-such-terminal-pushdeck", fd: pty.secondary)
        #expect(problem == .unknownTerminal("no-such-terminal-pushdeck"))
    }

    @Test func xtermIsFine() throws {
        let pty = try #require(Pseudoterminal())
        defer { pty.close() }
        #expect(TerminalCheck.terminfo(term: "xterm", fd: pty.secondary) == nil)
    }

    @Test func messagesAreOneLine() {
        let problems: [TerminalProblem] = [
            .notATerminal, .termUnset, .unknownTerminal("x"), .noTerminfo("x"), .notAddressable("dumb"),
            .notUTF8(codeset: "ANSI_X3.4-1968"), .cursesFailed("x"),
        ]
        for problem in problems {
            #expect(!problem.description.contains("\n"))
            #expect(problem.description.hasPrefix("pushdeck: "))
        }
    }
}

/// A pseudo-terminal pair, so terminal checks can run without a real terminal.
struct Pseudoterminal {
    let primary: Int32
    let secondary: Int32

    init?() {
        var primary: Int32 = -1
        var secondary: Int32 = -1
        guard pd_open_pseudoterminal(&primary, &secondary) == 0 else { return nil }
        self.primary = primary
        self.secondary = secondary
    }

    func close() {
        Glibc.close(secondary)
        Glibc.close(primary)
    }
}
