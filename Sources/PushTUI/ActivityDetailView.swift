import Foundation
import PushCore
import PushJSON

/// A Live Activity opened from its card: every field the device keeps of it, then its history —
/// each push that reached it, newest first, with the time it came, its `event` and `timestamp`,
/// and whether the device applied it or discarded it and why (what a phone never shows).
public enum ActivityDetailView {
    public typealias Line = DetailView.Line

    static let labelWidth = 12

    public static func render(into grid: inout Grid, area: Rect, activity: Activity?, scroll: Int, date: Date, timeZone: TimeZone) {
        guard !area.isEmpty else { return }
        guard let activity else {
            grid.put("This Live Activity is gone (reset).  Esc goes back.", x: area.x + 1, y: area.y,
                     maxWidth: area.width - 1, style: Style(.dim, dim: true))
            return
        }
        let all = lines(activity, width: area.width, timeZone: timeZone, date: date)
        let first = min(max(0, scroll), max(0, all.count - area.height))
        for (row, line) in all.dropFirst(first).prefix(area.height).enumerated() {
            let x = area.x + 1 + line.indent
            grid.put(line.text, x: x, y: area.y + row, maxWidth: area.maxX - x, style: line.style)
        }
    }

    /// The lines at `width`. `date` (the wall clock) only changes the words of the state line,
    /// never how many lines there are, so the scroll can be held without it.
    public static func lines(_ activity: Activity, width: Int, timeZone: TimeZone, date: Date? = nil) -> [Line] {
        let room = max(1, width - 2)
        let valueRoom = max(1, room - labelWidth)
        let label = Style(.dim, dim: true)
        var title = "Live Activity \(Sanitize.inert(activity.id)) · \(Sanitize.inert(activity.app))"
        let attributes = ActivityCardView.attributesText(activity)
        if !attributes.isEmpty { title += " · " + attributes }
        var result: [Line] = title.wrapped(toColumns: room).map { Line($0, style: Style(.header, bold: true)) }
        result.append(Line(""))
        func field(_ name: String, _ value: String?, style: Style = .plain) {
            let text = value.map(Sanitize.inert) ?? "—"
            for (index, part) in (text.isEmpty ? [""] : text.wrapped(toColumns: valueRoom)).enumerated() {
                if index == 0 {
                    result.append(Line(name.padded(toColumns: labelWidth) + part, style: value == nil ? label : style))
                } else {
                    result.append(Line(part, style: style, indent: labelWidth))
                }
            }
        }
        func time(_ value: Date?) -> String? {
            value.map { ISO8601DateFormatter.string(from: $0, timeZone: timeZone, formatOptions: [.withInternetDateTime]) }
        }
        // What a tester looks for first: the state, the content, then every push and its fate;
        // the tokens and dates after.
        field("state", stateText(activity, at: date ?? activity.updatedAt))
        field("content", ActivityCardView.pairs(activity.contentState))

        result.append(Line(""))
        let discarded = activity.discarded
        var heading = "history  \(activity.history.count) push\(activity.history.count == 1 ? "" : "es"), \(discarded) discarded, newest first"
        if activity.earlier > 0 { heading += " (\(activity.earlier) older not kept)" }
        result.append(Line(heading, style: Style(.header, bold: true)))
        let warn = Style(.warning, bold: true)
        for update in activity.history.reversed() {
            var head = update.accepted ? "✓ " : "✗ "
            head += ISO8601DateFormatter.string(from: update.at, timeZone: timeZone, formatOptions: [.withTime, .withColonSeparatorInTime])
            head += "  \(update.event.map(Sanitize.inert) ?? "(no event)")"
            head += "  timestamp \(update.timestamp.map(String.init) ?? "—")"
            if let channel = update.channel { head += "  on channel \(Sanitize.inert(channel))" }
            head += update.accepted ? "  applied" : "  discarded"
            for part in head.wrapped(toColumns: room) { result.append(Line(part, style: update.accepted ? .plain : warn)) }
            var details: [String] = []
            if let why = update.why { details.append("why: " + Sanitize.inert(why)) }
            if let content = update.contentState { details.append(ActivityCardView.pairs(content)) }
            if let alert = update.alert { details.append("alert: " + Sanitize.inert(alert)) }
            for detail in details where !detail.isEmpty {
                for part in detail.wrapped(toColumns: max(1, room - 4)) { result.append(Line(part, indent: 4)) }
            }
        }

        result.append(Line(""))
        field("app", activity.app)
        field("attributes", ActivityCardView.attributesText(activity).isEmpty ? nil : ActivityCardView.attributesText(activity))
        field("push token", activity.pushToken)
        field("start token", activity.startToken)
        field("channel", activity.channel)
        field("started", time(activity.startedAt))
        field("updated", time(activity.updatedAt))
        field("timestamp", activity.timestamp.map(String.init))
        field("stale date", time(activity.staleDate))
        field("ended", time(activity.endedAt))
        field("dismissal", activity.dismissedByUser ? time(activity.dismissalDate).map { "\($0) (dismissed by the user)" } : time(activity.dismissalDate))
        field("relevance", activity.relevanceScore.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : "\($0)" })
        if let pending = activity.pending {
            field("pending", "a broadcast on \(pending.channel), kept since \(time(pending.at) ?? "") for the offline device")
        }
        return result
    }

    /// `active`, `stale`, `ended · leaves in 3h59m`, `dismissed`.
    static func stateText(_ activity: Activity, at date: Date) -> String {
        let state = activity.state(at: date)
        if state == .dismissed && activity.dismissedByUser { return "dismissed (by the user)" }
        return ActivityCardView.stateNote(activity, state: state, date: date) ?? state.rawValue
    }
}
