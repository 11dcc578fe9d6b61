/// The help overlay: the key table in a box over the middle of the screen.
public enum HelpView {
    /// The keys and what they do (the README's key table says the same); `t`'s line says which
    /// mode the list is in.
    public static func keys(grouped: Bool) -> [(keys: String, action: String)] { [
        ("↑ ↓  j k", "move"),
        ("PgUp PgDn", "page up / down"),
        ("Home End", "first / last"),
        ("⏎", "open (marks it read) · open / fold a thread"),
        ("t", grouped ? "list: by thread (now) · t: every message" : "list: every message (now) · t: by thread"),
        ("Esc", "back · dismiss the banner"),
        ("r", "mark the selected message read"),
        ("a", "mark all read"),
        ("c", "clear the badge"),
        ("m", "push on / off"),
        ("f", "app state: foreground → background → terminated"),
        ("d", "delete the selected message"),
        ("o", "open the banner's message"),
        ("[ ]", "select a Live Activity card · ⏎ opens it"),
        ("x", "dismiss the selected Live Activity"),
        ("Tab", "focus the banner: its timer pauses"),
        ("/", "filter (Esc clears)"),
        ("?", "this help"),
        ("q", "quit"),
        ("mouse", "click selects, again opens · wheel scrolls"),
    ] }

    public static func render(into grid: inout Grid, area: Rect, grouped: Bool = true) {
        let keys = keys(grouped: grouped)
        let keyWidth = 12
        let widest = keys.map { keyWidth + $0.action.columns }.max() ?? 0
        let width = min(area.width, widest + 4)
        let height = min(area.height, keys.count + 2)
        guard width >= 4, height >= 2 else { return }
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                       width: width, height: height)
        grid.fill(box, style: .plain)
        grid.box(box, title: "keys", style: Style(.header))
        for (index, entry) in keys.prefix(height - 2).enumerated() {
            let y = box.y + 1 + index
            grid.put(entry.keys, x: box.x + 2, y: y, maxWidth: min(keyWidth, width - 3), style: Style(.normal, bold: true))
            if width - 3 > keyWidth {
                grid.put(entry.action, x: box.x + 2 + keyWidth, y: y, maxWidth: width - 3 - keyWidth)
            }
        }
    }
}
