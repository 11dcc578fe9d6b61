import Foundation
import PushCore

/// The top row (DESIGN §6, contract): `pushdeck`, `N unread`, `badge B` (and the server badge when
/// the ledgers differ), `PUSH [ON]`/`PUSH [OFF]`, the app state, and `N dropped` once any were.
public enum HeaderView {
    public static func render(into grid: inout Grid, area: Rect, inbox: Inbox, date: Date? = nil) {
        guard !area.isEmpty else { return }
        let base = Style(.header)
        grid.fill(area.row(0), style: base)
        let parts = self.parts(of: inbox, base: base, width: area.width, date: date)
        var x = area.x + 1
        for (index, part) in parts.enumerated() {
            if index > 0 { x += separator.count }
            guard x < area.maxX else { break }
            x += grid.put(part.text, x: x, y: area.y, maxWidth: area.maxX - x, style: part.style)
        }
    }

    static let separator = "  "

    /// The header's parts, shortened step by step until they fit `width`: first `while off` goes,
    /// then the unread dot, then the `app:` label; the contract words always stay.
    static func parts(of inbox: Inbox, base: Style, width: Int, date: Date? = nil) -> [(text: String, style: Style)] {
        let warning = Style(.warning, bold: true)
        let badge = inbox.totalBadge
        let server = inbox.totalServerBadge
        let on = inbox.mode == .on
        for level in 0...3 {
            var parts: [(text: String, style: Style)] = [
                ("pushdeck", base.bolded),
                (level >= 2 ? "\(inbox.totalUnread) unread" : "● \(inbox.totalUnread) unread", base),
                (badge == server ? "badge \(badge)" : "badge \(badge) (server \(server))", badge == server ? base : warning),
                (on ? "PUSH [ON]" : "PUSH [OFF]", on ? base.bolded : warning),
                (level >= 3 ? inbox.appState.rawValue : "app: \(inbox.appState.rawValue)", base),
            ]
            let platform = inbox.settings.badgePolicies.filter { $0.value == .platform }.keys.sorted()
            if let first = platform.first {
                parts.append((platform.count == 1 && level < 2 ? "platform: \(first)" : "platform ×\(platform.count)", base))
            }
            // Mute and quiet hours (issue 13): a mute that has ended is not shown.
            let muted = inbox.settings.muted.keys.filter { app in date.map { inbox.isMuted(app, at: $0) } ?? true }.sorted()
            if let first = muted.first {
                parts.append((muted.count == 1 && level < 2 ? "muted: \(first)" : "muted ×\(muted.count)", base))
            }
            if let quiet = inbox.settings.quiet {
                let now = date.map { inbox.isQuiet(at: $0) } ?? false
                parts.append((level < 2 ? "quiet \(quiet)" + (now ? " (now)" : "") : "quiet", now ? warning : base))
            }
            // Offline devices (issue 13): what the vendors store for them until `device online`.
            let offline = inbox.offlineDeviceCount
            if offline > 0 {
                let what = offline == 1 ? "device offline" : "\(offline) devices offline"
                let stored = inbox.storedOfflineCount
                parts.append((level < 2 ? "\(what), \(stored) stored" : "offline", warning))
            }
            if inbox.dropped > 0 {
                parts.append((level >= 1 ? "\(inbox.dropped) dropped" : "\(inbox.dropped) dropped while off", warning))
            }
            let total = parts.reduce(1) { $0 + $1.text.columns } + separator.count * (parts.count - 1)
            if total <= width || level == 3 { return parts }
        }
        return []
    }
}
