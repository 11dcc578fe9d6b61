import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// Every client command against a real `pushdeck serve`, real socket, real SQLite file.
@Suite struct CommandTests {
    @Test func pingAndVersion() throws {
        let server = try ServerProcess()
        let ping = try server.run(["ping"])
        #expect(ping.status == 0)
        #expect(ping.output == Version.current)
        let version = try runPushdeck(["--version"])
        #expect(version.output == "pushdeck \(Version.current)")
    }

    @Test func sendBuiltPayloadPrintsTheReplyAndListsIt() throws {
        let server = try ServerProcess()
        let sent = try server.run(["send", "--title", "Order shipped", "--body", "訂單 1270339 已發貨", "--app", "com.example.shop"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let reply = try #require(try JSON.parse(sent.output).objectValue)
        #expect(reply["ok"] == true)
        #expect(reply["id"] == 1)
        #expect(reply["delivered"] == true)
        #expect(reply["badge"] == 1)

        let list = try server.run(["list", "--json"])
        let messages = try #require(try JSON.parse(list.output).arrayValue)
        #expect(messages.count == 1)
        let message = try #require(messages.first?.objectValue)
        #expect(message["app"] == "com.example.shop")
        #expect(message["title"] == "Order shipped")
        #expect(message["body"] == "訂單 1270339 已發貨")
        #expect(message["channel"] == "apns")
        #expect(message["read"] == false)
        #expect(message["subtitle"] == .null)

        let table = try server.run(["list"])
        #expect(table.stdout.contains("Order shipped"))
        #expect(table.stdout.contains("com.example.shop"))
    }

    @Test func sendFileKeepsItsBytesIncludingTrailingCommas() throws {
        let server = try ServerProcess()
        let file = PackagePaths.corpus.appendingPathComponent("lenient/apns-donggyushin-PushTestApnsFile-test.apns")
        let original = try Data(contentsOf: file)
        let sent = try server.run(["send", file.path])
        #expect(sent.status == 0, "\(sent.stderr)")
        let list = try server.run(["list", "--json"])
        let message = try #require(try JSON.parse(list.output).arrayValue?.first?.objectValue)
        #expect(message["app"] == "{app_bundle_id}")
        #expect(message["badge"] == nil)
        // The payload comes back parsed; the stored text is the file's own.
        #expect(message["payload"]?.objectValue?["aps"]?.objectValue?["badge"] == 1)
        #expect(!original.isEmpty)
    }

    @Test func sendFromStandardInputTakesSeveralObjects() throws {
        let server = try ServerProcess()
        let input = """
            {"aps":{"alert":"one"}}
            {
              "aps": {"alert": {"title": "two"}},
            }
            {"taskId":"t1","msgId":"m1","payload":"three"}
            """
        let sent = try server.run(["send", "-"], stdin: Data(input.utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.output.split(separator: "\n").count == 3)
        let list = try server.run(["list", "--json"])
        let bodies = try #require(try JSON.parse(list.output).arrayValue).compactMap { $0.objectValue }
        #expect(bodies.map { $0["channel"] } == ["transparent", "apns", "apns"])
    }

    @Test func sendRefusesWhatIsNotAnObjectAndSkipsAByteOrderMark() throws {
        let server = try ServerProcess()
        let folder = server.folder
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"aps":{"alert":"with a BOM"}}"#.utf8)).write(to: URL(fileURLWithPath: folder.file("bom.apns")))
        try Data(#"{"aps":{"alert":"cut"#.utf8).write(to: URL(fileURLWithPath: folder.file("cut.apns")))
        #expect(try server.run(["send", folder.file("bom.apns")]).status == 0)
        let cut = try server.run(["send", folder.file("cut.apns")])
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("ended inside an object"))
        let junk = try server.run(["send", "-"], stdin: Data("hello".utf8))
        #expect(junk.status == 1)
        #expect(junk.stderr.contains("hello"))
        let missing = try server.run(["send", folder.file("nope.apns")])
        #expect(missing.status == 2)
        let refused = try server.run(["send", "-"], stdin: Data(#"{"aps":{"badge":-3}}"#.utf8))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("badge"))
        // Only the BOM file got in.
        #expect(try server.run(["badge"]).output == "1")
    }

    @Test func badgeModeAndAppPrintBareWords() throws {
        let server = try ServerProcess()
        #expect(try server.run(["badge"]).output == "0")
        #expect(try server.run(["mode"]).output == "on")
        #expect(try server.run(["app"]).output == "foreground")
        _ = try server.run(["send", "--body", "hi", "--app", "a"])
        _ = try server.run(["send", "--body", "hi", "--app", "b"])
        #expect(try server.run(["badge"]).output == "2")
        #expect(try server.run(["badge", "--app", "a"]).output == "1")
        #expect(try server.run(["badge", "--set", "7", "--app", "a"]).output == "7")
        #expect(try server.run(["badge"]).output == "8")
        #expect(try server.run(["badge", "--clear"]).output == "0")
        #expect(try server.run(["mode", "off"]).output == "off")
        #expect(try server.run(["mode"]).output == "off")
        #expect(try server.run(["app", "background"]).output == "background")
        #expect(try server.run(["app"]).output == "background")
    }

    @Test func readDeleteAndListFilters() throws {
        let server = try ServerProcess()
        for index in 1...5 {
            _ = try server.run(["send", "--body", "m\(index)", "--app", index % 2 == 0 ? "even" : "odd"])
        }
        let read = try server.run(["read", "1", "2", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try JSON.parse(read.output).objectValue?["badge"] == 3)
        let unread = try JSON.parse(try server.run(["list", "--unread", "--json"]).output).arrayValue ?? []
        #expect(unread.compactMap { $0.objectValue?["id"]?.intValue } == [5, 4, 3])
        let odd = try JSON.parse(try server.run(["list", "--app", "odd", "--json"]).output).arrayValue ?? []
        #expect(odd.compactMap { $0.objectValue?["id"]?.intValue } == [5, 3, 1])
        let page = try JSON.parse(try server.run(["list", "--limit", "2", "--before", "4", "--json"]).output).arrayValue ?? []
        #expect(page.compactMap { $0.objectValue?["id"]?.intValue } == [3, 2])

        let deleted = try server.run(["delete", "5", "--json"])
        #expect(deleted.status == 0)
        #expect(try JSON.parse(deleted.output).objectValue?["badge"] == 2)
        let all = try server.run(["read", "--all", "--json"])
        #expect(try JSON.parse(all.output).objectValue?["badge"] == 0)
        #expect(try JSON.parse(try server.run(["list", "--unread", "--json"]).output).arrayValue == [])

        let missing = try server.run(["read", "99"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("99"))
    }

    @Test func watchPrintsOneEventPerLine() throws {
        let server = try ServerProcess()
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        watcher.arguments = ["watch", "--socket", server.socket, "--topic", "remote.received", "--topic", "badge.changed"]
        let out = Pipe()
        watcher.standardOutput = out
        try watcher.run()
        defer { watcher.terminate() }
        // The watcher is subscribed once the server shows two clients' worth of activity; the
        // simplest observable: keep sending until its first line arrives.
        let reader = LineReader(out.fileHandleForReading)
        var lines: [String] = []
        for attempt in 0..<50 where lines.isEmpty {
            _ = try server.run(["send", "--title", "t\(attempt)"])
            lines = reader.lines(upTo: 2, timeout: 0.2)
        }
        lines += reader.lines(upTo: 2 - lines.count, timeout: 5)
        #expect(lines.count == 2)
        let topics = lines.compactMap { try? JSON.parse($0).objectValue?["topic"]?.stringValue }
        #expect(Set(topics) == ["remote.received", "badge.changed"])
    }

    @Test func badgeWatchPrintsALineEachTimeTheBadgeChanges() throws {
        let server = try ServerProcess()
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        watcher.arguments = ["badge", "--watch", "--socket", server.socket]
        let out = Pipe()
        watcher.standardOutput = out
        try watcher.run()
        defer { watcher.terminate() }
        let reader = LineReader(out.fileHandleForReading)
        #expect(reader.lines(upTo: 1, timeout: 10) == ["0"])
        // The watcher subscribes after printing the first value: push until a change shows.
        var seen: [String] = []
        for index in 1...50 where seen.isEmpty {
            _ = try server.run(["send", "--title", "n\(index)"])
            seen = reader.lines(upTo: 1, timeout: 0.2)
        }
        let first = try #require(seen.first.flatMap { Int($0) })
        _ = try server.run(["badge", "--set", "40"])
        #expect(reader.lines(upTo: 1, timeout: 10) == ["40"])
        _ = try server.run(["badge", "--clear"])
        #expect(reader.lines(upTo: 1, timeout: 10) == ["0"])
        #expect(first >= 1)
    }

    @Test func noServerExitsThreeNamingThePath() throws {
        let folder = TempFolder()
        let path = folder.file("nobody.sock")
        let result = try runPushdeck(["badge", "--socket", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("pushdeck serve"))
    }

    @Test func badUsageExitsTwo() throws {
        for arguments in [["bogus"], ["badge", "--set", "-1"], ["badge", "--set", "x"], ["mode", "sideways"],
                          ["send"], ["list", "--limit", "0"], ["read"], ["badge", "--frobnicate"],
                          ["watch", "--topic", "nope"], ["app", "asleep"]] {
            let result = try runPushdeck(arguments + ["--socket", "/tmp/pd-none.sock"])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test func everyCommandHasHelp() throws {
        for command in ["ui", "serve", "send", "badge", "mode", "read", "delete", "list", "app", "watch", "demo", "ping"] {
            let result = try runPushdeck([command, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("pushdeck \(command == "ui" ? "[ui]" : command)"), "\(command)")
        }
    }
}

/// Reads lines from a pipe with a timeout, so a test waits for output rather than sleeping.
final class LineReader: @unchecked Sendable {
    // @unchecked: `buffer` and `lines` are guarded by `lock`.
    private let lock = NSCondition()
    private var buffer = Data()
    private var ready: [String] = []

    init(_ handle: FileHandle) {
        handle.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.buffer.append(data)
            while let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                self.ready.append(String(decoding: self.buffer[self.buffer.startIndex..<newline], as: UTF8.self))
                self.buffer.removeSubrange(self.buffer.startIndex...newline)
            }
            self.lock.broadcast()
            self.lock.unlock()
            if data.isEmpty { handle.readabilityHandler = nil }
        }
    }

    /// Up to `count` lines, waiting at most `timeout` seconds for them.
    func lines(upTo count: Int, timeout: TimeInterval) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while ready.count < count && lock.wait(until: deadline) {}
        let taken = Array(ready.prefix(count))
        ready.removeFirst(taken.count)
        return taken
    }
}

/// `pushdeck demo` plays the whole scenario into a running server.
@Suite struct DemoTests {
    @Test func theDemoPlaysEveryStepIntoARunningPushdeck() throws {
        let server = try ServerProcess()
        let demo = try runPushdeck(["demo", "--socket", server.socket, "--speed", "200"],
                                   environment: ["PUSHDECK_RESOURCES": PackagePaths.resources.path])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("That's the show"))
        // Everything but the two dropped pushes arrived; the end state is the scenario's.
        let messages = try JSON.parse(try server.run(["list", "--json"]).output).arrayValue ?? []
        #expect(messages.count == 12)
        #expect(try server.run(["mode"]).output == "on")
        #expect(try server.run(["app"]).output == "foreground")
        #expect(try server.run(["badge"]).output == "1")
        #expect(messages.contains { $0.objectValue?["offline"] == true })
        #expect(messages.contains { $0.objectValue?["launch"] == true })
    }
}
