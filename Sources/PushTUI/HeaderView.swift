import Foundation
import PushCore

/// The top row, whose words scripts and tests read: `pushdeck`, `N unread`, `badge B` (and the
/// server badge when the ledgers differ), `PUSH [ON]`/`PUSH [OFF]`, the app state, `N dropped` once
/// any were, `N held` while pass-through messages wait for the app, the offline devices, then
/// mutes, quiet hours and platform badge policies, and the newest Live Activity's compact line.
public enum HeaderView {
    /// `activities`: the Live Activities as the screen worked them out for `date` (their compact
    /// line); without them they are worked out from the inbox.
    public static func render(
        into grid: inout Grid, area: Rect, inbox: Inbox, date: Date? = nil, bus: String? = nil, activities: ShownActivities? = nil
    ) {
        guard !area.isEmpty else { return }
        let base = Style(.header)
        grid.fill(area.row(0), style: base)
        let parts = self.parts(of: inbox, base: base, width: area.width, date: date, bus: bus, activities: activities)
        var x = area.x + 1
        for (index, part) in parts.enumerated() {
            if index > 0 { x += separator.count }
            // A part is shown whole or not at all: a cut word reads as another word.
            guard x + part.text.columns <= area.maxX else { break }
            x += grid.put(part.text, x: x, y: area.y, maxWidth: area.maxX - x, style: part.style)
        }
    }

    static let separator = "  "

    /// One part of the header: its texts from the longest to the shortest, and its rank (0 is the
    /// most important; the highest rank gives way first).
    struct Part {
        var forms: [String]
        var style: Style
        var rank: Int

        func text(at level: Int) -> String { forms[min(level, forms.count - 1)] }
    }

    /// The header's parts that fit `width`, in the order they are shown. The rule: every part is
    /// first shortened step by step (level 0 to `shortest`); when even the shortest forms do not
    /// fit, whole parts give way from the least important up — never a part cut in the middle.
    /// What matters most stays: unread, badge, PUSH mode, app state, dropped, held, offline
    /// devices, then the name, mutes, quiet hours and platform badge policies.
    static func parts(
        of inbox: Inbox, base: Style, width: Int, date: Date? = nil, bus: String? = nil, activities: ShownActivities? = nil
    ) -> [(text: String, style: Style)] {
        var all = allParts(of: inbox, base: base, date: date, activities: activities)
        // With a team bus (`--mqtt`): its connection, after the inbox's own parts.
        if let bus {
            let connected = bus == "bus connected"
            all.append(Part(forms: [bus, connected ? "bus" : "bus off"], style: connected ? base : Style(.warning, bold: true), rank: 6))
        }
        func total(_ parts: [Part], _ level: Int) -> Int {
            parts.reduce(1) { $0 + $1.text(at: level).columns } + separator.count * max(0, parts.count - 1)
        }
        let shortest = all.map { $0.forms.count - 1 }.max() ?? 0
        var level = 0
        while level < shortest && total(all, level) > width { level += 1 }
        var kept = all
        while kept.count > 1 && total(kept, level) > width {
            guard let least = kept.indices.max(by: { kept[$0].rank < kept[$1].rank }) else { break }
            kept.remove(at: least)
        }
        return kept.map { ($0.text(at: level), $0.style) }
    }

    /// Every part the inbox calls for, in the order they are shown, with their ranks.
    static func allParts(of inbox: Inbox, base: Style, date: Date?, activities: ShownActivities? = nil) -> [Part] {
        let warning = Style(.warning, bold: true)
        let badge = inbox.totalBadge
        let server = inbox.totalServerBadge
        let on = inbox.mode == .on
        let unread = inbox.totalUnread
        var parts: [Part] = [
            Part(forms: ["pushdeck"], style: base.bolded, rank: 8),
            Part(forms: ["● \(unread) unread", "● \(unread) unread", "\(unread) unread"], style: base, rank: 0),
            Part(forms: [badge == server ? "badge \(badge)" : "badge \(badge) (server \(server))"],
                 style: badge == server ? base : warning, rank: 1),
            Part(forms: [on ? "PUSH [ON]" : "PUSH [OFF]"], style: on ? base.bolded : warning, rank: 2),
            Part(forms: ["app: \(inbox.appState.rawValue)", "app: \(inbox.appState.rawValue)", "app: \(inbox.appState.rawValue)",
                         inbox.appState.rawValue], style: base, rank: 3),
        ]
        if inbox.dropped > 0 {
            parts.append(Part(forms: ["\(inbox.dropped) dropped while off", "\(inbox.dropped) dropped"], style: warning, rank: 4))
        }
        // Held: pass-through messages kept until the app is next in the foreground (those kept
        // for an offline device are counted with it).
        let stored = inbox.storedOfflineCount
        let held = inbox.held.count - stored
        if held > 0 {
            parts.append(Part(forms: ["\(held) held"], style: warning, rank: 5))
        }
        // Offline devices: what the vendors store for them until `device online`.
        let offline = inbox.offlineDeviceCount
        if offline > 0 {
            let what = offline == 1 ? "device offline" : "\(offline) devices offline"
            parts.append(Part(forms: ["\(what), \(stored) stored", "\(what), \(stored) stored", what,
                                      offline == 1 ? "offline" : "\(offline) offline"], style: warning, rank: 6))
        }
        // Mutes and quiet hours: a mute that has ended is not shown.
        let muted = inbox.settings.muted.keys.filter { app in date.map { inbox.isMuted(app, at: $0) } ?? true }.sorted()
        if let first = muted.first {
            let count = "muted ×\(muted.count)"
            parts.append(Part(forms: muted.count == 1 ? ["muted: \(first)", "muted: \(first)", count] : [count], style: base, rank: 9))
        }
        if let quiet = inbox.settings.quiet {
            let now = date.map { inbox.isQuiet(at: $0) } ?? false
            let long = "quiet \(quiet)" + (now ? " (now)" : "")
            parts.append(Part(forms: [long, long, "quiet"], style: now ? warning : base, rank: 10))
        }
        let platform = inbox.settings.badgePolicies.filter { $0.value == .platform }.keys.sorted()
        if let first = platform.first {
            let count = "platform ×\(platform.count)"
            parts.append(Part(forms: platform.count == 1 ? ["platform: \(first)", "platform: \(first)", count] : [count], style: base, rank: 11))
        }
        // The newest Live Activity's compact line, as the Dynamic Island shows one (after the
        // offline devices, before the name in what gives way).
        if let date, let forms = activities.map({ $0.compact }) ?? ActivityCardView.compact(inbox.activities, at: date) {
            parts.append(Part(forms: forms, style: base.bolded, rank: 7))
        }
        return parts
    }
}
