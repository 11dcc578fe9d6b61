import Foundation
import PushCore
import Testing
import TestSupport

/// Platform fidelity on screen (collapse, silent pushes, mute and quiet hours, expiry, the banner's
/// pause): the real UI in tmux, fed through the real socket.
@Suite struct FidelityScreenTests {
    @Test func aJPushBodyListsTwoRowsAndThePolicyAndDriftFixShow() throws {
        let ui = try ScreenTests.Running(width: 120, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        func run(_ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
            try runPushdeck([arguments[0], "--socket", ui.socket] + arguments.dropFirst(), stdin: stdin)
        }
        #expect(try run(["app", "background"]).status == 0)
        #expect(try run(["badge", "--app", "com.example.shop", "--policy", "platform"]).status == 0)
        #expect(ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("platform: com.example.shop") == true } != nil,
                "\(ui.tmux.capture())")

        let body = #"{"notification":{"android":{"title":"Android only"},"ios":{"alert":"iOS note","badge":4}},"message":{"title":"In-app","msg_content":"hello"}}"#
        let sent = try run(["send", "--app", "com.example.shop", "-"], stdin: Data(body.utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        let listed = ui.tmux.waitFor { $0.contains("iOS note") && $0.contains("In-app") }
        #expect(listed != nil, "\(ui.tmux.capture())")
        let rows = listed?.split(separator: "\n") ?? []
        #expect(rows.contains { $0.contains("APNs") && $0.contains("iOS note") })
        #expect(rows.contains { $0.contains("pass") && $0.contains("In-app") })
        #expect(listed?.contains("Android only") == false)
        #expect(rows.first?.contains("badge 4") == true)

        // JPush's setBadge moves only its server badge: the header flags the drift and the
        // detail view names the call that fixes it.
        #expect(try run(["badge", "--app", "com.example.shop", "--sdk", "jpush", "setBadge", "0"]).output == "4")
        #expect(ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("badge 4 (server 0)") == true } != nil,
                "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("Enter")
        let detail = ui.tmux.waitFor { $0.contains("[JPUSHService setBadge:4]") }
        #expect(detail != nil, "\(ui.tmux.capture())")
        #expect(detail?.contains("policy platform") == true)
        try ui.tmux.sendKeys("q")
    }

    @Test func aCollapsedPushReplacesTheBannerAndTheRowAndASilentOneIsListedOnly() throws {
        let ui = try ScreenTests.Running(width: 100, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try ui.send(["--app", "com.example.live", "--title", "Match", "--body", "score 1:0", "--collapse-id", "m7"]).status == 0)
        #expect(ui.tmux.waitFor(timeout: 1) { $0.contains("score 1:0") } != nil, "\(ui.tmux.capture())")
        #expect(try ui.send(["--app", "com.example.live", "--title", "Match", "--body", "score 2:0", "--collapse-id", "m7"]).status == 0)
        let replaced = ui.tmux.waitFor(timeout: 1) { $0.contains("score 2:0") }
        #expect(replaced != nil, "\(ui.tmux.capture())")
        #expect(replaced?.contains("+1") == false)
        try ui.tmux.sendKeys("Escape")
        let listed = ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("1 unread") == true }
        #expect(listed != nil, "\(ui.tmux.capture())")
        #expect(listed?.contains("score 1:0") == false)

        let silent = #"{"aps":{"content-available":1},"Simulator Target Bundle":"com.example.live"}"#
        #expect(try runPushdeck(["send", "--socket", ui.socket, "-"], stdin: Data(silent.utf8)).status == 0)
        let screen = ui.tmux.waitFor { $0.contains("[silent] background fetch") }
        #expect(screen != nil, "\(ui.tmux.capture())")
        // No banner: the header stays on the top row, and the unread count did not move.
        #expect(screen?.split(separator: "\n").first?.contains("1 unread") == true)
        try ui.tmux.sendKeys("q")
    }

    @Test func muteAndQuietShowInTheHeaderAndAMutedAppGetsNoBanner() throws {
        let ui = try ScreenTests.Running(width: 120, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try runPushdeck(["mute", "--socket", ui.socket, "com.example.shop"]).status == 0)
        #expect(try runPushdeck(["quiet", "--socket", ui.socket, "03:00-03:01"]).status == 0)
        // The reply to `quiet` can come before the frame that shows it: wait for both on the header.
        let header = ui.tmux.waitFor {
            let top = $0.split(separator: "\n").first ?? ""
            return top.contains("muted: com.example.shop") && top.contains("quiet 03:00-03:01")
        }
        #expect(header != nil, "\(ui.tmux.capture())")
        // The muted app's push is listed (header stays on top: no banner); a time-sensitive one shows.
        #expect(try ui.send(["--app", "com.example.shop", "--title", "Muted one"]).status == 0)
        let listed = ui.tmux.waitFor { $0.contains("Muted one") }
        #expect(listed?.split(separator: "\n").first?.contains("1 unread") == true, "\(ui.tmux.capture())")
        let urgent = #"{"aps":{"alert":{"title":"Urgent","body":"gate change"},"interruption-level":"time-sensitive"},"Simulator Target Bundle":"com.example.shop"}"#
        #expect(try runPushdeck(["send", "--socket", ui.socket, "-"], stdin: Data(urgent.utf8)).status == 0)
        let banner = ui.tmux.waitFor(timeout: 1) { $0.contains("com.example.shop · Urgent") }
        #expect(banner != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
    }

    @Test func anExpiredHeldMessageIsListedAsExpired() throws {
        let ui = try ScreenTests.Running(width: 100, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try runPushdeck(["app", "--socket", ui.socket, "terminated"]).status == 0)
        let body = #"{"message":{"title":"Flash sale","msg_content":"ends now"},"options":{"time_to_live":0},"appKey":"com.example.news"}"#
        #expect(try runPushdeck(["send", "--socket", ui.socket, "-"], stdin: Data(body.utf8)).status == 0)
        #expect(try runPushdeck(["app", "--socket", ui.socket, "foreground"]).status == 0)
        let screen = ui.tmux.waitFor { $0.contains("[expired] Flash sale") }
        #expect(screen != nil, "\(ui.tmux.capture())")
        #expect(screen?.split(separator: "\n").first?.contains("0 unread") == true)
        try ui.tmux.sendKeys("q")
    }

    @Test func tabFocusesTheBannerAndPausesItsTimer() throws {
        let ui = try ScreenTests.Running(width: 100, height: 30, extra: "--banner-seconds 30")
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try ui.send(["--app", "com.example.shop", "--title", "Hold me"]).status == 0)
        #expect(ui.tmux.waitFor(timeout: 1) { $0.contains("com.example.shop · Hold me") } != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("Tab")
        let paused = ui.tmux.waitFor { $0.contains("focused · paused") }
        #expect(paused != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("Tab")
        let running = ui.tmux.waitFor { !$0.contains("paused") && $0.contains("Hold me") }
        #expect(running != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
    }

    @Test func thePointerOverTheBannerPausesItsTimer() throws {
        let ui = try ScreenTests.Running(width: 100, height: 30, extra: "--banner-seconds 30")
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try ui.send(["--app", "com.example.shop", "--title", "Hover me"]).status == 0)
        #expect(ui.tmux.waitFor(timeout: 1) { $0.contains("com.example.shop · Hover me") } != nil, "\(ui.tmux.capture())")
        try ui.tmux.move(x: 10, y: 1)
        let paused = ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("paused") == true }
        #expect(paused != nil, "\(ui.tmux.capture())")
        #expect(paused?.contains("focused") == false)
        try ui.tmux.move(x: 10, y: 20)
        let running = ui.tmux.waitFor { $0.contains("Hover me") && !$0.contains("paused") }
        #expect(running != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
    }
}
