import Foundation
import PushClient
import PushCore
import Testing
import TestSupport
import PushJSON

/// `reset` and `expect` through the real binary, real socket, real SQLite file.
@Suite struct VerdictCommandTests {
    let shop = "com.example.shop"
    let news = "com.example.news"

    private func send(_ server: ServerProcess, title: String, app: String = "com.example.shop") throws -> Int64 {
        let sent = try server.run(["send", "--title", title, "--body", "body of \(title)", "--app", app])
        let reply = try #require(try JSON.parse(sent.output).objectValue, "\(sent.stderr)")
        return try #require(reply["id"]?.intValue.map(Int64.init))
    }

    // MARK: reset

    @Test func resetClearsEverythingInOneCommittedChangeAndSurvivesARestart() throws {
        let folder = TempFolder()
        var server = try ServerProcess(folder: folder)
        _ = try send(server, title: "one")
        _ = try send(server, title: "two", app: news)
        #expect(try server.run(["app", "terminated"]).status == 0)
        let held = try server.run(["send", "-", "--app", news], stdin: Data(#"{"taskId":"T","msgId":"M","payload":"held"}"#.utf8))
        #expect(held.stdout.contains(#""held":true"#))
        #expect(try server.run(["mode", "off"]).status == 0)
        #expect(try server.run(["send", "--title", "dropped"]).stdout.contains(#""delivered":false"#))

        let reset = try server.run(["reset", "--json"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.output == #"{"ok":true,"badge":0}"#)
        func checkClean() throws {
            #expect(try server.run(["list", "--json"]).output == "[]")
            #expect(try server.run(["badge"]).output == "0")
            #expect(try server.run(["badge", "--server"]).output == "0")
            #expect(try server.run(["mode"]).output == "on")
            #expect(try server.run(["app"]).output == "foreground")
        }
        try checkClean()
        // Committed: a restart finds the same clean state (and the held message gone for good).
        server.stop()
        server = try ServerProcess(folder: folder)
        try checkClean()
        // Ids keep counting up: a "since ID" from before the reset never meets a reused id.
        #expect(try send(server, title: "after") == 4)
    }

    @Test func resetOfOneAppKeepsTheOthers() throws {
        let server = try ServerProcess()
        _ = try send(server, title: "one")
        _ = try send(server, title: "two", app: news)
        let reset = try server.run(["reset", "--app", shop])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try server.run(["badge", "--app", shop]).output == "0")
        #expect(try server.run(["badge", "--app", news]).output == "1")
        let list = try #require(try JSON.parse(server.run(["list", "--json"]).output).arrayValue)
        #expect(list.compactMap { $0.objectValue?["app"]?.stringValue } == [news])
    }

    @Test func resetUsageErrors() throws {
        let server = try ServerProcess()
        #expect(try server.run(["reset", "--bogus"]).status == 2)
        #expect(try server.run(["reset", "extra"]).status == 2)
        #expect(try runPushdeck(["reset", "--socket", server.folder.file("none.sock")]).status == 3)
    }

    // MARK: expect

    @Test func expectLedgersHoldWhicheverWayTheRaceGoes() throws {
        let server = try ServerProcess()
        // Started before the pushes: subscribe first, then the snapshot, so whether the pushes
        // land before or after it subscribed, it sees badge 2.
        let expect = try BackgroundCommand(
            ["expect", "--app", shop, "--badge", "2", "--unread", "2", "--timeout", "20"], socket: server.socket,
            folder: server.folder)
        _ = try send(server, title: "one")
        _ = try send(server, title: "two")
        let result = try #require(expect.wait(seconds: 20))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""badge":2"#))
    }

    @Test func expectCountsMessagesSinceAnId() throws {
        let server = try ServerProcess()
        let before = try send(server, title: "old order")
        let expect = try BackgroundCommand(
            ["expect", "--since", String(before), "--title", "^Order", "--body", "Order 2", "--count", "2", "--timeout", "20"],
            socket: server.socket, folder: server.folder)
        _ = try send(server, title: "Order 1")
        _ = try send(server, title: "Unrelated")
        _ = try send(server, title: "Order 2")
        _ = try send(server, title: "Order 2")
        let result = try #require(expect.wait(seconds: 20))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""title":"Order 2""#))
    }

    @Test func expectTimesOutWithOneLineSayingWhatItSaw() throws {
        let server = try ServerProcess()
        _ = try send(server, title: "Order shipped")
        let started = Date()
        let result = try server.run(["expect", "--since", "0", "--title", "refund", "--badge", "3", "--timeout", "0.3"])
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("timed out after 0.3 s"))
        #expect(result.stderr.contains("wanted 1 message (title /refund/, after #0), badge 3"))
        #expect(result.stderr.contains(#"closest #1 com.example.shop "Order shipped""#))
        #expect(result.stderr.contains("badge 1, server badge 1, unread 1"))

        // Every message so far came in through the socket.
        #expect(try server.run(["expect", "--since", "0", "--via", "socket", "--timeout", "0"]).status == 0)
        let via = try server.run(["expect", "--since", "0", "--via", "apns", "--timeout", "0.1"])
        #expect(via.status == 1)
        #expect(via.stderr.contains("wanted 1 message (via apns, after #0)"))
        #expect(via.stderr.contains("via socket"))
        // No ledger condition was asked: the line still shows the ledgers as they are.
        #expect(via.stderr.contains("badge 1, server badge 1, unread 1"), "\(via.stderr)")
    }

    /// The unread count is the inbox's own, not a page of unread messages counted: past the
    /// largest page (1 000) it still holds, and a timeout says the real number.
    @Test func expectUnreadHoldsPastAnyPageSize() throws {
        let server = try ServerProcess(memory: true)
        let pushes = (1...1001).map { #"{"aps":{"alert":"n\#($0)"},"Simulator Target Bundle":"com.example.bulk"}"# }
        let sent = try server.run(["send", "-"], stdin: Data(pushes.joined(separator: "\n").utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        let held = try server.run(["expect", "--unread", "1001", "--timeout", "2"])
        #expect(held.status == 0, "\(held.stderr)")
        #expect(held.stdout.contains(#""unread":1001"#), "\(held.stdout)")
        // The badge op's ledger reply carries the same count.
        let ledgers = try SocketClient(path: server.socket).reply(to: .badge(app: nil, change: nil, sync: nil))
        #expect(ledgers == .ledgers(Ledgers(badge: 1001, serverBadge: 1001, unread: 1001)))
        let missed = try server.run(["expect", "--unread", "1002", "--timeout", "0.2"])
        #expect(missed.status == 1)
        #expect(missed.stderr.contains("unread 1001"), "\(missed.stderr)")
    }

    @Test func expectABannerIsShownOnlyInTheForeground() throws {
        let server = try ServerProcess()
        #expect(try server.run(["app", "background"]).status == 0)
        // In the background nothing shows: the banner expect times out though messages arrive.
        let none = try BackgroundCommand(
            ["expect", "--banner", "--timeout", "1"], socket: server.socket, folder: server.folder, name: "none")
        for _ in 0..<3 { _ = try send(server, title: "quiet") }
        let missed = try #require(none.wait(seconds: 10))
        #expect(missed.status == 1)
        #expect(missed.stderr.contains("wanted 1 banner"))

        #expect(try server.run(["app", "foreground"]).status == 0)
        let shown = try BackgroundCommand(
            ["expect", "--banner", "--title", "^Flash sale$", "--timeout", "20"], socket: server.socket,
            folder: server.folder, name: "shown")
        // expect cannot say when it has subscribed; the banner push is repeated until it exits
        // (a bounded poll on the process, not a sleep for the banner).
        var result: CommandResult?
        for _ in 0..<200 where result == nil {
            _ = try send(server, title: "Flash sale")
            result = shown.wait(seconds: 0.1)
        }
        let done = try #require(result)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains(#""title":"Flash sale""#))
    }

    @Test func expectRunsItsTriggerOnceItListensSoNoBannerIsMissed() throws {
        let server = try ServerProcess()
        let binary = PackagePaths.pushdeckBinary
        let result = try server.run([
            "expect", "--banner", "--title", "^Flash sale$", "--app", shop, "--timeout", "10", "--",
            binary, "send", "--socket", server.socket, "--app", shop, "--title", "Flash sale",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)  // send's reply, then the banner expect saw
        #expect(lines.first?.contains(#""delivered":true"#) == true)
        #expect(lines.last?.contains(#""title":"Flash sale""#) == true)
        #expect(lines.last?.contains(#""count":1"#) == true)

        let failed = try server.run(["expect", "--badge", "1", "--timeout", "5", "--", "false"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("the condition held, but false exited with 1"))
        #expect(try server.run(["expect", "--timeout", "1", "--", "/no/such/command"]).status != 0)
    }

    @Test func expectAtOnceWhenTheLedgersAlreadyHold() throws {
        let server = try ServerProcess()
        let result = try server.run(["expect", "--badge", "0", "--unread", "0", "--server-badge", "0", "--timeout", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == #"{"badge":0,"serverBadge":0,"unread":0}"#)
    }

    @Test func expectUsageErrors() throws {
        let server = try ServerProcess()
        let badRegex = try server.run(["expect", "--title", "(unclosed"])
        #expect(badRegex.status == 2)
        #expect(badRegex.stderr.contains("--title takes a regular expression"))
        #expect(try server.run(["expect", "--timeout", "soon"]).status == 2)
        #expect(try server.run(["expect", "--count", "-1"]).status == 2)
        #expect(try server.run(["expect", "--frobnicate"]).status == 2)
        #expect(try runPushdeck(["expect", "--socket", server.folder.file("none.sock")]).status == 3)
    }
}
