import Foundation
import PushCore
import PushJSON

/// The detail view: every field of one message, the callback an iOS app would get for it, the
/// provider requests that brought it (with the backend's faulted and refused attempts at it),
/// and the pretty-printed raw payload, scrolled by lines.
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
                              scroll: Int, date: Date, timeZone: TimeZone, badgeNote: String = "",
                              requests: [ProviderRequestRecord] = []) {
        guard !area.isEmpty else { return }
        guard let message else {
            grid.put("This message is gone (deleted).  Esc goes back.", x: area.x + 1, y: area.y,
                     maxWidth: area.width - 1, style: Style(.dim, dim: true))
            return
        }
        let all = lines(for: message, callback: callback, width: area.width, date: date, timeZone: timeZone, badgeNote: badgeNote,
                        requests: requests)
        let first = min(max(0, scroll), max(0, all.count - area.height))
        for (row, line) in all.dropFirst(first).prefix(area.height).enumerated() {
            let x = area.x + 1 + line.indent
            grid.put(line.text, x: x, y: area.y + row, maxWidth: area.maxX - x, style: line.style)
        }
    }

    /// How many lines the detail of `message` has at `width` (for clamping the scroll).
    public static func lineCount(_ message: Message?, width: Int, requests: [ProviderRequestRecord] = []) -> Int {
        guard let message else { return 1 }
        return lines(for: message, callback: "", width: width, date: message.receivedAt, timeZone: .current, requests: requests).count
    }

    /// The detail's lines at `width`. The callback takes one line (cut), so the count does not depend on it.
    public static func lines(for message: Message, callback: String, width: Int, date: Date,
                             timeZone: TimeZone, badgeNote: String = "", requests: [ProviderRequestRecord] = []) -> [Line] {
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
        if !requests.isEmpty {
            result.append(Line(""))
            result.append(Line("provider requests (\(requests.count))", style: Style(.header, bold: true)))
            var previous: Date?
            for record in requests {
                let line = requestLine(record, carrier: record.carried(message), after: previous, timeZone: timeZone)
                // One line each (cut), so the count does not depend on the text.
                let style = record.fault != nil || !(200..<300).contains(record.status) ? Style(.warning) : Style.plain
                result.append(Line(Sanitize.inert(line).cut(toColumns: max(1, room - 2)), style: style, indent: 2))
                previous = record.receivedAt
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

    /// One provider request of the message: when it arrived (the local time, milliseconds), how
    /// long after the one before, its status and reason (none: a fault closed the connection or
    /// GOAWAY left the stream out), the fault that answered it, `retry-after`, the latency.
    static func requestLine(_ record: ProviderRequestRecord, carrier: Bool, after previous: Date?, timeZone: TimeZone) -> String {
        let local = record.receivedAt.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: record.receivedAt))
        let milliseconds = Int64((local * 1000).rounded(.down))
        let day = ((milliseconds % 86_400_000) + 86_400_000) % 86_400_000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        let thousandths = String(day % 1000)
        var time = "\(two(day / 3_600_000)):\(two(day / 60_000 % 60)):\(two(day / 1000 % 60))."
        time += String(repeating: "0", count: 3 - thousandths.count) + thousandths
        let wait = previous.map { "+" + seconds(record.receivedAt.timeIntervalSince($0)) } ?? ""
        let status = record.status == 0 ? "—" : String(record.status)
        let reason: String
        if record.status == 0 {
            reason = "no answer"
        } else if let text = record.reason {
            reason = text
        } else {
            reason = carrier ? "OK, this message" : "OK"
        }
        var parts = [time, wait.padded(toColumns: 8), status.padded(toColumns: 3), reason.padded(toColumns: 22)]
        if let fault = record.fault { parts.append("fault \(fault)") }
        if let retryAfter = record.retryAfter { parts.append("retry-after \(retryAfter)s") }
        parts.append("\(seconds(record.latencyMs / 1000, milliseconds: true))")
        return parts.joined(separator: "  ")
    }

    /// `1.25s`, or `12.3 ms` below a second when `milliseconds`.
    static func seconds(_ value: Double, milliseconds: Bool = false) -> String {
        let value = max(0, value)
        if milliseconds && value < 1 {
            let tenths = Int((value * 10_000).rounded())
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)s"
    }

    /// The payload indented for reading, or as received when it is not JSON; made inert either way.
    public static func prettyPayload(_ payload: String) -> String {
        let pretty = (try? JSON.parse(payload))?.prettyText ?? ""
        return Sanitize.inertLines(pretty.isEmpty ? payload : pretty)
    }
}
