import PushTUI

/// A table for a person to read: a header row, then one row per item, each column as wide as
/// its widest cell in terminal columns (CJK and emoji count two, as `DisplayWidth` measures),
/// two spaces between columns. Cells are made inert: what the server says cannot steer the terminal.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let table = ([header] + rows).map { $0.map(Sanitize.inert) }
        var widths = header.map { _ in 0 }
        for row in table {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.columns)
            }
        }
        return table.map { row in
            var line = ""
            for (index, cell) in row.enumerated() where index < widths.count {
                if index > 0 { line += "  " }
                // The last column is not padded: no trailing spaces.
                line += index == widths.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.columns)
            }
            var end = line.endIndex
            while end > line.startIndex, line[line.index(before: end)] == " " { end = line.index(before: end) }
            return String(line[..<end])
        }.joined(separator: "\n")
    }
}

/// Finding the command a mistyped word meant.
enum Suggestion {
    /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
    /// swaps of neighbours each count 1), when it is at most 2 edits away and closer than
    /// rewriting the word whole; the first in `candidates`' order on a tie.
    static func closest(to word: String, in candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(word), Array(candidate))
            guard distance <= 2, distance < max(word.count, candidate.count) else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance between `a` and `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// "unknown command 'sned' — did you mean 'send'?" and the line that says where the commands are.
    static func unknownCommand(_ word: String) -> String {
        let guess = closest(to: word, in: CommandTable.commands.map(\.name)).map { " — did you mean '\($0)'?" } ?? ""
        return "unknown command '\(word)'\(guess)\nRun 'pushdeck help' for the commands."
    }
}
