import Foundation
import PushCore

/// The message list: newest first, unread marker, relative time, app, channel, `title — body`.
public enum ListView {
    public static func render(into grid: inout Grid, area: Rect, screen: Screen, date: Date) {
        guard !area.isEmpty else { return }
        if screen.total == 0 {
            renderEmpty(into: &grid, area: area, filter: screen.filter)
            return
        }
        let columns = Columns(width: area.width)
        var times = RelativeTime.Describer(now: date, timeZone: screen.timeZone)
        for (index, row) in screen.listRows.enumerated() {
            let y = area.y + index
            guard y < area.maxY else { break }
            let isSelected = screen.rowsOffset + index == screen.selected
            renderRow(row.message, into: &grid, x: area.x, y: y, columns: columns, selected: isSelected,
                      times: &times, lead: lead(of: row))
        }
    }

    /// The one-line summary: `title — body`, or whichever of them there is.
    public static func summary(of message: Message) -> String {
        summaryParts(of: message).joined()
    }

    /// The summary in the pieces it is made of, for `Grid.put(_:[String])` to write without
    /// joining them (every row of every frame).
    static func summaryParts(of message: Message) -> [String] {
        let title = message.title.map(Sanitize.inert) ?? ""
        let body = (message.body ?? message.subtitle).map(Sanitize.inert) ?? ""
        // A silent push is listed as one: nothing was shown to the user.
        var mark = message.expired ? ["[expired] "] : message.silent ? ["[silent] "] : []
        // On a watch-all screen (`ui --mqtt … --watch-all`): the instance that took the push.
        if let instance = message.apnsHeaders[RemotePush.instanceHeader] { mark.insert("[\(Sanitize.inert(instance))] ", at: 0) }
        if title.isEmpty { return mark + [body.isEmpty ? (message.silent ? "background fetch" : "(no text)") : body] }
        return mark + (body.isEmpty ? [title] : [title, " — ", body])
    }

    /// What goes before a row's text: a thread's count (`▸ 3` folded, `▾ 3` open), or the indent
    /// of a message shown under its thread's row.
    static func lead(of row: ListRow) -> [String] {
        switch row {
        case .message: []
        case .thread(_, let count, let expanded): [expanded ? "▾ " : "▸ ", String(count), " "]
        case .member: ["  "]
        }
    }

    /// Where each column starts at a given width.
    struct Columns {
        var time: Int
        var app: Int
        var appWidth: Int
        var channel: Int?
        var text: Int
        var width: Int

        init(width: Int) {
            self.width = width
            time = 3
            app = time + 10
            appWidth = min(24, max(6, width / 5))
            if width >= 50 {
                channel = app + appWidth + 2
                text = app + appWidth + 8
            } else {
                channel = nil
                text = app + appWidth + 2
            }
        }
    }

    private static func renderRow(_ message: Message, into grid: inout Grid, x: Int, y: Int, columns: Columns,
                                  selected: Bool, times: inout RelativeTime.Describer, lead: [String]) {
        let role: ColorRole = selected ? .selection : .normal
        let plain = Style(role)
        let dim = Style(selected ? .selection : .dim, dim: !selected)
        let right = x + columns.width
        grid.fill(Rect(x: x, y: y, width: columns.width, height: 1), style: plain)
        if !message.read {
            grid.put("●", x: x + 1, y: y, maxWidth: right - x - 1, style: Style(selected ? .selection : .unreadMarker, bold: true))
        }
        let time = times.describe(message.receivedAt)
        grid.put(time, x: x + columns.time, y: y, maxWidth: min(8, right - x - columns.time), style: dim)
        grid.put(Sanitize.inert(message.app), x: x + columns.app, y: y,
                 maxWidth: min(columns.appWidth, right - x - columns.app), style: plain)
        if let channel = columns.channel {
            grid.put(message.sourceName, x: x + channel, y: y, maxWidth: right - x - channel, style: dim)
        }
        let text = Style(role, bold: !message.read)
        grid.put(lead + summaryParts(of: message), x: x + columns.text, y: y, maxWidth: right - x - columns.text - 1, style: text)
    }

    private static func renderEmpty(into grid: inout Grid, area: Rect, filter: String) {
        let lines = filter.isEmpty
            ? ["No messages yet.", "Send one:  pushdeck send --title Hello --body World"]
            : ["No messages match “\(Sanitize.inert(filter))”.", "Esc clears the filter."]
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < area.maxY {
            let x = area.x + max(0, (area.width - line.columns) / 2)
            grid.put(line, x: x, y: top + index, maxWidth: area.maxX - x, style: Style(.dim, dim: true))
        }
    }
}
