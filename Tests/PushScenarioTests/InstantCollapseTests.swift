import Foundation
import PushCore
import PushScenario
import Testing

/// Instant play replaces by collapse id as the server does (it has no store to ask).
@Suite struct InstantCollapseTests {
    /// Two JPush notifications with one `apns_collapse_id` (counted once), a third with another id
    /// replacing a read message (unread again), and the same id in another app (not replaced).
    static let scenario = """
        {"name":"collapse","steps":[
          {"app":"com.example.live","state":"background"},
          {"app":"com.example.live","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"score 1:0"}},"options":{"apns_collapse_id":"m7"}}}},
          {"app":"com.example.live","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"score 2:0"}},"options":{"apns_collapse_id":"m7"}}}},
          {"app":"com.example.live","expect":{"unread":1,"badge":1}},
          {"app":"com.example.live","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"other"}},"options":{"apns_collapse_id":"m8"}}}},
          {"app":"com.example.live","expect":{"unread":2,"badge":2}},
          {"app":"com.example.live","read":"last"},
          {"app":"com.example.live","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"other again"}},"options":{"apns_collapse_id":"m8"}}}},
          {"app":"com.example.live","expect":{"unread":2,"badge":2}},
          {"app":"com.example.other","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"same id, other app"}},"options":{"apns_collapse_id":"m7"}}}},
          {"expect":{"unread":3}}
        ]}
        """

    @Test func aPushWithAnEarlierCollapseIdReplacesItAndIsCountedOnce() throws {
        var player = InstantPlayer()
        let result = player.play(try ScenarioLoader.parse(Array(Self.scenario.utf8), file: "collapse.json"))
        #expect(result.expects.count == 4)
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test func aDeletedMessageIsNotReplacedButTheNextWithItsIdIs() throws {
        let text = """
            {"name":"deleted","steps":[
              {"app":"a","state":"background"},
              {"app":"a","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"one"}}}}},
              {"app":"a","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"two"}},"options":{"apns_collapse_id":"k"}}}},
              {"app":"a","delete":"last"},
              {"app":"a","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"three"}},"options":{"apns_collapse_id":"k"}}}},
              {"app":"a","push":{"payload":{"platform":"ios","audience":"all","notification":{"ios":{"alert":"four"}},"options":{"apns_collapse_id":"k"}}}},
              {"app":"a","expect":{"unread":2}}
            ]}
            """
        var player = InstantPlayer()
        let result = player.play(try ScenarioLoader.parse(Array(text.utf8), file: "deleted.json"))
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }
}
