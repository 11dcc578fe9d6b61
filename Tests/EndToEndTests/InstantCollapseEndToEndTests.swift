import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// `play --instant` replaces by collapse id as the server does — the same scenario
/// passes played instantly and played live against a real server over its socket.
@Suite struct InstantCollapseEndToEndTests {
    static let scenario = """
        {"name":"collapse","steps":[
          {"app":"com.example.live","state":"background"},
          {"app":"com.example.live","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"score 1:0"}},"options":{"apns_collapse_id":"m7"}}}},
          {"app":"com.example.live","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"score 2:0"}},"options":{"apns_collapse_id":"m7"}}}},
          {"app":"com.example.live","expect":{"unread":1,"badge":1}},
          {"app":"com.example.other","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"same id"}},"options":{"apns_collapse_id":"m7"}}}},
          {"expect":{"unread":2}}
        ]}
        """

    @Test func theSameScenarioPassesInstantAndLive() throws {
        let server = try ServerProcess()
        let file = server.folder.file("collapse.json")
        try Data(Self.scenario.utf8).write(to: URL(fileURLWithPath: file))
        let instant = try runPushdeck(["play", "--instant", file])
        #expect(instant.status == 0, "\(instant.stdout)\(instant.stderr)")
        #expect(instant.stdout.hasSuffix("all passed\n"), "\(instant.stdout)")
        let live = try server.run(["play", "--live", file])
        #expect(live.status == 0, "\(live.stdout)\(live.stderr)")
        let listed = try JSON.parse(try server.run(["list", "--json"]).output).arrayValue ?? []
        #expect(listed.compactMap { $0.objectValue?["body"]?.stringValue }.sorted() == ["same id", "score 2:0"])
    }
}
