import Foundation
import PushCore
import PushJSON
import Testing
import TestSupport

/// A Live Activity's card on the real screen (tmux): a push-to-start push through the gateway
/// makes the card, an update to the activity's own token changes its content-state in place.
@Suite struct ActivityCardScreenTests {
    @Test func aPushToStartThenAnUpdateShowTheNewContentStateOnTheCard() throws {
        let ui = try GatewayScreen(folder: TempFolder())
        let tmux = ui.tmux, socket = ui.socket, ca = ui.caPath
        let port = try #require(ui.address.split(separator: ":").last.map(String.init))
        let startToken = String(repeating: "5a", count: 32)
        let added = try runPushdeck(["device", "add", startToken, "--app", "com.example.food", "--kind", "push-to-start", "--socket", socket])
        #expect(added.status == 0, "\(added.stderr)")

        func push(_ token: String, _ body: String) throws -> String {
            try Spawn.run(["curl", "-sS", "--http2", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}",
                           "-H", "apns-topic: com.example.food.push-type.liveactivity", "-H", "apns-push-type: liveactivity",
                           "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "--data-binary", body,
                           "https://localhost:\(port)/3/device/\(token)"], captureOutput: true).output
        }
        let now = Int(Date().timeIntervalSince1970)
        #expect(try push(startToken, #"{"aps":{"timestamp":\#(now),"event":"start","attributes-type":"DeliveryAttributes","attributes":{"order":"A-17"},"content-state":{"status":"preparing","eta":25},"input-push-token":1}}"#) == "200")
        let card = tmux.waitFor(timeout: 2) { $0.contains("com.example.food · order: A-17") && $0.contains("status: preparing  eta: 25") }
        #expect(card != nil, "no card: \(tmux.capture())")

        let listed = try runPushdeck(["activity", "list", "--json", "--socket", socket])
        let activity = try #require(try JSON.parse(listed.stdout).objectValue?["activities"]?.arrayValue?.first?.objectValue)
        let pushToken = try #require(activity["pushToken"]?.stringValue)
        #expect(try push(pushToken, #"{"aps":{"timestamp":\#(now + 60),"event":"update","content-state":{"status":"on the way","eta":10}}}"#) == "200")
        let updated = tmux.waitFor(timeout: 2) { $0.contains("status: on the way  eta: 10") }
        #expect(updated != nil, "card not updated: \(tmux.capture())")
        // Updated in place: one card, the old content-state gone, the compact line the new one.
        let screen = tmux.capture()
        #expect(screen.components(separatedBy: "com.example.food · order: A-17").count == 2, "\(screen)")
        #expect(!screen.contains("preparing"))
        #expect(screen.split(separator: "\n").first?.contains("◖") == true, "\(screen)")
        try tmux.sendKeys("q")
    }

    /// The card's keys on the real screen: `]` selects the card, `⏎` opens its history (an older
    /// update discarded, with why), `x` dismisses it — the card is gone, the activity is
    /// dismissed by the user, and a push to its token is then APNs' 410 `ExpiredToken`.
    @Test func theCardKeysOpenItsHistoryAndDismissIt() throws {
        let ui = try GatewayScreen(folder: TempFolder())
        let tmux = ui.tmux, socket = ui.socket, ca = ui.caPath
        let port = try #require(ui.address.split(separator: ":").last.map(String.init))
        let startToken = String(repeating: "5a", count: 32)
        #expect(try runPushdeck(["device", "add", startToken, "--app", "com.example.food", "--kind", "push-to-start", "--socket", socket]).status == 0)
        func push(_ token: String, _ body: String) throws -> String {
            try Spawn.run(["curl", "-sS", "--http2", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}",
                           "-H", "apns-topic: com.example.food.push-type.liveactivity", "-H", "apns-push-type: liveactivity",
                           "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "--data-binary", body,
                           "https://localhost:\(port)/3/device/\(token)"], captureOutput: true).output
        }
        let now = Int(Date().timeIntervalSince1970)
        #expect(try push(startToken, #"{"aps":{"timestamp":\#(now),"event":"start","attributes-type":"DeliveryAttributes","attributes":{"order":"A-17"},"content-state":{"status":"preparing"},"input-push-token":1}}"#) == "200")
        #expect(tmux.waitFor(timeout: 2) { $0.contains("status: preparing") } != nil, "no card: \(tmux.capture())")
        let listed = try runPushdeck(["activity", "list", "--json", "--socket", socket])
        let pushToken = try #require(try JSON.parse(listed.stdout).objectValue?["activities"]?.arrayValue?.first?.objectValue?["pushToken"]?.stringValue)
        #expect(try push(pushToken, #"{"aps":{"timestamp":\#(now + 60),"event":"update","content-state":{"status":"on the way"}}}"#) == "200")
        #expect(try push(pushToken, #"{"aps":{"timestamp":\#(now + 30),"event":"update","content-state":{"status":"late news"}}}"#) == "200")
        #expect(tmux.waitFor(timeout: 2) { $0.contains("status: on the way") } != nil, "\(tmux.capture())")

        try tmux.sendKeys("]")
        #expect(tmux.waitFor(timeout: 2) { $0.contains("⏎ open  x dismiss") } != nil, "not selected: \(tmux.capture())")
        try tmux.sendKeys("Enter")
        let opened = tmux.waitFor(timeout: 2) { $0.contains("Live Activity activity-1") && $0.contains("3 pushes, 1 discarded") }
        #expect(opened != nil, "not opened: \(tmux.capture())")
        #expect(opened?.contains("why: timestamp \(now + 30) is older than the last applied (\(now + 60))") == true, "\(opened ?? "")")

        try tmux.sendKeys("x")
        let gone = tmux.waitFor(timeout: 2) { !$0.contains("com.example.food · order: A-17") && !$0.contains("Live Activity activity-1") }
        #expect(gone != nil, "card still there: \(tmux.capture())")
        let after = try runPushdeck(["activity", "list", "--json", "--socket", socket])
        let activity = try #require(try JSON.parse(after.stdout).objectValue?["activities"]?.arrayValue?.first?.objectValue)
        #expect(activity["state"] == "dismissed" && activity["dismissedByUser"] == .bool(true), "\(after.stdout)")
        let expired = try Spawn.run(["curl", "-sS", "--http2", "--cacert", ca, "-w", " %{http_code}",
                                     "-H", "apns-topic: com.example.food.push-type.liveactivity", "-H", "apns-push-type: liveactivity",
                                     "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "--data-binary",
                                     #"{"aps":{"timestamp":\#(now + 90),"event":"update","content-state":{"status":"x"}}}"#,
                                     "https://localhost:\(port)/3/device/\(pushToken)"], captureOutput: true).output
        #expect(expired.contains("ExpiredToken") && expired.hasSuffix("410"), "\(expired)")
        try tmux.sendKeys("q")
    }
}
