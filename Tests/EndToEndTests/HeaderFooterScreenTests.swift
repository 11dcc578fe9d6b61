import Foundation
import PushCore
import Testing
import TestSupport

/// The header and the footer in a real terminal (tmux): at 80×24 the header keeps the counts
/// that matter and cuts no part; at 120 columns the footer keeps the thread mode beside the
/// position counter; the footer and `?` say which mode the list is in; the demo's narration is
/// shown when the demo runs the UI itself.
@Suite struct HeaderFooterScreenTests {
    @Test func at80x24TheHeaderKeepsDroppedHeldAndOfflineWholeAndTheHelpSaysTheMode() throws {
        let ui = try ScreenTests.Running(width: 80, height: 24)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        func run(_ arguments: [String], stdin: Data? = nil) throws {
            let result = try runPushdeck([arguments[0], "--socket", ui.socket] + arguments.dropFirst(), stdin: stdin)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        // In the background: no banner over the header.
        try run(["app", "background"])
        try run(["send", "--app", "com.example.shop", "--title", "listed"])
        try run(["mode", "off"])
        try run(["send", "--app", "com.example.shop", "--title", "dropped"])
        try run(["mode", "on"])
        try run(["app", "terminated"])
        try run(["send", "-", "--app", "com.example.news"], stdin: Data(#"{"taskId":"T","msgId":"M","payload":"held"}"#.utf8))
        try run(["device", "add", "0123abcd", "--app", "com.example.shop"])
        try run(["device", "offline", "0123abcd"])
        try run(["mute", "com.example.news"])
        try run(["quiet", "03:00-03:01"])

        let screen = ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("offline") == true }
        let header = String(screen?.split(separator: "\n").first ?? "")
        #expect(header == " pushdeck  1 unread  badge 1  PUSH [ON]  terminated  1 dropped  1 held  offline", "\(ui.tmux.capture())")

        // `t` lists every message on its own; the footer and the help say so.
        try ui.tmux.sendKeys("t")
        #expect(ui.tmux.waitFor { $0.split(separator: "\n").last?.contains("t all") == true } != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("?")
        #expect(ui.tmux.waitFor { $0.contains("list: every message (now) · t: by thread") } != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    @Test func at120ColumnsTheFooterKeepsTheThreadModeBesideThePositionCounter() throws {
        let ui = try ScreenTests.Running(width: 120, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try runPushdeck(["app", "--socket", ui.socket, "background"]).status == 0)
        for title in ["one", "two"] {
            #expect(try ui.send(["--app", "com.example.shop", "--title", title]).status == 0)
        }
        let screen = ui.tmux.waitFor { $0.split(separator: "\n").last?.contains("1/2") == true }
        let footer = String(screen?.split(separator: "\n").last ?? "")
        #expect(footer.contains("t threads"), "\(ui.tmux.capture())")
        #expect(footer.contains("/ filter  ? help  q quit"), "\(footer)")
        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    @Test func theDemoRunningTheUIItselfShowsItsNarrationInTheFooter() throws {
        let folder = TempFolder()
        // No pushdeck at this socket: the demo starts the UI itself, in memory.
        let command = "\(PackagePaths.pushdeckBinary) demo --speed 40"
        let tmux = try TmuxSession(
            command: command, width: 100, height: 30, folder: folder,
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PUSHDECK_SOCKET": folder.file("none.sock"),
                          "PUSHDECK_RESOURCES": PackagePaths.resources.path])
        let last = tmux.waitFor(timeout: 15) { $0.split(separator: "\n").last?.contains("demo 60.0s: That's the show.") == true }
        #expect(last != nil, "\(tmux.capture())")
        try tmux.sendKeys("q")
        #expect(tmux.exitStatus() == 0)
    }
}
