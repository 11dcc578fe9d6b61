import Foundation

/// How long ago something happened, in the fewest columns: `just now`, `3m`, `2h`, `Mon`, `Nov 3`, `Nov 2024`.
public enum RelativeTime {
    /// `date` described relative to `now`, weekdays and dates in `timeZone`.
    public static func describe(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        var describer = Describer(now: now, timeZone: timeZone)
        return describer.describe(date)
    }

    /// Describes many dates against one `now`, as a frame's rows are: its calendar is made once,
    /// and a date on the local day of the last one it named by its day gets the same name
    /// without asking the calendar again (a page of old messages is mostly a few days).
    public struct Describer {
        public let now: Date
        private let calendar: Calendar
        private lazy var nowYear = calendar.component(.year, from: now)
        /// The local day last named, whether it was named by its weekday, and the name.
        private var lastDay: (start: Date, end: Date, weekday: Bool, label: String)?

        public init(now: Date, timeZone: TimeZone) {
            self.now = now
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            self.calendar = calendar
        }

        public mutating func describe(_ date: Date) -> String {
            let seconds = now.timeIntervalSince(date)
            if seconds < 60 { return "just now" }
            if seconds < 3600 { return "\(Int(seconds / 60))m" }
            if seconds < 86_400 { return "\(Int(seconds / 3600))h" }
            // Within the last six days a day is named by its weekday, before them by its date.
            let weekday = seconds < 6 * 86_400
            if let lastDay, lastDay.weekday == weekday, lastDay.start <= date, date < lastDay.end {
                return lastDay.label
            }
            let label = dayLabel(date, weekday: weekday)
            if let day = calendar.dateInterval(of: .day, for: date) {
                lastDay = (day.start, day.end, weekday, label)
            }
            return label
        }

        private mutating func dayLabel(_ date: Date, weekday: Bool) -> String {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            if weekday, let weekday = parts.weekday, (1...7).contains(weekday) {
                return weekdays[weekday - 1]
            }
            guard let year = parts.year, let month = parts.month, let day = parts.day, (1...12).contains(month) else {
                return ""
            }
            if year == nowYear { return "\(months[month - 1]) \(day)" }
            return "\(months[month - 1]) \(year)"
        }
    }

    // English names on purpose: the rest of the screen is English, and the column must stay narrow.
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
