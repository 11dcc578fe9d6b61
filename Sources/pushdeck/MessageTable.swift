import Foundation
import PushCore
import PushTUI
import PushJSON

/// The table `pushdeck list` prints for a person: columns cut by display width (CJK and emoji
/// count two), payload text made inert so it cannot steer the terminal.
enum MessageTable {
    static func render(_ messages: [JSON]) -> String {
        guard !messages.isEmpty else { return "no messages" }
        var lines = ["      ID  RECEIVED             APP                   CHANNEL  TEXT"]
        for case .object(let message) in messages {
            let unread = message["read"] == .bool(false) ? "●" : " "
            let id = String(message["id"]?.intValue ?? 0)
            let time = (message["receivedAt"]?.stringValue ?? "").prefix(19).replacingOccurrences(of: "T", with: " ")
            let app = message["app"]?.stringValue ?? ""
            let channel = message["channel"]?.stringValue == "apns" ? "APNs" : "pass"
            let text = [message["title"]?.stringValue, message["body"]?.stringValue].compactMap { $0 }.joined(separator: " — ")
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
