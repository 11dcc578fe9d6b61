import Foundation
import Testing
import TestSupport

/// `pushdeck ui` as a tmux pane's own process (`remain-on-exit on`, no shell between): after
/// `q` tmux shows the pane dead with status 0, every time — and 2 when the terminal is refused.
@Suite struct PaneExitTests {
    private func startUI(_ folder: TempFolder, term: String = "xterm-256color") throws -> TmuxSession {
        try TmuxSession(
            paneProcess: PackagePaths.pushdeckBinary,
            ["ui", "--socket", folder.file("s.sock"), "--db", folder.file("inbox.sqlite")],
            folder: folder, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": term])
    }

    @Test func quitIsSeenByTmuxFiveTimesInARow() throws {
        let folder = TempFolder()
        for run in 1...5 {
            let tmux = try startUI(folder)
            #expect(tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "run \(run): \(tmux.capture())")
            try tmux.sendKeys("q")
            #expect(tmux.paneExitStatus() == 0, "run \(run)")
        }
    }

    @Test func aRefusedTerminalExitsTwo() throws {
        let tmux = try startUI(TempFolder(), term: "dumb")
        #expect(tmux.paneExitStatus() == 2, "\(tmux.capture())")
    }
}
