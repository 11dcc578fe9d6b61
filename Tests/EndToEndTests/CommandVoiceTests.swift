import Foundation
import PushJSON
import Testing
import TestSupport
@testable import pushdeck

/// One voice for the command line, through the real binary: a command that changes something
/// says what it did in one line (and prints the reply line with --json), the lists are aligned
/// tables, a mistyped command gets a guess in two lines, exit 2.
@Suite struct CommandVoiceTests {
    @Test func aMistypedCommandGetsTheClosestGuessInTwoLinesAndExitTwo() throws {
        let typo = try runPushdeck(["sned", "--title", "x"])
        #expect(typo.status == 2)
        #expect(typo.stdout.isEmpty)
        #expect(typo.stderr == "pushdeck: unknown command 'sned' — did you mean 'send'?\nRun 'pushdeck help' for the commands.\n")
        let nothingClose = try runPushdeck(["xyzzy"])
        #expect(nothingClose.status == 2)
        #expect(nothingClose.stderr == "pushdeck: unknown command 'xyzzy'\nRun 'pushdeck help' for the commands.\n")
    }

    @Test func helpOfAnUnknownCommandIsAnErrorExitTwo() throws {
        let unknown = try runPushdeck(["help", "nosuch"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr == "pushdeck help: unknown command 'nosuch'\nRun 'pushdeck help' for the commands.\n")
        let typo = try runPushdeck(["help", "devcie"])
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("pushdeck help: unknown command 'devcie' — did you mean 'device'?\n"))
        #expect(try runPushdeck(["help", "device"]).status == 0)
    }

    @Test(arguments: [
        ("sned", "send"), ("devcie", "device"), ("lsit", "list"), ("muet", "mute"), ("unmtue", "unmute"), ("plya", "play"),
        ("serv", "serve"), ("bage", "badge"),
    ])
    func theGuessIsTheCommandFewestEditsAway(typed: String, meant: String) {
        #expect(Suggestion.closest(to: typed, in: CommandTable.commands.map(\.name)) == meant)
    }

    @Test func nothingIsGuessedForAWordFarFromEveryCommand() {
        for word in ["xyzzy", "x", "frobnicate", "tx"] {
            #expect(Suggestion.closest(to: word, in: CommandTable.commands.map(\.name)) == nil, "\(word)")
        }
    }

    /// Each command that changes something: (arguments, the sentence's start, a reply field).
    static let changes: [([String], String, String)] = [
        (["device", "add", "0123abcd", "--app", "com.example.shop"], "device 0123abcd added: apns, app com.example.shop", "device"),
        (["device", "offline", "0123abcd"], "device 0123abcd is offline", "state"),
        (["device", "online", "0123abcd"], "device 0123abcd is online", "state"),
        (["device", "offline"], "the default device (socket pushes without a device token) is offline", "state"),
        (["device", "online"], "the default device (socket pushes without a device token) is online", "state"),
        (["device", "unregister", "0123abcd"], "device 0123abcd unregistered since 20", "device"),
        (["device", "remove", "0123abcd"], "device 0123abcd removed", "ok"),
        (["key", "add", "jpush", "--app-key", "K1", "--master-secret", "S"], "jpush key K1 added", "key"),
        (["key", "remove", "K1"], "key K1 removed", "ok"),
        (["mute", "com.example.shop", "--for", "1h"], "com.example.shop muted until 20", "until"),
        (["mute", "com.example.news"], "com.example.news muted until 'pushdeck unmute com.example.news'", "muted"),
        (["unmute", "com.example.news"], "com.example.news unmuted", "muted"),
        (["read", "1"], "read message 1; badge 1", "badge"),
        (["delete", "1", "2"], "deleted messages 1, 2; badge 0", "badge"),
        (["read", "--all", "--app", "com.example.shop"], "read every message of com.example.shop; badge 0", "badge"),
        (["reset", "--app", "com.example.shop"], "reset com.example.shop: its messages, held messages and badges cleared", "badge"),
        (["reset"], "reset: every message, held message and badge cleared", "badge"),
    ]

    @Test func aChangeIsOneSentenceAndWithJSONTheReplyLine() throws {
        let people = try ServerProcess()
        let programs = try ServerProcess()
        for server in [people, programs] {
            for title in ["one", "two"] {
                #expect(try server.run(["send", "--app", "com.example.shop", "--title", title]).status == 0)
            }
        }
        for (arguments, sentence, field) in Self.changes {
            let said = try people.run(arguments)
            #expect(said.status == 0, "\(arguments): \(said.stderr)")
            #expect(said.output.hasPrefix(sentence), "\(arguments): \(said.output)")
            #expect(!said.output.contains("{") && !said.output.contains("\n"), "\(arguments): \(said.output)")

            let json = try programs.run(arguments + ["--json"])
            #expect(json.status == 0, "\(arguments) --json: \(json.stderr)")
            let reply = try JSON.parse(json.output).objectValue
            #expect(reply?["ok"] == true, "\(arguments) --json: \(json.output)")
            #expect(reply?[field] != nil, "\(arguments) --json: \(json.output)")
        }
    }

    /// The start of each cell in display columns (CJK counts two), cells being runs of text
    /// separated by two spaces or more.
    static func cellStarts(_ line: Substring) -> [Int] {
        var starts: [Int] = []
        var column = 0
        var spaces = 2
        for character in line {
            if character == " " {
                spaces += 1
            } else {
                if spaces >= 2 { starts.append(column) }
                spaces = 0
            }
            column += Substring(String(character)).columnsApprox
        }
        return starts
    }

    @Test func theDeviceAndKeyTablesLineUpAndSayWhatTheReplySays() throws {
        let server = try ServerProcess()
        #expect(try server.run(["device", "add", "0123abcd", "--app", "com.example.shop"]).status == 0)
        #expect(try server.run(["device", "add", "1104a89792a8a5f4c1d", "--app", "appkey1", "--vendor", "jpush",
                                "--tag", "深圳", "--tag", "vip", "--alias", "用户892"]).status == 0)
        #expect(try server.run(["device", "add", String(repeating: "ab", count: 32), "--app", "中文应用", "--vendor", "getui"]).status == 0)
        #expect(try server.run(["device", "offline", "0123abcd"]).status == 0)
        #expect(try server.run(["device", "unregister", "1104a89792a8a5f4c1d"]).status == 0)
        let table = try server.run(["device", "list"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.output.split(separator: "\n")
        try #require(lines.count == 5, "\(table.output)")
        #expect(lines[0] == "TOKEN" + String(repeating: " ", count: 61) + "APP" + String(repeating: " ", count: 15)
            + "VENDOR  STATE    UNREGISTERED              TAGS      ALIAS")
        let header = Self.cellStarts(lines[0])
        for row in lines[1...3] {
            #expect(Self.cellStarts(row) == header, "\(table.output)")
        }
        #expect(lines[1].contains(" offline ") && lines[2].contains(" online ") && lines[3].contains(" online "))
        #expect(!table.output.contains("registered "))
        #expect(lines[4] == "default device (socket pushes without a device token): online")

        #expect(try server.run(["key", "add", "jpush", "--app-key", "K1", "--master-secret", "S"]).status == 0)
        #expect(try server.run(["key", "add", "getui", "--app-id", "应用", "--app-key", "AK", "--master-secret", "S"]).status == 0)
        let keys = try server.run(["key", "list"]).output.split(separator: "\n")
        #expect(keys == ["ID    VENDOR  TEAM  APP KEY", "K1    jpush   -     -", "应用  getui   -     AK"])
    }
}
