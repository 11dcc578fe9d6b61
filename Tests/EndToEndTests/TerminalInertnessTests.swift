import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// Through the real binary: whatever bytes reach `pushdeck`'s standard
/// output or error — from a file, from payloads, from a hostile server — nothing in them can
/// steer the terminal (no C0 but `\n` and `\t`, no ESC, no C1, no bidi control), and what the
/// server accepts every command can list.
@Suite struct TerminalInertnessTests {
    /// Escapes before the object of a file to `send`: the framer once quoted that junk as it was,
    /// and the CLI printed it: the title was set and the screen cleared.
    @Test func sendPrintsJunkBeforeAnObjectInert() throws {
        let folder = TempFolder()
        let file = folder.file("hostile.json")
        let bytes = Array("\u{1b}]2;PWNED\u{07}\u{1b}[2J {\"aps\":{\"alert\":\"hi\"}}".utf8)
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        let result = try runPushdeck(["send", file, "--socket", folder.file("none.sock")])
        #expect(result.status == 1)
        #expect(TerminalInertness.violations(in: result.stderrBytes).isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains(#"\x1b]2;PWNED\x07\x1b[2J"#), "\(result.stderr)")
    }

    /// A JSON parse error quotes the offending character — a C1 CSI here.
    @Test func sendPrintsJSONParseErrorsInert() throws {
        let folder = TempFolder()
        let cases: [[UInt8]] = [
            Array("{\"aps\":".utf8) + [0xC2, 0x9B] + Array("2J}".utf8),
            Array("{\"aps\":{\"alert\":\"a\u{1b}[2J\"}}".utf8),
            Array("{\"a\":1}".utf8) + [0xC2, 0x9B, 0x31, 0x7B, 0x7D],
            Array("{\"aps\":\u{202e}1}".utf8),
        ]
        for (index, bytes) in cases.enumerated() {
            let file = folder.file("case\(index).json")
            _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
            let result = try runPushdeck(["send", file, "--socket", folder.file("none.sock")])
            #expect(result.status == 1, "case \(index): \(result.stderr)")
            #expect(result.stderr.contains("not valid JSON") || result.stderr.contains("unexpected"), "case \(index): \(result.stderr)")
            #expect(TerminalInertness.violations(in: result.stderrBytes).isEmpty, "case \(index): \(result.stderr.debugDescription)")
        }
    }

    /// The server may be hostile (another user's socket): its replies — errors, values,
    /// lines that are not JSON, events — are made inert before they are printed.
    @Test func aHostileServersRepliesArePrintedInert() throws {
        let folder = TempFolder()
        let nasty = #"\u001b]2;PWNED\u0007\u001b[2J\u009b31m\u202egnp\u2066"#
        let server = try ScriptedServer(folder: folder) { line in
            let op = (try? JSON.parse(line))?.objectValue?["op"]?.stringValue ?? ""
            switch op {
            case "ping": return Array(#"{"ok":true,"version":"1.0\#(nasty)"}"#.utf8) + [0x0A]
            case "mode": return Array(#"{"ok":false,"error":"no\#(nasty)"}"#.utf8) + [0x0A]
            case "app": return Array("\u{1b}]2;PWNED\u{07} not json\n".utf8)
            case "badge": return Array(#"{"ok":true,"badge":1}"#.utf8 + [0x0A])
            case "list":
                let message = #"{"id":1,"app":"a\#(nasty)","channel":"apns","title":"t\#(nasty)","body":"b\#(nasty)","#
                    + #""read":false,"receivedAt":"2026-11-30T09:41:00.000Z","payload":{"k\#(nasty)":"v\#(nasty)"}}"#
                return Array(#"{"ok":true,"messages":[\#(message)]}"#.utf8 + [0x0A])
            case "subscribe":
                // Events as a hostile server might write them: raw C1 and bidi inside strings
                // (valid JSON), raw ESC (not JSON at all), then the end of the stream.
                return Array(#"{"ok":true}"#.utf8 + [0x0A])
                    + Array(#"{"topic":"message.new","x":""#.utf8) + [0xC2, 0x9B] + Array("2J\u{202e}\"}\n".utf8)
                    + Array("\u{1b}]52;c;aGVsbG8=\u{07}\u{1b}[2J\n".utf8)
            default: return Array(#"{"ok":false,"error":"?"}"#.utf8) + [0x0A]
            }
        }
        let commands: [[String]] = [["ping"], ["mode"], ["mode", "on"], ["app"], ["list"], ["list", "--json"], ["watch"], ["badge"]]
        for arguments in commands {
            let result = try runPushdeck(arguments + ["--socket", server.socket])
            let label = arguments.joined(separator: " ")
            #expect(TerminalInertness.violations(in: result.stdoutBytes).isEmpty, "\(label) stdout: \(result.stdout.debugDescription)")
            #expect(TerminalInertness.violations(in: result.stderrBytes).isEmpty, "\(label) stderr: \(result.stderr.debugDescription)")
            #expect(!(result.stdout + result.stderr).isEmpty, "\(label) printed nothing")
        }
        let ping = try runPushdeck(["ping", "--socket", server.socket])
        #expect(ping.output == #"1.0\x1b]2;PWNED\x07\x1b[2J\u009B31m\u202Egnp\u2066"#)
        // `list --json` is still JSON, and means what the server sent.
        let json = try runPushdeck(["list", "--json", "--socket", server.socket])
        let listed = try JSON.parse(json.output).arrayValue?.first?.objectValue
        #expect(listed?["title"]?.stringValue == "t\u{1b}]2;PWNED\u{07}\u{1b}[2J\u{9b}31m\u{202e}gnp\u{2066}")
        withExtendedLifetime(server) {}
    }

    /// The server's own JSON (`list --json`, `watch` events) escapes C1, bidi controls,
    /// line separators and invisible format characters as `\uXXXX`, and parses back the same.
    @Test func listJSONAndEventsEscapeC1AndBidi() throws {
        let server = try ServerProcess(memory: true)
        let title = "c1\u{9b}2J bidi\u{202e}gnp.exe\u{202c} iso\u{2066}x\u{2069} ls\u{2028}ps\u{2029} zw\u{200b} bom\u{feff} del\u{7f}"
        let events = try RawClient(path: server.socket)
        #expect(try events.request(#"{"op":"subscribe","topics":["remote.received"]}"#)["ok"] == true)
        let payload: JSON = ["aps": ["alert": ["title": .string(title), "body": "b"]]]
        let sent = try server.run(["send", "-"], stdin: Data(payload.compactText.utf8))
        #expect(sent.status == 0, "\(sent.stderr)")

        let line = try events.readLine()
        let event = try #require(line)
        #expect(TerminalInertness.violations(in: event).isEmpty, "\(String(decoding: event, as: UTF8.self).debugDescription)")
        #expect(String(decoding: event, as: UTF8.self).contains(#"c1\u009B2J bidi\u202Egnp.exe\u202C"#))
        let message = try JSON.parse(event).objectValue?["message"]?.objectValue
        #expect(message?["title"]?.stringValue == title)

        let json = try server.run(["list", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(TerminalInertness.violations(in: json.stdoutBytes).isEmpty, "\(json.stdout.debugDescription)")
        let listed = try JSON.parse(json.output).arrayValue?.first?.objectValue
        #expect(listed?["title"]?.stringValue == title)
        #expect(listed?["payload"] == payload)
        let table = try server.run(["list"])
        #expect(TerminalInertness.violations(in: table.stdoutBytes).isEmpty, "\(table.stdout.debugDescription)")
    }

    /// A payload nested as deep as the server accepts from `send` (the request object
    /// around it takes one of the 512 levels) is listed by every command:
    /// `list`, `list --json`, `watch` (the client parsed replies with the server's own limit,
    /// while a reply embeds the payload three levels deeper).
    @Test(arguments: [510, JSONParser.defaultMaxDepth - 1])
    func theDeepestPayloadTheServerAcceptsIsListed(depth: Int) throws {
        let server = try ServerProcess(memory: true)
        // `depth` containers in all: the payload object, then arrays around a string.
        let payload = #"{"aps":{"alert":"deep"},"d":"# + String(repeating: "[", count: depth - 1) + #""x""#
            + String(repeating: "]", count: depth - 1) + "}"
        let sent = try server.run(["send", "-"], stdin: Data(payload.utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try server.run(["send", "--title", "shallow"]).status == 0)

        let table = try server.run(["list"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("deep") && table.stdout.contains("shallow"), "\(table.stdout)")
        let json = try server.run(["list", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let messages = try JSON.parse(Array(json.output.utf8), maxDepth: JSONParser.replyMaxDepth).arrayValue
        #expect(messages?.count == 2)
        #expect(messages?.last?.objectValue?["payload"]?.compactText == payload)

        // `watch` prints the event carrying it whole (the server's event, replayed by a fake
        // server so the stream ends).
        let events = try RawClient(path: server.socket)
        #expect(try events.request(#"{"op":"subscribe","topics":["remote.received"]}"#)["ok"] == true)
        #expect(try server.run(["send", "-"], stdin: Data(payload.utf8)).status == 0)
        let line = try events.readLine()
        let event = try #require(line)
        let replayFolder = TempFolder()
        let replay = try ScriptedServer(folder: replayFolder) { _ in Array(#"{"ok":true}"#.utf8) + [0x0A] + event + [0x0A] }
        let watched = try runPushdeck(["watch", "--socket", replay.socket])
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdoutBytes == event + [0x0A])
    }

    /// One level deeper than `send` can carry is refused by the client, saying why, not by the
    /// server as a request "nested too deeply".
    @Test func sendRefusesAPayloadTooDeepForItsRequestSayingWhy() throws {
        let server = try ServerProcess(memory: true)
        let depth = JSONParser.defaultMaxDepth
        let payload = #"{"d":"# + String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1) + "}"
        let sent = try server.run(["send", "-"], stdin: Data(payload.utf8))
        #expect(sent.status == 1)
        #expect(sent.stderr.contains("nested deeper than 511 levels, the most send can carry"), "\(sent.stderr)")
        #expect(try server.run(["list", "--json"]).output == "[]")
    }

    /// Property: random bytes through the real print paths — as a file to `send`, as
    /// payload text stored and listed, as a hostile server's replies — never leave anything a
    /// terminal obeys on standard output or error.
    @Test func randomBytesThroughEveryPrintPathStayInert() throws {
        var random = SeededRandom(seed: 0x1E_2026_1130)
        let pieces: [[UInt8]] = [
            [0x1B], [0x07], [0x0D], [0x00], [0x7F], [0x9B], [0xC2, 0x9B], [0xC2, 0x9D], [0xE2, 0x80, 0xAE],
            [0xE2, 0x81, 0xA6], [0xE2, 0x80, 0xA8], [0xD8, 0x9C], [0xE2, 0x80], Array("[2J".utf8),
            Array("]0;t".utf8), Array("{".utf8), Array("}".utf8), Array("\"".utf8), Array(":".utf8), [0x5C],
        ]
        func randomBytes(_ count: Int) -> [UInt8] { random.bytes(count, mixing: pieces) }
        func expectInert(_ result: CommandResult, _ label: String) {
            #expect(TerminalInertness.violations(in: result.stdoutBytes).isEmpty, "\(label) stdout: \(result.stdout.debugDescription)")
            #expect(TerminalInertness.violations(in: result.stderrBytes).isEmpty, "\(label) stderr: \(result.stderr.debugDescription)")
        }

        // 1. Files of random bytes, some around a valid object, to `send` (framer, parser, server refusals).
        let server = try ServerProcess(memory: true)
        let folder = server.folder
        for index in 0..<40 {
            var bytes = randomBytes(Int(random.next() % 24))
            if index % 2 == 0 { bytes += Array(#"{"aps":{"alert":"x"#.utf8) + randomBytes(4) + Array(#""}}"#.utf8) }
            let file = folder.file("random\(index)")
            _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
            expectInert(try server.run(["send", file]), "send \(bytes)")
        }
        // 2. Random text as titles and bodies, stored, then listed every way.
        for _ in 0..<20 {
            let title = String(decoding: randomBytes(12), as: UTF8.self)
            let body = String(decoding: randomBytes(12), as: UTF8.self)
            let payload: JSON = ["aps": ["alert": ["title": .string(title), "body": .string(body)]]]
            expectInert(try server.run(["send", "-"], stdin: Data(payload.compactText.utf8)), "send \(title.debugDescription)")
        }
        expectInert(try server.run(["list", "--limit", "1000"]), "list")
        expectInert(try server.run(["list", "--json", "--limit", "1000"]), "list --json")

        // 3. A hostile server answering with random bytes.
        let answers = (0..<30).map { _ in randomBytes(Int(random.next() % 30)) }
        final class Counter: @unchecked Sendable {
            // @unchecked: the scripted server serves one connection at a time, on one thread.
            var value = 0
        }
        let counter = Counter()
        let hostileFolder = TempFolder()
        let hostile = try ScriptedServer(folder: hostileFolder) { _ in
            defer { counter.value += 1 }
            let raw = answers[counter.value % answers.count]
            // Half the time inside a reply object, so the client gets past parsing to printing.
            if counter.value % 2 == 0 {
                let text = JSON.string(String(decoding: raw, as: UTF8.self)).compactText
                return Array(#"{"ok":\#(counter.value % 4 == 0),"error":\#(text),"version":\#(text),"mode":\#(text),"state":\#(text)}"#.utf8) + [0x0A]
            }
            return raw + [0x0A]
        }
        for round in 0..<30 {
            let command = [["ping"], ["mode"], ["app"], ["list"], ["list", "--json"], ["read", "1"]][round % 6]
            expectInert(try runPushdeck(command + ["--socket", hostile.socket]), "\(command) round \(round)")
        }
    }
}

/// A long reply line is read in time linear in its length: the client searched the whole
/// unfinished line for its newline again after every 64 KiB read.
@Suite struct LongReplyTests {
    @Test func aLongReplyLineIsReadInLinearTime() throws {
        let folder = TempFolder()
        let length = 16 << 20
        let reply = Array(#"{"ok":true,"version":""#.utf8) + [UInt8](repeating: UInt8(ascii: "v"), count: length)
            + Array(#""}"#.utf8) + [0x0A]
        let server = try ScriptedServer(folder: folder) { _ in reply }
        let started = Date()
        let result = try runPushdeck(["ping", "--socket", server.socket])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutBytes.count == length + 1)
        // Generous: about a second in a debug build; the quadratic search took minutes.
        #expect(elapsed < 20, "ping with a 16 MiB reply took \(elapsed) s")
    }
}
