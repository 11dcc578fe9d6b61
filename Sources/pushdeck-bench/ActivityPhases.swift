import Foundation
import Glibc
import PushCore
import PushJSON
import PushStore

/// Live Activities: updates through the gateway to 100 activities against the alert pushes of
/// the same server in the same run, and the frame time of the screen with 20 activities under
/// its header (the cards and the compact line, ordered each frame) at the UI phases' inbox.
struct ActivityPhases {
    let settings: Bench.Settings
    let folder: String
    static let activities = 100
    static let app = "com.example.bench"

    /// The activity push token of activity `index` (64 hex digits, as ActivityKit's are).
    static func token(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "ac" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    /// `activity_updates_per_s`: h2load over h2c, 4 connections × 32 streams, round robin over
    /// the 100 activities' tokens (`update` events, each applied and kept with its history), and
    /// `activity_alert_msgs_per_s`: the gateway phase's 4 KB alert push at the same settings, on
    /// the same server just before — their ratio is what an update costs against an alert.
    func updates(into results: inout Results) throws {
        let phaseFolder = folder + "/activities"
        try FileManager.default.createDirectory(atPath: phaseFolder, withIntermediateDirectories: true)
        let server = try ServerUnderTest(
            folder: phaseFolder, arguments: ["serve", "--gateway", "127.0.0.1:0"], environment: ["XDG_DATA_HOME": phaseFolder + "/data"])
        defer { server.stop() }
        let gateway = GatewayPhases(settings: settings, folder: folder)
        let port = try gateway.gatewayPort(server.socket)
        // The activities' tokens, registered as their app's (`device add --kind activity`): an
        // update to one stands for an activity its app started.
        for index in 0..<Self.activities {
            try gateway.request(server.socket, #"{"op":"device","action":"add","token":"\#(Self.token(index))","app":"\#(Self.app)","kind":"activity"}"#)
        }
        let duration = settings.quick ? 2 : 5
        let auth = ["-H", "authorization: \(GatewayPhases.authorization)"]

        let alertBody = phaseFolder + "/alert.json"
        try Data(GatewayPhases.payload()).write(to: URL(fileURLWithPath: alertBody))
        let alert = try gateway.h2load(
            ["-c4", "-m32", "-D\(duration)", "-d", alertBody, "-H", "apns-topic: \(Self.app)", "-H", "apns-push-type: alert"] + auth
                + ["http://127.0.0.1:\(port)/3/device/\(GatewayPhases.token)"])

        let updateBody = phaseFolder + "/update.json"
        try Data(Self.update()).write(to: URL(fileURLWithPath: updateBody))
        let urls = (0..<Self.activities).map { "http://127.0.0.1:\(port)/3/device/\(Self.token($0))" }
        let headers = ["-H", "apns-topic: \(Self.app).push-type.liveactivity", "-H", "apns-push-type: liveactivity", "-H", "apns-priority: 10"] + auth
        // One update each first: the activities exist before the timed run.
        _ = try gateway.h2load(["-c1", "-m1", "-n\(Self.activities)", "-d", updateBody] + headers + urls)
        let updates = try gateway.h2load(["-c4", "-m32", "-D\(duration)", "-d", updateBody] + headers + urls)
        results.record("activity_alert_msgs_per_s", alert, "msgs/s")
        results.record("activity_updates_per_s", updates, "msgs/s")
        results.record("activity_updates_ratio", updates / alert, "x")
    }

    /// A Live Activity update as a delivery backend sends it: an `update` with its content-state,
    /// a stale-date and a relevance score. The one timestamp is never older than the last
    /// applied, so every update applies.
    static func update() -> [UInt8] {
        let now = Int(Date().timeIntervalSince1970)
        return Array(#"{"aps":{"timestamp":\#(now),"event":"update","content-state":{"status":"on the way","eta":8,"courier":"Ana","stop":3},"stale-date":\#(now + 3600),"relevance-score":50}}"#.utf8)
    }

    /// `frame_ms_1m_20_activities`: the UI phases' frame (End, Home) over `database` with 20
    /// active Live Activities added, each with 20 pushes of history: the cards show under the
    /// header (as many as fit), the compact line names the newest, all 20 ordered each frame.
    func frames(database: String, ui: UIPhases, into results: inout Results) throws {
        let store = try Store(path: database)
        let now = Date()
        var changes: [StoreChange] = []
        for number in 1...20 {
            var activity = Activity(
                id: "activity-\(number)", app: "com.example.app\(number % 5)", attributesType: "DeliveryAttributes",
                attributes: ["order": .string("A-\(number)")], contentState: ["status": "on the way", "eta": .number(JSONNumber(number))],
                pushToken: Self.token(number), startedAt: now.addingTimeInterval(-600))
            activity.updatedAt = now.addingTimeInterval(-Double(number))
            activity.relevanceScore = Double(number % 4)
            for push in 0..<20 {
                activity.record(ActivityUpdate(
                    at: now.addingTimeInterval(-600 + Double(push)), token: activity.pushToken, app: activity.app, event: "update",
                    timestamp: Int64(now.timeIntervalSince1970) - 600 + Int64(push), contentState: ["eta": .number(JSONNumber(push))], accepted: push % 5 != 4,
                    why: push % 5 == 4 ? "timestamp is older than the last applied" : nil))
            }
            changes.append(.activity(ActivityWrite(activity)))
        }
        try store.write(changes)
        store.close()
        let cardsUI = try UIUnderTest(folder: folder, database: database, name: "cards")
        defer { cardsUI.stop() }
        _ = try cardsUI.waitForFirstFrame()
        let frames = try ui.fullFrames(cardsUI, pairs: settings.quick ? 5 : 20).sorted()
        results.record("frame_ms_1m_20_activities", percentile(frames, 0.5), "ms")
    }
}
