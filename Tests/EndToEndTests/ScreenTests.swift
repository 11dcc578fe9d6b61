import Foundation
import PushCore
import Testing
import TestSupport

/// The full-screen UI in a real terminal (tmux), fed through the real socket.
@Suite struct ScreenTests {
    struct Running {
        let tmux: TmuxSession
        let socket: String

        init(width: Int = 100, height: Int = 30, extra: String = "", environment: [String: String] = [:]) throws {
            let folder = TempFolder()
            socket = folder.file("s.sock")
            let command = "\(PackagePaths.pushdeckBinary) ui --socket \(socket) --db \(folder.file("inbox.sqlite")) \(extra)"
            tmux = try TmuxSession(command: command, width: width, height: height, folder: folder,
                                   environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
        }

        func send(_ arguments: [String]) throws -> CommandResult {
            try runPushdeck(["send", "--socket", socket] + arguments)
        }
    }

    @Test func bannerHeaderPushSwitchDetailResizeAndQuit() throws {
        let ui = try Running()
        let header = ui.tmux.waitFor { $0.contains("pushdeck") && $0.contains("PUSH [ON]") }
        #expect(header != nil, "no header: \(ui.tmux.capture())")
        #expect(header?.split(separator: "\n").first?.contains("0 unread") == true)

        let sent = try ui.send(["--title", "Order shipped", "--body", "訂單 1270339 已發貨", "--app", "com.example.shop"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let banner = ui.tmux.waitFor(timeout: 1) { $0.contains("訂單 1270339 已發貨") && $0.contains("com.example.shop · Order shipped") }
        #expect(banner != nil, "no banner within 1 s: \(ui.tmux.capture())")
        // The banner covers the header, as STPushView covers the status bar.
        #expect(banner?.split(separator: "\n").first?.contains("PUSH [ON]") == false)

        // Esc sends it up at once; the header is back and counts the message.
        try ui.tmux.sendKeys("Escape")
        let back = ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("1 unread") == true }
        #expect(back != nil, "header did not come back: \(ui.tmux.capture())")
        #expect(back?.split(separator: "\n").first?.contains("badge 1") == true)

        // Push mode off: the header says so and the next push is dropped and counted.
        try ui.tmux.sendKeys("m")
        #expect(ui.tmux.waitFor { $0.contains("PUSH [OFF]") } != nil)
        let dropped = try ui.send(["--title", "never shown"])
        #expect(dropped.stdout.contains(#""delivered":false"#))
        #expect(ui.tmux.waitFor { $0.contains("1 dropped") } != nil, "\(ui.tmux.capture())")
        #expect(!ui.tmux.capture().contains("never shown"))

        // Enter opens the detail view; opening reads it and the badge drops.
        try ui.tmux.sendKeys("Enter")
        let detail = ui.tmux.waitFor { $0.contains("payload") && $0.contains("0 unread") }
        #expect(detail != nil, "\(ui.tmux.capture())")
        #expect(detail?.contains("badge 0") == true)
        #expect(detail?.contains("\"title\": \"Order shipped\"") == true)

        // At 80×24 every line stays within 80 columns.
        try ui.tmux.resize(width: 80, height: 24)
        try ui.tmux.sendKeys("Escape")
        let small = ui.tmux.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return screen.contains("PUSH [OFF]") && lines.count <= 25 && lines.allSatisfy { $0.columnsApprox <= 80 }
        }
        #expect(small != nil, "\(ui.tmux.capture())")

        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    @Test func aClickSelectsARowASecondClickOpensItAndTheWheelScrolls() throws {
        let ui = try Running()
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil)
        // In the background: no banner to cover the list or catch the click.
        #expect(try runPushdeck(["app", "background", "--socket", ui.socket]).status == 0)
        let titles = (1...6).map { "Order number \($0)" }
        for title in titles {
            #expect(try ui.send(["--title", title, "--app", "com.example.shop"]).status == 0)
        }
        let listed = ui.tmux.waitFor { $0.contains("Order number 1") && $0.contains("6 unread") }
        #expect(listed != nil, "\(ui.tmux.capture())")
        let lines = listed?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        func row(of title: String) throws -> Int {
            try #require(lines.firstIndex { $0.contains(title) }, "\(title) not on screen: \(listed ?? "")")
        }

        // One click selects (Enter then opens that one); it does not read it.
        try ui.tmux.click(x: 10, y: try row(of: "Order number 4"))
        try ui.tmux.sendKeys("Enter")
        let first = ui.tmux.waitFor { $0.contains("payload") }
        #expect(first?.contains("\"title\": \"Order number 4\"") == true, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("Escape")
        #expect(ui.tmux.waitFor { $0.contains("5 unread") && !$0.contains("payload") } != nil)

        // Two clicks on another row open it, as a second tap would; opening reads it.
        try ui.tmux.click(x: 10, y: try row(of: "Order number 5"))
        try ui.tmux.click(x: 10, y: try row(of: "Order number 5"))
        let second = ui.tmux.waitFor { $0.contains("payload") && $0.contains("4 unread") }
        #expect(second?.contains("\"title\": \"Order number 5\"") == true, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("Escape")
        #expect(ui.tmux.waitFor { !$0.contains("payload") } != nil)

        // The newest is at the top: from there one notch of the wheel moves the selection 3 down.
        try ui.tmux.sendKeys("Home")
        try ui.tmux.wheel(up: false, x: 10, y: try row(of: "Order number 6"))
        try ui.tmux.sendKeys("Enter")
        let wheeled = ui.tmux.waitFor { $0.contains("payload") }
        #expect(wheeled?.contains("\"title\": \"Order number 3\"") == true, "\(ui.tmux.capture())")

        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    /// A double click whose reports arrive together (one read) opens the row: curses merges them
    /// into one double-click event, which was not asked for and so was lost.
    @Test func aDoubleClickArrivingInOneReadOpensTheRow() throws {
        try theMiddleOfThreeRowsOpens { tmux, row in try tmux.doubleClick(x: 10, y: row) }
    }

    /// A click and the Enter typed after it, read together (a busy program, a slow link): the
    /// click still selects its row, so Enter opens that one. curses ends the click's run of mouse
    /// reports at the Enter without merging them, and its newest event is the bare release, which
    /// stands for no click: the press behind it was lost and Enter opened the top row.
    @Test func aClickAndTheEnterAfterItInOneReadOpenTheClickedRow() throws {
        try theMiddleOfThreeRowsOpens { tmux, row in try tmux.click(x: 10, y: row, thenType: "\r") }
    }

    /// Three pushes listed in the background; `gesture` on the row of the middle one must open it
    /// (and so read it).
    private func theMiddleOfThreeRowsOpens(by gesture: (TmuxSession, Int) throws -> Void) throws {
        let ui = try Running()
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil)
        #expect(try runPushdeck(["app", "background", "--socket", ui.socket]).status == 0)
        for title in ["Order number 1", "Order number 2", "Order number 3"] {
            #expect(try ui.send(["--title", title, "--app", "com.example.shop"]).status == 0)
        }
        let listed = ui.tmux.waitFor { $0.contains("Order number 1") && $0.contains("3 unread") }
        let lines = listed?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        let row = try #require(lines.firstIndex { $0.contains("Order number 2") }, "\(listed ?? "")")
        try gesture(ui.tmux, row)
        let opened = ui.tmux.waitFor { $0.contains("payload") && $0.contains("2 unread") }
        #expect(opened?.contains("\"title\": \"Order number 2\"") == true, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    @Test func theFilterShowsOnlyMatchesAndKeepsUpWithNewPushes() throws {
        let ui = try Running()
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil)
        #expect(try runPushdeck(["app", "background", "--socket", ui.socket]).status == 0)
        for title in ["Parcel shipped", "Weekly news", "訂單 已發貨 shipped", "Weather"] {
            #expect(try ui.send(["--title", title]).status == 0)
        }
        #expect(ui.tmux.waitFor { $0.contains("Weather") && $0.contains("4 unread") } != nil)
        try ui.tmux.sendKeys("/", "S", "H", "I", "P")
        let filtered = ui.tmux.waitFor { $0.contains("/SHIP") && !$0.contains("Weather") }
        #expect(filtered != nil, "\(ui.tmux.capture())")
        #expect(filtered?.contains("Parcel shipped") == true && filtered?.contains("訂單 已發貨 shipped") == true)
        #expect(filtered?.contains("Weekly news") == false)
        #expect(filtered?.contains("1/2") == true, "\(filtered ?? "")")
        // A push that matches joins the filtered list; one that does not stays out.
        #expect(try ui.send(["--title", "Ship date moved"]).status == 0)
        #expect(try ui.send(["--title", "Lunch"]).status == 0)
        let updated = ui.tmux.waitFor { $0.contains("Ship date moved") && $0.contains("1/3") }
        #expect(updated != nil, "\(ui.tmux.capture())")
        #expect(updated?.contains("Lunch") == false)
        try ui.tmux.sendKeys("Escape")
        #expect(ui.tmux.waitFor { $0.contains("Lunch") && $0.contains("Weather") } != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    /// Wide characters, combining marks and emoji sequences keep every column after them where
    /// the grid puts it, through redraws that change those rows (curses' cursor never drifts).
    @Test func wideAndJoinedGraphemesKeepTheColumnsAfterThem() throws {
        let ui = try Running()
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil)
        // Title column at 100 columns: 3 + 10 + 20 (app) + 8. Each marker letter's column follows.
        let titles = [("T中文 A", "A", 47), ("Te\u{301}cole B", "B", 48), ("T👍🏽 C", "C", 45), ("T❤️ D", "D", 45)]
        for (title, _, _) in titles {
            let sent = try ui.send(["--title", title, "--body", "x", "--app", "com.example.shop"])
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        func columnsAreRight(_ screen: String) -> Bool {
            titles.allSatisfy { title, marker, column in
                screen.split(separator: "\n").contains { line in
                    guard line.contains("com.example.shop"), let start = line.firstIndex(of: "T"),
                        let end = line[start...].firstIndex(where: { String($0) == marker })
                    else { return false }
                    return line[..<start].columnsApprox == 41 && line[..<end].columnsApprox == column
                }
            }
        }
        try ui.tmux.sendKeys("Escape")
        #expect(ui.tmux.waitFor(columnsAreRight) != nil, "\(ui.tmux.capture())")
        for key in ["End", "Home", "j", "j", "k"] {
            try ui.tmux.sendKeys(key)
            #expect(ui.tmux.waitFor(columnsAreRight) != nil, "after \(key): \(ui.tmux.capture())")
        }
        try ui.tmux.sendKeys("q")
        #expect(ui.tmux.exitStatus() == 0)
    }

    @Test func aBadTerminalIsRefusedWithOneLineAndExitTwo() throws {
        for term in ["dumb", "no-such-terminal-xyz"] {
            let ui = try Running(environment: ["TERM": term])
            #expect(ui.tmux.exitStatus() == 2, "TERM=\(term): \(ui.tmux.capture())")
        }
        let notATTY = try runPushdeck(["ui", "--memory", "--socket", "/tmp/pd-notty.sock"])
        #expect(notATTY.status == 2)
        #expect(notATTY.stderr.contains("terminal"))
    }
}

extension Substring {
    /// Display columns as tmux lays them out: wide (CJK) characters take two.
    var columnsApprox: Int {
        reduce(0) { total, character in
            let wide = character.unicodeScalars.first.map { (0x1100...0x115F).contains($0.value) || (0x2E80...0xA4CF).contains($0.value)
                || (0xAC00...0xD7A3).contains($0.value) || (0xF900...0xFAFF).contains($0.value) || (0xFF00...0xFF60).contains($0.value)
                || (0x1F300...0x1FAFF).contains($0.value) } ?? false
            return total + (wide ? 2 : 1)
        }
    }
}

/// A banner whose text carries a joiner, variation selector and keycap mark
/// with no base leaves every row where the grid put it, in a real terminal.
@Suite struct OrphanMarkScreenTests {
    @Test func orphanMarksInABannerShiftNoRow() throws {
        let folder = TempFolder()
        let socket = folder.file("s.sock")
        let tmux = try TmuxSession(command: "\(PackagePaths.pushdeckBinary) ui --memory --socket \(socket)",
                                   width: 60, height: 12, folder: folder, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(tmux.waitFor { $0.contains("PUSH [ON]") } != nil)
        for title in ["first", "second", "third"] {
            #expect(try runPushdeck(["send", "--socket", socket, "--title", title, "--body", "row"]).status == 0)
        }
        try tmux.sendKeys("Escape")
        #expect(tmux.waitFor { $0.contains("3 unread") } != nil, "\(tmux.capture())")
        let marks = "\u{200d}\u{fe0f}\u{20e3}"
        let sent = try runPushdeck(["send", "--socket", socket, "--title", "T\(marks)x", "--body", "\(marks)ab\(marks)cd \(marks) e"])
        #expect(sent.status == 0, "\(sent.stderr)")
        // The whole banner: its top edge on the first row, its bottom edge on the third.
        let banner = try #require(tmux.waitFor { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return rows.count > 3 && rows[0].hasPrefix("╭") && rows[1].contains("abcd") && rows[2].hasPrefix("╰")
        }, "no banner: \(tmux.capture())")
        // The terminal's cells hold no orphan mark, and the box edges line up: every banner row
        // is exactly 60 cells as the terminal counts them.
        #expect(!banner.unicodeScalars.contains { [0x200D, 0xFE0F, 0x20E3].contains($0.value) }, "\(banner.debugDescription)")
        let rows = banner.split(separator: "\n", omittingEmptySubsequences: false)
        for row in rows.prefix(3) { #expect(row.count == 60, "\(row.debugDescription)") }
        #expect(rows.prefix(3).last?.hasSuffix("╯") == true)
        // The row under the banner starts where it did.
        #expect(rows.dropFirst(3).first == " ● just now  default       APNs  second — row", "\(banner)")
        try tmux.sendKeys("Escape")
        let after = try #require(tmux.waitFor { $0.contains("4 unread") }, "\(tmux.capture())")
        let lines = after.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("APNs  Tx — abcd  e") }, "\(after)")
        #expect(lines.contains { $0.hasSuffix("APNs  first — row") }, "\(after)")
        try tmux.sendKeys("q")
        #expect(tmux.exitStatus() == 0)
    }
}
