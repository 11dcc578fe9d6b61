import PushCore

/// The top row (DESIGN §6, contract): `pushdeck`, `N unread`, `badge B` (and the server badge when
/// the ledgers differ), `PUSH [ON]`/`PUSH [OFF]`, the app state, and `N dropped` once any were.
public enum HeaderView {
    public static func render(into grid: inout Grid, area: Rect, inbox: Inbox) {
        guard !area.isEmpty else { return }
        let base = Style(.header)
        grid.fill(area.row(0), style: base)
        let warning = Style(.warning, bold: true)
        let badge = inbox.totalBadge
        let server = inbox.totalServerBadge
        let drifted = badge != server
        let dropped = inbox.dropped

        // Each part has a full and a short form; short forms are used when the full ones do not fit.
        var parts: [(full: String, short: String, style: Style)] = [
            ("pushdeck", "pushdeck", base.bolded),
            ("● \(inbox.totalUnread) unread", "\(inbox.totalUnread) unread", base),
            (drifted ? "badge \(badge) (server \(server))" : "badge \(badge)",
             drifted ? "badge \(badge) (server \(server))" : "badge \(badge)", drifted ? warning : base),
            (inbox.mode == .on ? "PUSH [ON]" : "PUSH [OFF]", inbox.mode == .on ? "PUSH [ON]" : "PUSH [OFF]",
             inbox.mode == .on ? base.bolded : warning),
            ("app: \(inbox.appState.rawValue)", inbox.appState.rawValue, base),
        ]
        if dropped > 0 {
            parts.append(("\(dropped) dropped while off", "\(dropped) dropped", warning))
        }
        let separator = "  "
        let fullWidth = parts.reduce(1) { $0 + $1.full.columns } + separator.count * (parts.count - 1)
        let useShort = fullWidth > area.width
        var x = area.x + 1
        for (index, part) in parts.enumerated() {
            if index > 0 { x += separator.count }
            guard x < area.maxX else { break }
            x += grid.put(useShort ? part.short : part.full, x: x, y: area.y, maxWidth: area.maxX - x, style: part.style)
        }
    }
}
