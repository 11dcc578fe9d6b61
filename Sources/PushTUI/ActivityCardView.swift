import Foundation
import PushCore
import PushJSON

/// The Live Activities under the header, one card each, as the Lock Screen shows them: the app
/// and its attributes on the top edge with how long ago it was updated, the content-state as
/// `key: value`, and on the bottom edge `stale` or `ended · leaves in 3h59m`.
///
/// ActivityKit orders a device's activities by `relevance-score` (the highest first; none is 0),
/// and a dismissed activity is gone from the screen. The newest (the one last updated) is also
/// the header's compact line, as the Dynamic Island shows one.
public enum ActivityCardView {
    /// Rows one card takes (its border and one line of content-state).
    public static let cardHeight = 3
    /// At most this many cards, and at most half the body: the list keeps the rest.
    public static let maxCards = 3

    /// The activities a screen shows at `date`: not dismissed, the highest relevance first, then
    /// the one updated last, then the one started first.
    public static func shown(_ book: ActivityBook, at date: Date) -> [Activity] {
        // Each one's number is read off its id once, not in every comparison.
        book.byId.values.filter { $0.state(at: date) != .dismissed }.map { (number: $0.number, activity: $0) }.sorted { a, b in
            let (ra, rb) = (a.activity.relevanceScore ?? 0, b.activity.relevanceScore ?? 0)
            if ra != rb { return ra > rb }
            if a.activity.updatedAt != b.activity.updatedAt { return a.activity.updatedAt > b.activity.updatedAt }
            if a.number != b.number { return a.number < b.number }
            return a.activity.id < b.activity.id
        }.map(\.activity)
    }

    /// How many rows the cards take in a body `bodyHeight` rows high, for `count` activities.
    public static func rows(count: Int, bodyHeight: Int) -> Int {
        min(count, maxCards, (bodyHeight / 2) / cardHeight) * cardHeight
    }

    /// Draws the cards of `activities` (in order) into `area`, as many as fit.
    /// The `selected` card (an activity id) is drawn bold in the selection colour, with its keys
    /// on its bottom edge.
    public static func render(into grid: inout Grid, area: Rect, activities: [Activity], date: Date, selected: String? = nil) {
        guard area.width >= 8 else { return }
        for (index, activity) in activities.enumerated() {
            let y = area.y + index * cardHeight
            guard y + cardHeight <= area.maxY else { break }
            card(into: &grid, rect: Rect(x: area.x, y: y, width: area.width, height: cardHeight), activity: activity, date: date,
                 selected: activity.id == selected)
        }
    }

    /// The keys a selected card shows on its bottom edge.
    static let selectedHint = " ⏎ open  x dismiss  esc list "

    static func card(into grid: inout Grid, rect: Rect, activity: Activity, date: Date, selected: Bool = false) {
        let state = activity.state(at: date)
        let edge = selected ? Style(.selection, bold: true) : Style(state == .active ? .normal : .dim)
        grid.box(rect, style: edge)
        let inner = rect.width - 4
        // Top edge: the app and attributes on the left, "updated 3s ago" on the right.
        let updated = " updated \(ago(activity.updatedAt, now: date)) "
        let titleRoom = max(0, inner - updated.columns - 1)
        var title = Sanitize.inert(activity.app)
        let attributes = attributesText(activity)
        if !attributes.isEmpty { title += " · " + attributes }
        _ = grid.put(" \(title) ", x: rect.x + 2, y: rect.y, maxWidth: titleRoom, style: edge.bolded)
        if updated.columns <= inner { _ = grid.put(updated, x: rect.maxX - 2 - updated.columns, y: rect.y, style: edge) }
        // The content-state, one line.
        _ = grid.put(pairs(activity.contentState), x: rect.x + 2, y: rect.y + 1, maxWidth: inner, style: .plain)
        // Bottom edge: the state when it is not plainly active; a selected card's keys on the left.
        var noteRoom = inner
        if selected, selectedHint.columns <= inner {
            _ = grid.put(selectedHint, x: rect.x + 2, y: rect.maxY - 1, style: edge)
            noteRoom = inner - selectedHint.columns - 1
        }
        if let note = stateNote(activity, state: state, date: date) {
            let text = " \(note) "
            let warn = Style(.warning, bold: true)
            if text.columns <= noteRoom { _ = grid.put(text, x: rect.maxX - 2 - text.columns, y: rect.maxY - 1, style: warn) }
        }
    }

    /// The header's compact line for the newest activity: `◖ app · key: value ◗`, longest first.
    public static func compact(_ book: ActivityBook, at date: Date) -> [String]? {
        compact(shown: shown(book, at: date), at: date)
    }

    /// The compact line of the activities `shown` gives at `date`.
    static func compact(shown: [Activity], at date: Date) -> [String]? {
        guard let newest = shown.max(by: { ($0.updatedAt, -$0.number) < ($1.updatedAt, -$1.number) }) else { return nil }
        let app = Sanitize.inert(newest.app)
        let state = pairs(newest.contentState)
        let more = shown.count > 1 ? " +\(shown.count - 1)" : ""
        let note = newest.state(at: date) == .active ? "" : " (\(newest.state(at: date).rawValue))"
        let long = state.isEmpty ? "◖ \(app)\(note) ◗\(more)" : "◖ \(app) · \(state)\(note) ◗\(more)"
        let first = pairs(newest.contentState, limit: 1)
        return [long, state.isEmpty ? "◖ \(app) ◗\(more)" : "◖ \(state) ◗\(more)",
                first.isEmpty || first.columns > 16 ? "◖ live ◗\(more)" : "◖ \(first) ◗\(more)"]
    }

    /// `stale`, `ended · leaves in 3h59m`, or nil while active.
    static func stateNote(_ activity: Activity, state: ActivityState, date: Date) -> String? {
        switch state {
        case .active, .dismissed: nil
        case .stale: "stale"
        case .ended: "ended · leaves in \(span(activity.dismissedAt.timeIntervalSince(date)))"
        }
    }

    /// The attributes as `key: value` (the type's name when it has none).
    static func attributesText(_ activity: Activity) -> String {
        let text = activity.attributes.map { pairs($0) } ?? ""
        return text.isEmpty ? Sanitize.inert(activity.attributesType ?? "") : text
    }

    /// An object's members as `key: value` in the order sent, two spaces apart; a string's value
    /// unquoted, any other value as compact JSON, all made inert.
    static func pairs(_ json: JSON, limit: Int = .max) -> String {
        guard case .object(let object) = json else { return Sanitize.inert(json.compactText) }
        return object.keys.prefix(limit).compactMap { key in
            object[key].map { value in "\(Sanitize.inert(key)): \(Sanitize.inert(value.stringValue ?? value.compactText))" }
        }.joined(separator: "  ")
    }

    /// `3s ago`, `5m ago`, `2h ago`.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        if seconds < 60 { return "\(seconds)s ago" }
        if seconds < 3600 { return "\(seconds / 60)m ago" }
        return "\(seconds / 3600)h ago"
    }

    /// `3h59m`, `12m`, `40s` (whole minutes past one, as a countdown shows them).
    static func span(_ interval: TimeInterval) -> String {
        let seconds = max(0, Int(interval.rounded(.up)))
        if seconds < 60 { return "\(seconds)s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes)m" }
        return "\(minutes / 60)h\(minutes % 60)m"
    }
}
