import Foundation
import PushCore
import PushGateway
import PushScenario
import Testing
import PushJSON

/// Scenario files are read strictly: every error names the file, the step and the field path,
/// and is found before anything plays.
@Suite struct ScenarioLoaderTests {
    private func load(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.parse(Array(text.utf8), file: "t.json")
    }

    private func error(_ text: String) -> String {
        do {
            _ = try load(text)
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func everyActionAndTimeForm() throws {
        let scenario = try load("""
            {"name":"all","steps":[
              {"at":1,"app":"a","push":{"payload":{"aps":{"alert":"x"}},"channel":"apns","via":"socket"}},
              {"at":"+0.5","state":"terminated"},
              {"mode":"off"},
              {"read":"all"},{"read":"last"},{"read":7},
              {"badge":{"set":3,"sync":false}},{"badge":{"clear":true}},
              {"wait":2},
              {"say":"hello"},
              {"at":10,"expect":{"badge":1,"serverBadge":1,"unread":0,"held":0,"dropped":0,"banner":null,
                "delivered":true,"reason":null,"feedback":[90001],"callback":"launchOptions"}}
            ]}
            """)
        #expect(scenario.steps.map(\.time) == [1, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 3.5, 10])
        #expect(scenario.steps[0].action == .push(ScenarioPush(payloadText: #"{"aps":{"alert":"x"}}"#, channel: .apns)))
        #expect(scenario.steps[5].action == .read(.id(7)))
        #expect(scenario.steps[6].action == .badge(change: .set(3), sync: false))
        #expect(scenario.steps[10].action == .expect(Expectation(
            badge: 1, serverBadge: 1, unread: 0, held: 0, dropped: 0, banner: .some(nil), delivered: true,
            reason: .some(nil), feedback: [90001], callback: "launchOptions")))
        #expect(scenario.duration == 10)
    }

    @Test(arguments: [
        (#"{"name":"x","steps":[{"push":{"payload":{}}},{"expect":{"badges":1}}]}"#,
         "t.json: step 2: steps[1].expect.badges: unknown field; accepted: badge, serverBadge"),
        (#"{"name":"x","steps":[{"pusj":{}}]}"#, "t.json: step 1: steps[0].pusj: unknown field"),
        (#"{"name":"x","steps":[],"extra":1}"#, "t.json: extra: unknown field; accepted: name, steps"),
        (#"{"steps":[]}"#, "t.json: name: is required"),
        (#"{"name":"x"}"#, "t.json: steps: is required"),
        (#"{"name":"x","steps":[{"at":5,"mode":"on"},{"at":2,"mode":"off"}]}"#,
         "t.json: step 2: steps[1].at: 2 is before the previous step's time 5"),
        (#"{"name":"x","steps":[{"at":"soon","mode":"on"}]}"#, "t.json: step 1: steps[0].at: must be seconds"),
        (#"{"name":"x","steps":[{"mode":"on","state":"background"}]}"#,
         "t.json: step 1: steps[0]: has state and mode; a step takes one action"),
        (#"{"name":"x","steps":[{"at":1}]}"#, "t.json: step 1: steps[0]: needs one action"),
        (#"{"name":"x","steps":[{"mode":"sideways"}]}"#, "t.json: step 1: steps[0].mode: must be one of on, off"),
        (#"{"name":"x","steps":[{"push":{"payload":[1]}}]}"#, "t.json: step 1: steps[0].push.payload: must be a JSON object"),
        (#"{"name":"x","steps":[{"push":{"payload":{},"headers":{"apns-topic":"a"}}}]}"#,
         "t.json: step 1: steps[0].push.headers: goes with \"via\": \"apns\", \"jpush\", \"getui\" or \"fcm\""),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"socket","token":"ab"}}]}"#,
         "t.json: step 1: steps[0].push.token: goes with \"via\""),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"apns"}}]}"#, "t.json: step 1: steps[0].push: \"via\": \"apns\" needs \"token\""),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"hms"}}]}"#,
         "t.json: step 1: steps[0].push.via: must be one of socket, apns, jpush, getui, fcm; got \"hms\""),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"apns","token":7}}]}"#, "t.json: step 1: steps[0].push.token: must be a non-empty string; got 7"),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"apns","token":"ab","headers":["apns-topic"]}}]}"#,
         "t.json: step 1: steps[0].push.headers: must be an object of header names to strings; got an array"),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"apns","token":"ab","headers":{"apns-priority":10}}}]}"#,
         "t.json: step 1: steps[0].push.headers.apns-priority: must be a string; got 10"),
        (#"{"name":"x","steps":[{"push":{"payload":{},"via":"jpush","channel":"apns"}}]}"#,
         "t.json: step 1: steps[0].push.channel: goes with a socket push only"),
        (#"{"name":"x","steps":[{"mute":"1h"}]}"#,
         #"t.json: step 1: steps[0].mute: must be true (until unmuted), whole seconds from 1, or false (unmute); got "1h""#),
        (#"{"name":"x","steps":[{"badge":{"policy":"device"}}]}"#, "t.json: step 1: steps[0].badge.policy: must be one of app, platform"),
        (#"{"name":"x","steps":[{"badge":{"policy":"platform","set":1}}]}"#, "t.json: step 1: steps[0].badge: \"policy\" goes alone"),
        (#"{"name":"x","steps":[{"badge":{"sdk":"getui","call":"clearBadge"}}]}"#, "t.json: step 1: steps[0].badge.call: getui has no badge call 'clearBadge'"),
        (#"{"name":"x","steps":[{"badge":{"sdk":"jpush"}}]}"#, "t.json: step 1: steps[0].badge: \"sdk\" needs \"call\""),
        (#"{"name":"x","steps":[{"badge":{"call":"setBadge","value":1}}]}"#, "t.json: step 1: steps[0].badge: \"call\" and \"value\" go with \"sdk\""),
        (#"{"name":"x","steps":[{"badge":{"set":-1}}]}"#, "t.json: step 1: steps[0].badge.set: must be a whole number ≥ 0"),
        (#"{"name":"x","steps":[{"read":"first"}]}"#, "t.json: step 1: steps[0].read: must be \"all\", \"last\" or a message id"),
        (#"{"name":"x","steps":[{"expect":{"feedback":[90001,"x"]}}]}"#, "t.json: step 1: steps[0].expect.feedback[1]: must be a whole number"),
        (#"{"name":"x","steps":[{"expect":{}}]}"#, "t.json: step 1: steps[0].expect: checks nothing"),
        (#"{"name":"x","steps":[{"push":{"file":"no-such.apns"}}]}"#, "t.json: step 1: steps[0].push.file: cannot read"),
        (#"{"name":"x","steps":[}"#, "t.json: the scenario is not valid JSON"),
    ])
    func badFilesSayWhereAndWhat(_ text: String, _ message: String) {
        let said = error(text)
        #expect(said.hasPrefix(message), "\(said)")
    }

    @Test func aGatewayPushKeepsItsViaTokenAndHeadersInOrder() throws {
        let text = #"""
            {"name":"x","steps":[
              {"app":"com.example.shop","push":{"payload":{"aps":{"alert":"x"}},"via":"apns","token":"ab12",
               "headers":{"APNs-Topic":"com.example.shop","apns-collapse-id":"c"}}},
              {"app":"k","push":{"payload":{"platform":"all"},"via":"jpush","token":"ignored"}},
              {"push":{"payload":{},"via":"socket"}}
            ]}
            """#
        let steps = try ScenarioLoader.parse(Array(text.utf8), file: "t.json").steps
        guard case .push(let apns) = steps[0].action, case .push(let jpush) = steps[1].action, case .push(let socket) = steps[2].action else {
            Issue.record("not three pushes: \(steps)")
            return
        }
        #expect(apns.via == .apns)
        #expect(apns.token == "ab12")
        #expect(apns.headers == [HTTPHeader("apns-topic", "com.example.shop"), HTTPHeader("apns-collapse-id", "c")])
        #expect(jpush.via == .jpush)
        #expect(jpush.headers.isEmpty)
        #expect(socket.via == .socket)
    }

    /// Live play checks what instant play checks: the server's `state` report shows it all.
    @Test func liveTakesEveryExpectation() {
        let text = #"{"name":"x","steps":[{"expect":{"held":0,"dropped":0,"banner":null,"callback":"x","feedback":[]}}]}"#
        #expect(error(text) == "loaded")
    }
}
