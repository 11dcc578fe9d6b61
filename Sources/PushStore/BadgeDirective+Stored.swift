import PushCore

extension BadgeDirective {
    /// The `badge_directive` column: `set N` (`aps.badge`), `add N` (`autoBadge` "+N"/"-N"),
    /// `auto N` (`autoBadge` "N").
    var storedText: String {
        switch self {
        case .set(let value): "set \(value)"
        case .autoAdd(let value): "add \(value)"
        case .autoSet(let value): "auto \(value)"
        }
    }

    /// The directive a `badge_directive` column holds; nil for text that is none.
    init?(storedText: String) {
        let parts = storedText.split(separator: " ")
        guard parts.count == 2, let value = Int(parts[1]) else { return nil }
        switch parts[0] {
        case "set": self = .set(value)
        case "add": self = .autoAdd(value)
        case "auto": self = .autoSet(value)
        default: return nil
        }
    }
}
