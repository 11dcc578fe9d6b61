import PushCore
import PushTUI
import Testing
import TestSupport

/// A message that came through FCM says `FCM` in the list's channel column, whatever its channel
/// (an Android notification, a data message, an iOS token's APNs push); the detail view shows
/// what FCM recorded of the send.
@Suite struct FCMListRowTests {
    static func fcm(_ id: Int64, channel: Channel, title: String) -> Message {
        var message = SampleMessages.message(id, channel: channel, title: title, body: "b")
        message.via = .fcm
        message.token = "cK9xZ2:APA91bH-1"
        message.callback = channel == .android ? "system tray" : nil
        message.fcm = FCMFacts(project: "demo", messageName: "projects/demo/messages/0:1%ab", platform: channel == .apns ? .ios : .android,
                               collapseKey: "k", priority: .high, tag: "t")
        return message
    }

    @Test func theRowSaysFCMOnEveryChannel() {
        let messages = [Self.fcm(3, channel: .android, title: "tray"), Self.fcm(2, channel: .transparent, title: "data"),
                        Self.fcm(1, channel: .apns, title: "ios"), SampleMessages.message(0, title: "plain")]
        var screen = Screen(size: Size(width: 100, height: 24))
        screen.load(from: ArrayMessageSource(messages))
        let grid = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        let rows = (0..<24).map { grid.rowText($0) }
        for title in ["tray", "data", "ios"] {
            let row = rows.first { $0.contains(title) } ?? ""
            #expect(row.contains("FCM"), "\(row)")
        }
        #expect(rows.first { $0.contains("plain") }?.contains("APNs") == true)
    }

    @Test func theDetailShowsTheSendAndTheOptions() {
        let lines = DetailView.lines(for: Self.fcm(3, channel: .android, title: "tray"), callback: "system tray", width: 100,
                                     date: SampleMessages.now, timeZone: .gmt).map(\.text)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("projects/demo/messages/0:1%ab"), "\(text)")
        #expect(text.contains("POST /v1/projects/demo/messages:send"))
        #expect(text.contains("HIGH") && text.contains("system tray"))
        #expect(text.contains("FCM (android)"))
    }
}
