import Foundation
import PushCore
import PushScenario
import PushStore
import Testing
import TestSupport

/// Instant play: the pure reducer on a manual clock, in memory.
@Suite struct InstantPlayerTests {
    private func play(_ text: String) throws -> PlayResult {
        var player = InstantPlayer()
        return player.play(try ScenarioLoader.parse(Array(text.utf8), file: "t.json"))
    }

    static var scenarioFiles: [URL] {
        (try? PackagePaths.files(in: PackagePaths.resources.appendingPathComponent("scenarios"), endingWith: [".json"])) ?? []
    }

    @Test func thereAreTheFiveNumberedScenariosAndTheDemo() {
        let names = Self.scenarioFiles.map(\.lastPathComponent)
        for prefix in ["000-", "001-", "002-", "003-", "004-", "demo.json"] {
            #expect(names.contains { $0.hasPrefix(prefix) }, "no scenario \(prefix)…")
        }
    }

    @Test(arguments: scenarioFiles)
    func everyShippedScenarioPasses(_ file: URL) throws {
        var player = InstantPlayer()
        let result = player.play(try ScenarioLoader.load(path: file.path))
        #expect(!result.expects.isEmpty)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    /// A mute step mutes the step's app as `pushdeck mute` does: listed and counted, no banner;
    /// until unmuted, or for its seconds on the scenario's clock.
    @Test func aMuteStepHidesTheAppsBannersUntilUnmutedOrItsTimeIsUp() throws {
        let result = try play("""
            {"name":"muted","steps":[
              {"app":"com.example.shop","mute":true},
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"quiet"}}}},
              {"at":0.1,"app":"com.example.shop","expect":{"banner":null,"unread":1}},
              {"app":"com.example.shop","mute":false},
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"loud"}}}},
              {"at":0.2,"expect":{"banner":"loud","unread":2}},
              {"app":"com.example.news","mute":60},
              {"app":"com.example.news","push":{"payload":{"aps":{"alert":"muted for a minute"}}}},
              {"at":0.3,"expect":{"banner":"loud","unread":3}},
              {"at":70,"app":"com.example.news","push":{"payload":{"aps":{"alert":"the minute is up"}}}},
              {"at":70.1,"expect":{"banner":"the minute is up","unread":4}}
            ]}
            """)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test func aFailedExpectSaysStepExpectedAndGot() throws {
        let result = try play("""
            {"name":"fails","steps":[
              {"app":"a","push":{"payload":{"aps":{"alert":"x"}}}},
              {"at":1,"app":"a","expect":{"badge":2,"unread":1,"banner":"y"}}
            ]}
            """)
        #expect(!result.passed)
        #expect(result.failureLines == [
            "t.json: step 2 (at 1 s): badge: expected 2, got 1",
            #"t.json: step 2 (at 1 s): banner: expected "y", got "x""#,
        ])
    }

    @Test func anHourLongScenarioTakesMillisecondsAndTheSameResultEveryRun() throws {
        var steps: [String] = []
        for minute in 0..<60 {
            steps.append(#"{"at":\#(minute * 60),"app":"a","push":{"payload":{"aps":{"alert":{"title":"m\#(minute)"}}}}}"#)
            steps.append(#"{"at":\#(minute * 60 + 3),"expect":{"banner":"m\#(minute)","unread":\#(minute + 1)}}"#)
            steps.append(#"{"at":\#(minute * 60 + 30),"expect":{"banner":null}}"#)
        }
        let text = #"{"name":"hour","steps":["# + steps.joined(separator: ",") + "]}"
        let started = Date()
        let first = try play(text)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(first.passed, "\(first.failureLines.prefix(3))")
        #expect(first.expects.count == 120)
        #expect(try play(text) == first)
    }

    @Test func junitOfAFailureValidatesAgainstTheSchema() throws {
        let failing = try play("""
            {"name":"a <scenario> & \\"quotes\\" \\u0001","steps":[
              {"app":"a","push":{"payload":{"aps":{"alert":"x\\u0001 <b>"}}}},
              {"expect":{"badge":2,"banner":null}},
              {"expect":{"badge":1}}
            ]}
            """)
        let passing = try play(#"{"name":"ok","steps":[{"expect":{"badge":0}}]}"#)
        let folder = TempFolder()
        let path = folder.file("junit.xml")
        try Data(PlayResult.junit([failing, passing]).utf8).write(to: URL(fileURLWithPath: path))
        let check = try JUnitSchema.check(path)
        #expect(check.status == 0, "\(check.output)")
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="pushdeck play" tests="3" failures="1""#))
        #expect(xml.contains("<failure message=\"badge: expected 2, got 1; banner: expected null, got &quot;x\\u0001 &lt;b&gt;&quot;\""))
        #expect(xml.contains(#"<testsuite name="a &lt;scenario&gt; &amp; &quot;quotes&quot; \#u{FFFD}""#))

        // The schema is not a rubber stamp: a report without a test case's name fails it.
        let schema = JUnitSchema.path
        let broken = folder.file("broken.xml")
        try Data(#"<testsuites><testsuite name="x" tests="1"><testcase classname="c"/></testsuite></testsuites>"#.utf8)
            .write(to: URL(fileURLWithPath: broken))
        #expect(try Spawn.run(["/usr/bin/xmllint", "--noout", "--schema", schema, broken], captureOutput: true).status != 0)
    }
}

/// One decoder configuration in the instant player: held messages are decoded again with the player's
/// own `maxPayloadBytes`, not the default 4 096 (a 5 000-byte `autoBadge: "7"` counted +1).
@Suite struct InstantPlayerDecoderTests {
    @Test func aHeldMessageIsDecodedAgainWithThePlayersMaxPayload() throws {
        let filler = String(repeating: "x", count: 4_900)
        let text = """
            {"name":"held","steps":[
              {"at":0,"state":"terminated"},
              {"at":1,"app":"com.example.news","push":{"payload":{"taskId":"t","msgId":"m","autoBadge":"7","payload":"\(filler)"}}},
              {"at":2,"state":"foreground"},
              {"at":3,"app":"com.example.news","expect":{"badge":7}}
            ]}
            """
        var player = InstantPlayer(maxPayloadBytes: 8_192)
        let result = player.play(try ScenarioLoader.parse(Array(text.utf8), file: "held.json"))
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
        #expect(player.inbox.badge(of: "com.example.news").icon == 7)
    }
}

/// Instant play is the server's engine: the rules the server applies before a request (held
/// messages expire before a mode or app-state change could deliver them) hold here too.
@Suite struct InstantPlayerEngineTests {
    @Test func aHeldMessagePastItsTimeToLiveExpiresBeforeTheAppComesBack() throws {
        var player = InstantPlayer()
        let result = player.play(try ScenarioLoader.parse(Array("""
            {"name":"ttl","steps":[
              {"state":"terminated"},
              {"app":"n","push":{"payload":{"taskId":"T","msgId":"M","payload":"x","offLineExpireTime":1000}}},
              {"at":2,"state":"foreground"},
              {"app":"n","expect":{"unread":0,"held":0,"badge":0}}
            ]}
            """.utf8), file: "ttl.json"))
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
        #expect(player.store.page(ListQuery(app: "n")).first?.expired == true)
    }

    @Test func aReadOfAnIdNoMessageHasChangesNothing() throws {
        var player = InstantPlayer()
        let result = player.play(try ScenarioLoader.parse(Array("""
            {"name":"unknown id","steps":[
              {"app":"a","push":{"payload":{"aps":{"alert":"x"}}}},
              {"app":"a","read":7},
              {"app":"a","expect":{"unread":1,"badge":1}}
            ]}
            """.utf8), file: "id.json"))
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }
}
