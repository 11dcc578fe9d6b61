import Foundation
import PushCore

/// The banner, as the STPushView banner of the Getui sample app shows it: a box over the top rows,
/// header included, that slides down from above the screen — its bottom rows appear first — and
/// slides back up.
///
/// ```
/// ╭─ ■ com.example.shop · 官方客服 ──────── just now  +2 ─╮
/// │ 您有一條新消息：訂單 1270339 已發貨，點擊查看物流      │
/// │ （第二行）                                             │
/// ╰──────────────────────────━━━─────────────────────────╯
/// ```
/// The title sits in the top edge so a two-line body makes four rows: with the timeline's four
/// slide steps the banner moves exactly a row per frame.
public enum BannerView {
    /// Rows of the whole banner: the top edge with the title, one or two body lines, the bottom edge.
    public static func height(of banner: Banner, width: Int) -> Int {
        2 + min(2, max(1, bodyLines(of: banner.message, width: width).count))
    }

    /// The screen cells the banner covers in `phase` (empty when it is gone).
    public static func visibleArea(banner: Banner?, phase: BannerPhase, width: Int, height screenHeight: Int) -> Rect {
        guard let banner else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let rows = min(screenHeight, phase.visibleRows(of: height(of: banner, width: width)))
        return Rect(x: 0, y: 0, width: width, height: rows)
    }

    /// Draws the part of the banner `phase` shows over the top of `area`.
    public static func render(into grid: inout Grid, area: Rect, banner: Banner, phase: BannerPhase, date: Date,
                              timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) {
        guard !area.isEmpty else { return }
        let full = height(of: banner, width: area.width)
        let rows = min(area.height, phase.visibleRows(of: full))
        guard rows > 0 else { return }
        var whole = Grid(width: area.width, height: full)
        drawWhole(into: &whole, banner: banner, date: date, timeZone: timeZone)
        // Sliding: the banner's top is above the screen, so its last `rows` rows show.
        var slice = Grid(width: area.width, height: rows)
        slice.blit(whole, rows: (full - rows)..<full, toY: 0)
        for y in 0..<rows {
            for x in 0..<area.width {
                grid.copyCell(from: slice, x: x, y: y, toX: area.x + x, toY: area.y + y)
            }
        }
    }

    private static func drawWhole(into grid: inout Grid, banner: Banner, date: Date, timeZone: TimeZone) {
        let style = Style(.bannerBackground)
        let width = grid.width
        grid.fill(grid.bounds, style: style)
        grid.box(grid.bounds, style: style)
        if width >= 9 {
            // The grab handle of STPushView's toolbar, centred on the bottom edge.
            grid.put("━━━", x: (width - 3) / 2, y: grid.height - 1, style: style)
        }
        let inner = width - 4
        guard inner > 0 else { return }
        let message = banner.message
        var right = RelativeTime.describe(message.receivedAt, now: date, timeZone: timeZone)
        if banner.count > 1 { right += "  +\(banner.count - 1)" }
        // Paused (pointer over it, or focused with Tab): it stays until let go.
        if !banner.pauses.isEmpty { right = (banner.pauses.contains(.focus) ? "focused · paused  " : "paused  ") + right }
        right = " \(right) "
        let title = Sanitize.inert(message.title ?? message.subtitle ?? "")
        let left = " ■ " + Sanitize.inert(message.app) + (title.isEmpty ? "" : " · " + title) + " "
        let rightWidth = right.columns
        // The time stays whole; the title gives way, keeping at least a few columns of its own.
        if rightWidth + 8 <= inner {
            grid.put(right, x: width - 2 - rightWidth, y: 0, style: style)
            grid.put(left, x: 2, y: 0, maxWidth: inner - rightWidth - 1, style: style.bolded)
        } else {
            grid.put(left, x: 2, y: 0, maxWidth: inner, style: style.bolded)
        }
        for (index, line) in bodyLines(of: message, width: width).prefix(2).enumerated() {
            grid.put(line, x: 2, y: 1 + index, maxWidth: inner, style: style)
        }
    }

    /// The body wrapped to the banner's inner width, at most two lines, the second cut with `…`.
    static func bodyLines(of message: Message, width: Int) -> [String] {
        let inner = width - 4
        guard inner > 0 else { return [] }
        let text = Sanitize.inert(message.body ?? (message.title == nil ? "" : message.subtitle ?? ""))
        let lines = text.wrapped(toColumns: inner)
        guard lines.count > 2 else { return lines }
        return [lines[0], (lines[1] + " " + lines[2...].joined(separator: " ")).cut(toColumns: inner)]
    }
}
