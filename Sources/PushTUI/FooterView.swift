/// The bottom row: key hints, the filter prompt, or a status note; the list position on the right.
public enum FooterView {
    /// Key hints of the list, longest first: the longest that fits is shown.
    public static let listHints = [
        "↑↓ move  ⏎ open  r read  a all read  c clear badge  m push on/off  o open banner  t threads  / filter  ? help  q quit",
        "↑↓ move  ⏎ open  r read  a all read  c clear badge  m push on/off  o open banner  / filter  ? help  q quit",
        "↑↓ move  ⏎ open  r read  a all  c clear  m push  o banner  t threads  ? help  q quit",
        "↑↓ move  ⏎ open  r read  a all  c clear  m push  t threads  ? help  q quit",
        "↑↓ move  ⏎ open  r read  a all  c clear  m push  o banner  ? help  q quit",
        "⏎ open  m push  ? help  q quit",
        "? help  q quit",
    ]
    public static let detailHints = [
        "↑↓ scroll  esc back  r read  d delete  m push on/off  ? help  q quit",
        "esc back  ? help  q quit",
    ]

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
        func fitting(_ hints: [String]) -> String {
            hints.first { $0.columns <= hintRoom } ?? hints[hints.count - 1]
        }
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
                left = fitting(detailHints)
            } else if screen.filter.isEmpty {
                left = fitting(listHints)
            } else {
                left = "filter “\(Sanitize.inert(screen.filter))”  esc clears  " + fitting(listHints)
            }
            style = dim
        }
        grid.put(left, x: area.x + 1, y: area.y, maxWidth: max(0, hintRoom), style: style)
    }
}
