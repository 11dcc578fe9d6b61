import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// pushdeck leaves the terminal as it found it on every way out, and payload text never steers it.
@Suite struct TerminalSafetyTests {
    /// How the UI is made to leave.
    enum Exit: String, CaseIterable, CustomTestStringConvertible {
        case quitKey, controlC, sigterm, sighup, crash
        var testDescription: String { rawValue }
    }

    @Test(arguments: Exit.allCases)
    func theTerminalModesAreRestored(exit: Exit) throws {
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        // stty -g before and after, in the same terminal; the UI in between. The shell traps ^C
        // (a trap is reset to the default in the child) so that it lives on to run the second stty.
        let command = "trap : INT; stty -g > \(folder.file("before")); \(PackagePaths.pushdeckBinary) ui --memory --socket \(socket); "
            + "stty -g > \(folder.file("after"))"
        // Swift's crash backtracer would otherwise wait for a key before exiting.
        let tmux = try TmuxSession(command: command, folder: folder,
                                   environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no"])
        #expect(tmux.waitFor(timeout: 15) { $0.contains("PUSH [ON]") } != nil, "\(tmux.capture())")
        _ = try runPushdeck(["send", "--socket", socket, "--title", "before leaving"])
        #expect(tmux.waitFor(timeout: 15) { $0.contains("before leaving") } != nil)

        switch exit {
        case .quitKey: try tmux.sendKeys("q")
        case .controlC: try tmux.sendKeys("C-c")
        case .sigterm: try signalUI(SIGTERM, socket: socket)
        case .sighup: try signalUI(SIGHUP, socket: socket)
        case .crash: try signalUI(SIGABRT, socket: socket)
        }
        let status = tmux.exitStatus(timeout: 10)
        #expect(status != nil)
        if exit != .crash { #expect(status == 0) }
        let before = try String(contentsOfFile: folder.file("before"), encoding: .utf8)
        let after = try String(contentsOfFile: folder.file("after"), encoding: .utf8)
        #expect(!before.isEmpty)
        #expect(before == after, "stty -g differs after \(exit)")
    }

    @Test func escapeSequencesAndControlsInPayloadsAreShownAsInertText() throws {
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        let command = "\(PackagePaths.pushdeckBinary) ui --memory --socket \(socket)"
        let tmux = try TmuxSession(command: command, folder: folder, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(tmux.waitFor { $0.contains("PUSH [ON]") } != nil)
        let titleBefore = try tmux.paneTitle()

        let hostile = [
            "csi\u{1b}[2J\u{1b}[H\u{1b}[31mred",          // clear screen, home, colour
            "osc\u{1b}]0;pwned-title\u{07}after",          // window title
            "clip\u{1b}]52;c;aGVsbG8=\u{07}board",         // clipboard write (OSC 52)
            "dcs\u{1b}P1$qm\u{1b}\\end",                   // device control string
            "bell\u{07}\u{07}ring",
            "c1\u{9b}2Jcsi\u{9d}0;t\u{9c}",                // C1 controls
            "bidi\u{202e}desrever\u{202c}ok",              // right-to-left override
            "zero\u{200b}width\u{2066}iso\u{2069}",        // zero-width space, isolate
        ]
        for (index, text) in hostile.enumerated() {
            let payload: JSON = ["aps": ["alert": ["title": .string("T\(index)"), "body": .string(text)]]]
            let sent = try runPushdeck(["send", "-", "--socket", socket], stdin: Data(payload.compactText.utf8))
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        try tmux.sendKeys("Escape")
        let screen = try #require(tmux.waitFor { $0.contains("8 unread") && $0.contains("T7") }, "\(tmux.capture())")
        // The screen was not cleared: the header and every row are still there.
        #expect(screen.contains("pushdeck"))
        for index in 0..<8 { #expect(screen.contains("T\(index)"), "row T\(index) missing") }
        // The printable parts show; the sequences did nothing.
        #expect(screen.contains("red"))
        #expect(screen.contains("after"))
        #expect(screen.contains("ring"))
        #expect(!screen.contains("\u{202e}"))
        #expect(try tmux.paneTitle() == titleBefore)
        #expect(try tmux.paneTitle() != "pwned-title")
        #expect(try tmux.buffers().isEmpty, "a payload wrote to the clipboard")
        try tmux.sendKeys("q")
        #expect(tmux.exitStatus() == 0)
    }

    /// Sends a signal to the UI process serving `socket`.
    private func signalUI(_ signal: Int32, socket: String) throws {
        // Anchored: the shell's and tmux's command lines contain the same words.
        let pattern = "^\(PackagePaths.pushdeckBinary) ui --memory --socket \(socket)$"
        let found = try Spawn.run(["pgrep", "-f", pattern], captureOutput: true)
        let pid = try #require(pid_t(found.output.split(separator: "\n").first ?? ""))
        kill(pid, signal)
    }
}
