import Foundation
import PushCore
import PushJSON

/// The detail view: every field of one message, the callback an iOS app would get for it, and
/// the pretty-printed raw payload, scrolled by lines.
public enum DetailView {
    /// One line of the detail view.
    public struct Line: Sendable, Equatable {
        public var text: String
        public var style: Style
        /// Columns of indent (continuation lines of a wrapped value).
        public var indent: Int

        public init(_ text: String, style: Style = .plain, indent: Int = 0) {
            self.text = text
            self.style = style
            self.indent = indent
        }
    }

    static let labelWidth = 11

    public static func render(into grid: inout Grid, area: Rect, message: Message?, callback: String,
                              scroll: Int, date: Date, timeZone: TimeZone, badgeNote: String = "") {
        guard !area.isEmpty else { return }
        guard let message else {
            grid.put("This message is gone (deleted).  Esc goes back.", x: area.x + 1, y: area.y,
                     maxWidth: area.width - 1, style: Style(.dim, dim: true))
            return
        }
        let all = lines(for: message, callback: callback, width: area.width, date: date, timeZone: timeZone, badgeNote: badgeNote)
        let first = min(max(0, scroll), max(0, all.count - area.height))
        for (row, line) in all.dropFirst(first).prefix(area.height).enumerated() {
            let x = area.x + 1 + line.indent
            grid.put(line.text, x: x, y: area.y + row, maxWidth: area.maxX - x, style: line.style)
        }
    }

    /// How many lines the detail of `message` has at `width` (for clamping the scroll).
    public static func lineCount(_ message: Message?, width: Int) -> Int {
        guard let message else { return 1 }
        return lines(for: message, callback: "", width: width, date: message.receivedAt, timeZone: .current).count
    }

    /// The detail's lines at `width`. The callback takes one line (cut), so the count does not depend on it.
    public static func lines(for message: Message, callback: String, width: Int, date: Date,
                             timeZone: TimeZone, badgeNote: String = "") -> [Line] {
        let room = max(1, width - 2)
        let valueRoom = max(1, room - labelWidth)
        let label = Style(.dim, dim: true)
        var result: [Line] = [
            Line("Message #\(message.id)", style: Style(.header, bold: true)),
            Line(""),
        ]
        func field(_ name: String, _ value: String?) {
            let text = value.map(Sanitize.inert) ?? "—"
            let wrapped = text.isEmpty ? [""] : text.wrapped(toColumns: valueRoom)
            for (index, part) in wrapped.enumerated() {
                if index == 0 {
                    result.append(Line(name.padded(toColumns: labelWidth) + part, style: value == nil ? label : .plain))
                } else {
                    result.append(Line(part, indent: labelWidth))
                }
            }
        }
        let received = ISO8601DateFormatter.string(from: message.receivedAt, timeZone: timeZone,
                                                  formatOptions: [.withInternetDateTime])
        field("id", String(message.id))
        field("app", message.app)
        field("channel", "\(message.channel.shortName) (\(message.channel.rawValue))")
        field("title", message.title)
        field("subtitle", message.subtitle)
        field("body", message.body)
        field("url", message.url)
        field("read", message.read ? "yes" : "no")
        field("offline", message.offline ? "yes (from the offline queue)" : "no")
        field("launch", message.launch ? "yes (the app was launched with it)" : "no")
        field("received", "\(received) (\(RelativeTime.describe(message.receivedAt, now: date, timeZone: timeZone)))")
        field("taskId", message.taskId)
        field("msgId", message.msgId)
        result.append(Line("callback".padded(toColumns: labelWidth)
            + Sanitize.inert(callback.isEmpty ? "—" : callback).cut(toColumns: valueRoom)))
        // The app's badge policy and, when the ledgers drift, the SDK call that would fix it.
        result.append(Line("badge".padded(toColumns: labelWidth)
            + Sanitize.inert(badgeNote.isEmpty ? "—" : badgeNote).cut(toColumns: valueRoom)))
        if message.via != .socket {
            field("via", message.via.rawValue)
            field("token", message.token)
        }
        if let fcm = message.fcm {
            // What FCM recorded of the send, and the Android options the device acted on.
            field("project", fcm.project)
            field("message", fcm.messageName.isEmpty ? nil : fcm.messageName)
            field("platform", fcm.platform.rawValue)
            field("priority", fcm.priority.map { $0.rawValue })
            field("collapse key", fcm.collapseKey)
            field("ttl", fcm.ttlSeconds.map { "\(FCMFacts.secondsText($0))s" })
            field("tag", fcm.tag)
            field("count", fcm.notificationCount.map(String.init))
        }
        if message.via == .fcm, let fcm = message.fcm, !fcm.project.isEmpty {
            result.append(Line(""))
            result.append(Line("request", style: Style(.header, bold: true)))
            let lines = ["POST /v1/projects/\(fcm.project)/messages:send"]
                + message.apnsHeaders.sorted(by: { $0.key < $1.key }).map { "\($0.key): \($0.value)" }
            for line in lines {
                for part in Sanitize.inert(line).wrapped(toColumns: max(1, room - 2)) { result.append(Line(part, indent: 2)) }
            }
        }
        if message.via == .apns || message.via == .jpush || message.via == .getui {
            // What the backend sent: the request line and its apns-* headers (JPush, Getui: the
            // request's ids and options), as they came.
            result.append(Line(""))
            result.append(Line("request", style: Style(.header, bold: true)))
            let requestLine = message.via == .apns
                ? "POST /3/device/\(message.token ?? "")" : "POST \(message.apnsHeaders["path"] ?? "")"
            for part in Sanitize.inert(requestLine).wrapped(toColumns: max(1, room - 2)) {
                result.append(Line(part, indent: 2))
            }
            for (name, value) in message.apnsHeaders.sorted(by: { $0.key < $1.key }) where name != "path" {
                for part in Sanitize.inert("\(name): \(value)").wrapped(toColumns: max(1, room - 2)) {
                    result.append(Line(part, indent: 2))
                }
            }
        }
        result.append(Line(""))
        result.append(Line("payload", style: Style(.header, bold: true)))
        for line in prettyPayload(message.payload).split(separator: "\n", omittingEmptySubsequences: false) {
            for part in String(line).wrapped(toColumns: max(1, room - 2)) {
                result.append(Line(part, indent: 2))
            }
        }
        return result
    }

    /// The payload indented for reading, or as received when it is not JSON; made inert either way.
    public static func prettyPayload(_ payload: String) -> String {
        let pretty = (try? JSON.parse(payload))?.prettyText ?? ""
        return Sanitize.inertLines(pretty.isEmpty ? payload : pretty)
    }
}
