import Foundation

/// How long ago something happened, in the fewest columns: `just now`, `3m`, `2h`, `Mon`, `Nov 3`, `Nov 2024`.
public enum RelativeTime {
    /// `date` described relative to `now`, weekdays and dates in `timeZone`.
    public static func describe(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(Int(seconds / 60))m" }
        if seconds < 86_400 { return "\(Int(seconds / 3600))h" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let nowYear = calendar.component(.year, from: now)
        if seconds < 6 * 86_400, let weekday = parts.weekday, (1...7).contains(weekday) {
            return weekdays[weekday - 1]
        }
        guard let year = parts.year, let month = parts.month, let day = parts.day, (1...12).contains(month) else {
            return ""
        }
        if year == nowYear { return "\(months[month - 1]) \(day)" }
        return "\(months[month - 1]) \(year)"
    }

    // English names on purpose: the rest of the screen is English, and the column must stay narrow.
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
