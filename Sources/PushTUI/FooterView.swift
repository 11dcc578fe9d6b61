/// The bottom row: key hints, the filter prompt, or a status note; the list position on the right.
public enum FooterView {
    /// One key hint: its text from the longest to the shortest, and its rank (0 is the most
    /// important; the highest rank is shortened first and gives way first).
    public struct Hint: Sendable, Equatable {
        public var forms: [String]
        public var rank: Int
    }

    /// The list's key hints in the order shown. `t` names the list's mode: `t threads` while the
    /// list is grouped by thread, `t all` while it lists every message on its own.
    /// With Live Activity cards on screen, `[ ] cards` (which selects one) comes after `t`.
    public static func listHints(grouped: Bool, cards: Bool = false) -> [Hint] {
        var hints = [
            Hint(forms: ["↑↓ move"], rank: 5),
            Hint(forms: ["⏎ open"], rank: 2),
            Hint(forms: ["r read"], rank: 6),
            Hint(forms: ["a all read", "a all"], rank: 8),
            Hint(forms: ["c clear badge", "c clear"], rank: 7),
            Hint(forms: ["m push on/off", "m push"], rank: 3),
            Hint(forms: ["o open banner", "o banner"], rank: 9),
            Hint(forms: [grouped ? "t threads" : "t all"], rank: 4),
            Hint(forms: ["/ filter"], rank: 10),
            Hint(forms: ["? help"], rank: 0),
            Hint(forms: ["q quit"], rank: 1),
        ]
        if cards { hints.insert(Hint(forms: ["[ ] cards", "[ ]"], rank: 11), at: 8) }
        return hints
    }

    /// A selected Live Activity card's hints (the list's keys still move the list).
    public static let cardHints = [
        Hint(forms: ["[ ] card"], rank: 3),
        Hint(forms: ["⏎ open"], rank: 0),
        Hint(forms: ["x dismiss"], rank: 2),
        Hint(forms: ["esc list"], rank: 1),
        Hint(forms: ["? help"], rank: 4),
        Hint(forms: ["q quit"], rank: 5),
    ]

    /// An opened Live Activity's hints.
    public static let activityHints = [
        Hint(forms: ["↑↓ scroll"], rank: 3),
        Hint(forms: ["esc back"], rank: 0),
        Hint(forms: ["[ ] next card", "[ ] card"], rank: 4),
        Hint(forms: ["x dismiss"], rank: 2),
        Hint(forms: ["? help"], rank: 1),
        Hint(forms: ["q quit"], rank: 5),
    ]

    public static let detailHints = [
        Hint(forms: ["↑↓ scroll"], rank: 3),
        Hint(forms: ["esc back"], rank: 0),
        Hint(forms: ["r read"], rank: 4),
        Hint(forms: ["d delete"], rank: 5),
        Hint(forms: ["m push on/off", "m push"], rank: 6),
        Hint(forms: ["? help"], rank: 1),
        Hint(forms: ["q quit"], rank: 2),
    ]

    static let separator = "  "

    /// The hints as one line of at most `width` columns. The rule: the least important hint is
    /// shortened first, then the next; when every one is at its shortest, whole hints give way
    /// from the least important up (the most important one always stays, cut if it must be).
    public static func fitting(_ hints: [Hint], width: Int) -> String {
        // Each form is measured once; a line's columns are its hints' plus the separators' (a
        // hint never joins the text beside it into one character: they are apart by spaces).
        let formColumns = hints.map { $0.forms.map(\.columns) }
        let separatorColumns = separator.columns
        var forms = hints.map { _ in 0 }
        var kept = hints.map { _ in true }
        var keptCount = hints.count
        func lineColumns() -> Int {
            var total = max(0, keptCount - 1) * separatorColumns
            for index in hints.indices where kept[index] { total += formColumns[index][forms[index]] }
            return total
        }
        // Least important first.
        let byRank = hints.indices.sorted { hints[$0].rank > hints[$1].rank }
        for index in byRank where lineColumns() > width {
            forms[index] = hints[index].forms.count - 1
        }
        for index in byRank where lineColumns() > width && keptCount > 1 {
            kept[index] = false
            keptCount -= 1
        }
        return hints.indices.filter { kept[$0] }.map { hints[$0].forms[forms[$0]] }.joined(separator: separator)
    }

    public static func render(into grid: inout Grid, area: Rect, screen: Screen) {
        guard !area.isEmpty else { return }
        let dim = Style(.dim, dim: true)
        grid.fill(area.row(0), style: .plain)
        var right = ""
        if case .list = screen.view, screen.total > 0 || screen.searching {
            right = "\(screen.total > 0 ? screen.selected + 1 : 0)/\(screen.total)"
                + (screen.searching ? "+ searching…" : "")
        }
        if let gateway = screen.gatewayAddress {
            right = "gateway \(gateway)" + (right.isEmpty ? "" : "  " + right)
        }
        let rightRoom = right.isEmpty ? 0 : right.columns + 2
        let room = area.width - 1 - rightRoom
        if rightRoom > 0, area.width > rightRoom + 10 {
            grid.put(right, x: area.maxX - right.columns - 1, y: area.y, style: dim)
        }
        let hintRoom = area.width > rightRoom + 10 ? room : area.width - 1
        let left: String
        let style: Style
        if screen.filterOpen {
            left = "/" + Sanitize.inert(screen.filter) + "▏  ⏎ keep  esc clear"
            style = Style(.normal, bold: true)
        } else if let status = screen.status {
            left = Sanitize.inert(status)
            style = Style(.warning)
        } else {
            if case .detail = screen.view {
                left = fitting(detailHints, width: hintRoom)
            } else if case .activity = screen.view {
                left = fitting(activityHints, width: hintRoom)
            } else if screen.selectedCard != nil {
                left = fitting(cardHints, width: hintRoom)
            } else if screen.filter.isEmpty {
                left = fitting(listHints(grouped: screen.grouped, cards: !screen.cardIds.isEmpty), width: hintRoom)
            } else {
                let lead = "filter “\(Sanitize.inert(screen.filter))”  esc clears  "
                left = lead + fitting(listHints(grouped: screen.grouped, cards: !screen.cardIds.isEmpty), width: hintRoom - lead.columns)
            }
            style = dim
        }
        grid.put(left, x: area.x + 1, y: area.y, maxWidth: max(0, hintRoom), style: style)
    }
}
