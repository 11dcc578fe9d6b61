import Foundation

/// Scheduled do-not-disturb (`pushdeck quiet 22:00-07:00`): from `start` to `end` in local time,
/// across midnight when `end` is earlier.
public struct QuietHours: Sendable, Equatable, CustomStringConvertible {
    /// Minutes after local midnight.
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// `HH:MM-HH:MM` (24-hour), or nil when it is not one.
    public init?(_ text: String) {
        let halves = text.split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count == 2, let start = Self.minutes(halves[0]), let end = Self.minutes(halves[1]), start != end else {
            return nil
        }
        self.init(start: start, end: end)
    }

    private static func minutes(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    public var description: String {
        func text(_ minutes: Int) -> String {
            let hours = minutes / 60, rest = minutes % 60
            return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
        }
        return "\(text(start))-\(text(end))"
    }

    /// True when `date` falls in the quiet hours in `timeZone`.
    public func contains(_ date: Date, in timeZone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return start < end ? (start <= now && now < end) : (now >= start || now < end)
    }
}

extension Inbox {
    /// True when `app` is muted at `date` (a mute without an end lasts until `unmute`).
    public func isMuted(_ app: String, at date: Date) -> Bool {
        guard let until = settings.muted[app] else { return false }
        return until.map { date < $0 } ?? true
    }

    /// True when quiet hours hold at `date` (local time of the inbox's time zone).
    public func isQuiet(at date: Date) -> Bool {
        settings.quiet?.contains(date, in: timeZone) ?? false
    }

    /// `mute APP [--for D]`: banners off for one app, until `until` (or `unmute`).
    mutating func mute(_ app: String, until: Date?, into outcome: inout Outcome) {
        if settings.muted[app] != .some(until) {
            settings.muted[app] = .some(until)
            outcome.write(.settings(settings))
        }
        outcome.reply = .muted(app: app, until: until)
    }

    mutating func unmute(_ app: String, into outcome: inout Outcome) {
        if settings.muted[app] != nil {
            settings.muted[app] = nil
            outcome.write(.settings(settings))
        }
        outcome.reply = .unmuted(app: app)
    }

    mutating func setQuiet(_ quiet: QuietHours?, into outcome: inout Outcome) {
        if settings.quiet != quiet {
            settings.quiet = quiet
            outcome.write(.settings(settings))
        }
        outcome.reply = .quiet(quiet)
    }
}
