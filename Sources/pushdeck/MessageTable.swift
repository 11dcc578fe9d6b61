import Foundation
import PushCore
import PushTUI
import PushJSON

/// The table `pushdeck list` prints for a person: columns cut by display width (CJK and emoji
/// count two), payload text made inert so it cannot steer the terminal.
enum MessageTable {
    static func render(_ messages: [Message]) -> String {
        guard !messages.isEmpty else { return "no messages" }
        var lines = ["      ID  RECEIVED             APP                   CHANNEL  TEXT"]
        for message in messages {
            let unread = message.read ? " " : "●"
            let id = String(message.id)
            let time = RFC3339.string(from: message.receivedAt).prefix(19).replacingOccurrences(of: "T", with: " ")
            let app = message.app
            let channel = message.channel == .apns ? "APNs" : "pass"
            let text = [message.title, message.body].compactMap { $0 }.joined(separator: " — ")
            lines.append(
                "\(unread) " + String(repeating: " ", count: max(0, 6 - id.count)) + id + "  "
                    + column(time, 19) + "  " + column(app, 20) + "  " + column(channel, 7) + "  "
                    + Sanitize.inert(text).cut(toColumns: 100))
        }
        return lines.joined(separator: "\n")
    }

    private static func column(_ text: String, _ width: Int) -> String {
        Sanitize.inert(text).cut(toColumns: width).padded(toColumns: width)
    }
}
