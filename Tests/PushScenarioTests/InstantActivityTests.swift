import Foundation
import PushCore
import PushScenario
import Testing
import TestSupport

/// Live Activities in a scenario: `activity` expects (state on the scenario's clock, the whole
/// content-state, the pushes discarded) and the `activity` step (the user's dismissal), played
/// instantly through the APNs gateway's own routes; the loader's errors for what cannot be played.
@Suite struct InstantActivityTests {
    static let app = "com.example.food"
    static let startToken = String(repeating: "5a", count: 32)
    /// The push token instant play's first activity gets (`input-push-token: 1`).
    static let activityToken = "1ac7" + String(repeating: "0", count: 59) + "1"

    static func push(_ token: String, _ aps: String) -> String {
        #"{"app":"\#(app)","push":{"via":"apns","token":"\#(token)","headers":{"apns-topic":"\#(app).push-type.liveactivity","apns-push-type":"liveactivity"},"payload":{"aps":\#(aps)}}}"#
    }

    static let start = push(startToken, #"{"timestamp":100,"event":"start","attributes-type":"T","attributes":{"order":"A-17"},"content-state":{"status":"preparing"},"input-push-token":1}"#)

    func play(_ steps: [String]) throws -> PlayResult {
        var player = InstantPlayer()
        let text = #"{"name":"activity","steps":["# + steps.joined(separator: ",") + "]}"
        return player.play(try ScenarioLoader.parse(Array(text.utf8), file: "activity.json"))
    }

    func loadError(_ step: String) -> String {
        do {
            _ = try ScenarioLoader.parse(Array(#"{"name":"x","steps":[\#(step)]}"#.utf8), file: "x.json")
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func anActivityExpectSeesTheStateTheContentAndTheDiscardedPushes() throws {
        let result = try play([
            Self.start,
            #"{"app":"\#(Self.app)","expect":{"activity":{"id":"activity-1","state":"active","contentState":{"status":"preparing"},"discarded":0}}}"#,
            Self.push(Self.activityToken, #"{"timestamp":200,"event":"update","content-state":{"status":"on the way"}}"#),
            Self.push(Self.activityToken, #"{"timestamp":150,"event":"update","content-state":{"status":"late"}}"#),
            // Without an id: the step's app's newest activity.
            #"{"app":"\#(Self.app)","expect":{"activity":{"state":"active","contentState":{"status":"on the way"},"discarded":1}}}"#,
            Self.push(Self.activityToken, #"{"timestamp":300,"event":"end","content-state":{"status":"delivered"},"dismissal-date":4102444800}"#),
            #"{"app":"\#(Self.app)","expect":{"activity":{"state":"ended"}}}"#,
            // The system's 4 hours after the end, on the scenario's clock.
            #"{"wait":14401}"#,
            #"{"app":"\#(Self.app)","expect":{"activity":{"state":"dismissed"}}}"#,
        ])
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
        #expect(result.expects.count == 4)
    }

    @Test func aFailedActivityExpectSaysWhatItFound() throws {
        let result = try play([
            Self.start,
            #"{"app":"\#(Self.app)","expect":{"activity":{"state":"ended","contentState":{"status":"shipped"},"discarded":2}}}"#,
            #"{"app":"com.example.other","expect":{"activity":{"state":"active"}}}"#,
        ])
        let fields = result.failures.flatMap(\.mismatches).map(\.description)
        #expect(fields == [
            "activity.state: expected ended, got active",
            #"activity.contentState: expected {"status":"shipped"}, got {"status":"preparing"}"#,
            "activity.discarded: expected 2, got 0",
            "activity: expected a Live Activity, got none",
        ])
    }

    @Test func theActivityStepDismissesAsTheUsersSwipeDoesAndTheTokenIsThenExpired() throws {
        let result = try play([
            Self.start,
            #"{"app":"\#(Self.app)","activity":{"dismiss":"last"}}"#,
            #"{"app":"\#(Self.app)","expect":{"activity":{"id":"activity-1","state":"dismissed"}}}"#,
            Self.push(Self.activityToken, #"{"timestamp":400,"event":"update","content-state":{"status":"again"}}"#),
            #"{"app":"\#(Self.app)","expect":{"delivered":false,"reason":"ExpiredToken"}}"#,
        ])
        #expect(result.passed, "\(result.failureLines.joined(separator: "\n"))")
    }

    @Test func theLoaderRefusesAnActivityStepOrExpectItCannotPlay() {
        #expect(loadError(#"{"activity":{}}"#).contains(#"needs "dismiss""#))
        #expect(loadError(#"{"activity":{"dismiss":""}}"#).contains("steps[0].activity.dismiss: must be a non-empty string"))
        #expect(loadError(#"{"activity":{"swipe":"activity-1"}}"#).contains("steps[0].activity.swipe: unknown field"))
        #expect(loadError(#"{"expect":{"activity":{}}}"#).contains("checks nothing"))
        #expect(loadError(#"{"expect":{"activity":{"state":"paused"}}}"#).contains("must be one of active, stale, ended, dismissed"))
        #expect(loadError(#"{"expect":{"activity":{"contentState":[1]}}}"#).contains("must be an object (the whole content-state); got an array"))
        #expect(loadError(#"{"expect":{"activity":{"discarded":-1}}}"#).contains("must be a whole number"))
        #expect(loadError(#"{"expect":{"activity":{"contentstate":{}}}}"#).contains("unknown field"))
    }
}
