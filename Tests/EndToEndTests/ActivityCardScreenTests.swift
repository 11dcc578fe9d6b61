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
}
