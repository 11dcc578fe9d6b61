import Foundation
import PushCore

/// The table `pushdeck list` prints for a person.
enum MessageTable {
    static func render(_ messages: [JSON]) -> String {
        guard !messages.isEmpty else { return "no messages" }
        var lines = ["   ID  TIME                 APP                      CHANNEL  TEXT"]
        for case .object(let message) in messages {
            let id = message["id"]?.intValue ?? 0
            let unread = message["read"] == .bool(false) ? "●" : " "
            let time = (message["receivedAt"]?.stringValue ?? "").prefix(19).replacingOccurrences(of: "T", with: " ")
            let app = message["app"]?.stringValue ?? ""
            let channel = message["channel"]?.stringValue == "apns" ? "APNs" : "pass"
            let title = message["title"]?.stringValue
            let body = message["body"]?.stringValue
            let text = [title, body].compactMap { $0 }.joined(separator: " — ")
            lines.append(
                "\(unread)\(pad(String(id), 4, right: true))  \(pad(time, 19))  \(pad(app, 23))  \(pad(channel, 7))  \(inert(text))")
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let clean = inert(text)
        let cut = clean.count > width ? String(clean.prefix(width - 1)) + "…" : clean
        let padding = String(repeating: " ", count: max(0, width - cut.count))
        return right ? padding + cut : cut + padding
    }

    private static func inert(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) ? " " : Character($0) })
    }
}
