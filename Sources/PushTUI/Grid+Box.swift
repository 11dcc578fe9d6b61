// MARK: - Boxes

extension Grid {
    /// Draws a rounded border around `rect` (clipped), with an optional title in the top edge.
    public mutating func box(_ rect: Rect, title: String = "", style: Style = .plain) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let right = rect.maxX - 1
        let bottom = rect.maxY - 1
        fill(Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 1), with: "─", style: style)
        fill(Rect(x: rect.x + 1, y: bottom, width: rect.width - 2, height: 1), with: "─", style: style)
        fill(Rect(x: rect.x, y: rect.y + 1, width: 1, height: rect.height - 2), with: "│", style: style)
        fill(Rect(x: right, y: rect.y + 1, width: 1, height: rect.height - 2), with: "│", style: style)
        put("╭", x: rect.x, y: rect.y, style: style)
        put("╮", x: right, y: rect.y, style: style)
        put("╰", x: rect.x, y: bottom, style: style)
        put("╯", x: right, y: bottom, style: style)
        if !title.isEmpty, rect.width > 6 {
            put(" \(title) ", x: rect.x + 2, y: rect.y, maxWidth: rect.width - 4, style: style.bolded)
        }
    }
}
