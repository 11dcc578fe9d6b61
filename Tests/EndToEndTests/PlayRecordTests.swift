import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// `play` and `record` through the real binary.
@Suite struct PlayRecordTests {
    static let scenarios = PackagePaths.resources.appendingPathComponent("scenarios")

    private func write(_ text: String, to folder: TempFolder, _ name: String = "s.json") throws -> String {
        let path = folder.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func everyShippedScenarioPlaysInstantlyInOneRun() throws {
        let files = try PackagePaths.files(in: Self.scenarios, endingWith: [".json"]).map(\.path)
        let folder = TempFolder()
        let result = try runPushdeck(["play", "--instant", "--junit", folder.file("j.xml")] + files)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == files.count)
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix("all passed") })
        let check = try JUnitSchema.check(folder.file("j.xml"))
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func aFailingExpectExitsOneWithStepExpectedGotAndAValidJUnitFile() throws {
        let folder = TempFolder()
        let file = try write("""
            {"name":"fails","steps":[
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":{"title":"Hi"}}}}},
              {"at":"+0.5","app":"com.example.shop","expect":{"badge":2,"banner":"Hi"}},
              {"at":6,"expect":{"banner":null,"unread":1}}
            ]}
            """, to: folder)
        let junit = folder.file("report.xml")
        let result = try runPushdeck(["play", file, "--junit", junit])
        #expect(result.status == 1)
        #expect(result.stdout == "\(file): step 2 (at 0.500 s): badge: expected 2, got 1\nfails: 2 expects, 1 failed\n")
        let check = try JUnitSchema.check(junit)
        #expect(check.status == 0, "\(check.output)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<failure message="badge: expected 2, got 1" type="expect">"#))
        #expect(xml.components(separatedBy: "<testcase ").count == 3)

        let json = try runPushdeck(["play", file, "--json"])
        #expect(json.status == 1)
        let report = try #require(try JSON.parse(json.output).objectValue)
        #expect(report["passed"] == false)
        let expects = report["scenarios"]?.arrayValue?.first?.objectValue?["expects"]?.arrayValue ?? []
        #expect(expects.first?.objectValue?["failures"] == [["field": "badge", "expected": "2", "got": "1"]])
    }

    @Test func aBadFileIsRefusedWithFileStepAndPathAndNothingRuns() throws {
        let server = try ServerProcess()
        let folder = server.folder
        let good = try write(#"{"name":"good","steps":[{"push":{"payload":{"aps":{"alert":"x"}}}},{"expect":{"badge":1}}]}"#, to: folder, "good.json")
        let bad = try write("""
            {"name":"bad","steps":[
              {"push":{"payload":{"aps":{"alert":"x"}}}},
              {"expect":{"badge":1,"unred":0}}
            ]}
            """, to: folder, "bad.json")
        let result = try server.run(["play", "--live", good, bad])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(bad): step 2: steps[1].expect.unred: unknown field; accepted: badge, serverBadge"))
        // Nothing ran: not even the good file's push.
        #expect(try server.run(["list", "--json"]).output == "[]")
        #expect(try runPushdeck(["play", folder.file("missing.json")]).status == 2)
        #expect(try runPushdeck(["play"]).status == 2)
        #expect(try runPushdeck(["play", good, "--speed", "2"]).status == 2)
        #expect(try runPushdeck(["play", "--live", "--socket", folder.file("none.sock"), good]).status == 3)
    }

    @Test func livePlayGoesIntoTheRunningPushdeck() throws {
        let server = try ServerProcess()
        let file = try write("""
            {"name":"live","steps":[
              {"state":"background"},
              {"app":"com.example.news","push":{"payload":{"taskId":"T","msgId":"M","payload":"早報"}}},
              {"at":"+0.05","app":"com.example.news","expect":{"badge":1,"unread":1,"delivered":true,"feedback":[90001]}},
              {"app":"com.example.news","read":1},
              {"app":"com.example.news","expect":{"badge":0,"unread":0,"feedback":[90002]}},
              {"mode":"off"},
              {"push":{"payload":{"aps":{"alert":"x"}}}},
              {"expect":{"delivered":false,"reason":"push mode off"}}
            ]}
            """, to: server.folder)
        let result = try server.run(["play", "--live", "--speed", "10", file])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try server.run(["mode"]).output == "off")
        #expect(try server.run(["badge", "--app", "com.example.news"]).output == "0")
    }

    @Test func aRecordingPlaysBackAndPasses() throws {
        let server = try ServerProcess()
        let file = server.folder.file("recorded.json")
        let record = try BackgroundCommand(["record", file], socket: server.socket, folder: server.folder, name: "record")
        // record says on stderr when it is listening: a bounded wait for that line.
        let deadline = Date().addingTimeInterval(10)
        while !record.stderrSoFar.contains("recording to") && Date() < deadline { usleep(5_000) }
        #expect(try server.run(["send", "--title", "A", "--app", "com.a"]).status == 0)
        #expect(try server.run(["app", "terminated"]).status == 0)
        #expect(try server.run(["send", "-", "--app", "com.b"], stdin: Data(#"{"taskId":"T","msgId":"M","payload":"held"}"#.utf8)).status == 0)
        #expect(try server.run(["app", "foreground"]).status == 0)
        #expect(try server.run(["read", "1"]).status == 0)
        #expect(try server.run(["mode", "off"]).status == 0)
        #expect(try server.run(["send", "--title", "dropped", "--app", "com.a"]).status == 0)
        #expect(try server.run(["mode", "on"]).status == 0)
        #expect(try server.run(["badge", "--app", "com.a", "--sync", "off", "--set", "4"]).status == 0)
        #expect(try server.run(["send", "--title", "C", "--app", "com.a"]).status == 0)
        #expect(try server.run(["delete", "3"]).status == 0)
        // Everything was said before ^C: the last change's event has arrived once expect sees it.
        #expect(try server.run(["expect", "--app", "com.a", "--badge", "4", "--unread", "0", "--timeout", "5"]).status == 0)
        record.interrupt()
        let done = try #require(record.wait(seconds: 10))
        #expect(done.status == 0, "\(done.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""state":"terminated""#))
        #expect(text.contains(#""mode":"off""#))
        #expect(text.contains(#""delete":3"#))
        #expect(text.contains(#""badge":{"set":4,"sync":false}"#))
        #expect(text.contains(#"{"badge":4,"serverBadge":0,"unread":0}"#))
        let played = try runPushdeck(["play", file])
        #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
        #expect(played.stdout.contains("3 expects, all passed"))
    }

    /// The final expect's `unread` is the inbox's count, not a `list` page counted: with 1 001
    /// unread messages it said 1 000 (a page's most), and the recording failed its own play.
    @Test func aRecordingsFinalUnreadCountsPastAListPage() throws {
        let server = try ServerProcess()
        let file = server.folder.file("recorded.json")
        let record = try BackgroundCommand(["record", file], socket: server.socket, folder: server.folder, name: "record")
        let deadline = Date().addingTimeInterval(10)
        while !record.stderrSoFar.contains("recording to") && Date() < deadline { usleep(5_000) }
        let client = try RawClient(path: server.socket, timeout: 30)
        let push = #"{"op":"push","app":"com.a","payload":{"aps":{"alert":"n"}}}"# + "\n"
        try client.send(String(repeating: push, count: 1_001))
        for _ in 0..<1_001 { #expect(try client.readReply()["ok"] == .bool(true)) }
        #expect(try server.run(["expect", "--app", "com.a", "--unread", "1001", "--timeout", "10"]).status == 0)
        record.interrupt()
        let done = try #require(record.wait(seconds: 30))
        #expect(done.status == 0, "\(done.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""unread":1001}"#), "\(text.suffix(300))")
        #expect(!text.contains(#""unread":1000}"#))
    }

    @Test func aScenarioWithNoExpectIsRefusedExitTwoForItChecksNothing() throws {
        let server = try ServerProcess()
        let file = try write("""
            {"name":"unchecked","steps":[
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":{"title":"Hi"}}}}}
            ]}
            """, to: server.folder)
        for arguments in [["play", file], ["play", "--live", "--instant", file, "--socket", server.socket]] {
            let result = try runPushdeck(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("\(file): no expect step, so playing it would check nothing"), "\(result.stderr)")
        }
        // Nothing was played into the running pushdeck.
        #expect(try server.run(["list", "--json"]).output == "[]")
    }

    @Test func aLiveResetStepNeedsAllowResetAndIsRefusedBeforeAnythingPlays() throws {
        let server = try ServerProcess()
        #expect(try server.run(["send", "--app", "com.example.mine", "--title", "keep me"]).status == 0)
        let file = try write("""
            {"name":"wipes","steps":[
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":{"title":"Hi"}}}}},
              {"reset":true},
              {"expect":{"badge":0,"unread":0}}
            ]}
            """, to: server.folder)
        let refused = try server.run(["play", "--live", "--instant", file])
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("\(file): step 2 is a reset: under --live it wipes the running pushdeck's inbox"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Pass --allow-reset"))
        let kept = try #require(try JSON.parse(server.run(["list", "--json"]).output).arrayValue)
        #expect(kept.compactMap { $0.objectValue?["title"]?.stringValue } == ["keep me"])

        let allowed = try server.run(["play", "--live", "--instant", "--allow-reset", file])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(try server.run(["list", "--json"]).output == "[]")
        // Instant play resets its own in-memory inbox: nothing to allow.
        #expect(try runPushdeck(["play", file]).status == 0)
    }

    @Test func recordUsageErrors() throws {
        let server = try ServerProcess()
        #expect(try server.run(["record"]).status == 2)
        #expect(try server.run(["record", "a.json", "b.json"]).status == 2)
        #expect(try runPushdeck(["record", "--socket", server.folder.file("none.sock"), server.folder.file("r.json")]).status == 3)
        #expect(!FileManager.default.fileExists(atPath: server.folder.file("r.json")))
        #expect(try server.run(["record", server.folder.file("no/such/folder/r.json")]).status == 2)
    }
}
