import Foundation
import PushJSON

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T09:41:00.000Z`), as the wire shows
/// `receivedAt`. Computed by hand: no formatter object to share between threads, and fast.
public enum RFC3339 {
    /// The instant as `YYYY-MM-DDTHH:MM:SS.mmmZ` (milliseconds rounded down).
    public static func string(from date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, dayMilliseconds) = floorDivide(totalMilliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = dayMilliseconds / 1000
        // A four-digit year (every date a push carries) is written digit by digit into the 24
        // bytes: interpolating padded pieces cost ~12 000 instructions a date (callgrind), and a
        // Live Activity update writes seven.
        if (0...9999).contains(year) {
            return String(unsafeUninitializedCapacity: 24) { text in
                func put(_ value: Int64, _ width: Int, at offset: Int) {
                    var rest = value
                    for index in (offset..<offset + width).reversed() {
                        text[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                        rest /= 10
                    }
                }
                put(year, 4, at: 0)
                put(month, 2, at: 5)
                put(day, 2, at: 8)
                put(seconds / 3600, 2, at: 11)
                put(seconds / 60 % 60, 2, at: 14)
                put(seconds % 60, 2, at: 17)
                put(dayMilliseconds % 1000, 3, at: 20)
                (text[4], text[7], text[10], text[13], text[16], text[19], text[23]) =
                    (ascii("-"), ascii("-"), ascii("T"), ascii(":"), ascii(":"), ascii("."), ascii("Z"))
                return 24
            }
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil when it is not that.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard byte >= ascii("0") && byte <= ascii("9") else { return nil }
                value = value * 10 + Int64(byte - ascii("0"))
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
              second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count && bytes[index] == ascii(".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= ascii("0") && bytes[index] <= ascii("9") {
                fraction += Double(bytes[index] - ascii("0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds: Int64 = 0
        if expect("Zz") {
        } else if index < bytes.count, bytes[index] == ascii("+") || bytes[index] == ascii("-") {
            let sign: Int64 = bytes[index] == ascii("-") ? -1 : 1
            index += 1
            guard let offsetHours = number(2), expect(":"), let offsetMinutes = number(2) else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, days from 1970-01-01)

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097).0
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(adjustedYear, 400).0
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
