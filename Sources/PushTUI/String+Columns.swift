/// Measuring, cutting and wrapping text by terminal columns (see `DisplayWidth`).
extension String {
    /// The columns this text takes on a terminal.
    public var columns: Int { DisplayWidth.of(self) }

    /// The text cut to at most `width` columns, ending in `…` when something was cut.
    ///
    /// A wide character is never split: when only one column is left for it, the cut happens before it.
    public func cut(toColumns width: Int) -> String {
        guard width > 0 else { return "" }
        if columns <= width { return self }
        var result = ""
        var used = 0
        for character in self {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// The text padded with spaces (or cut) to exactly `width` columns.
    public func padded(toColumns width: Int) -> String {
        let cut = cut(toColumns: width)
        return cut + String(repeating: " ", count: max(0, width - cut.columns))
    }

    /// The text broken into lines of at most `width` columns: at spaces where a line has one,
    /// else between characters (CJK text has no spaces). Newlines in the text start a new line.
    public func wrapped(toColumns width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            // Where the line could break at a space: the index after the space and the columns up to it.
            var lastSpace: (index: String.Index, used: Int)?
            for character in paragraph {
                let w = DisplayWidth.of(character)
                if used + w > width {
                    if let space = lastSpace, space.index < line.endIndex {
                        let rest = String(line[space.index...])
                        lines.append(String(line[..<space.index]).trimmingTrailingSpaces())
                        line = rest
                        used -= space.used
                    } else {
                        lines.append(line.trimmingTrailingSpaces())
                        line = ""
                        used = 0
                    }
                    lastSpace = nil
                    if character == " " && line.isEmpty { continue }
                }
                line.append(character)
                used += w
                if character == " " { lastSpace = (line.endIndex, used) }
            }
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines
    }

    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
