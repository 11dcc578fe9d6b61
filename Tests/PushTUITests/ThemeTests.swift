import Foundation
import PushTUI
import Testing
import TestSupport

@Suite("Themes and times")
struct ThemeTests {
    @Test func monochromeShowsRolesByAttributesAlone() {
        let theme = Theme.monochrome
        #expect(!theme.usesColor)
        #expect(theme.look(for: .selection).reverse)
        #expect(theme.look(for: .bannerBackground).reverse)
        #expect(theme.look(for: .header).bold)
        for role in ColorRole.allCases {
            #expect(theme.look(for: role).foreground == .terminalDefault)
            #expect(theme.look(for: role).background == .terminalDefault)
        }
    }

    @Test func standardColoursEveryRole() {
        let theme = Theme.standard
        #expect(theme.usesColor)
        for role in ColorRole.allCases {
            #expect(theme.looks[role] != nil, "\(role)")
        }
    }

    @Test func relativeTimesFitTheTimeColumn() {
        let now = SampleMessages.now
        let utc = TimeZone(identifier: "UTC")!
        #expect(RelativeTime.describe(now, now: now, timeZone: utc) == "just now")
        #expect(RelativeTime.describe(now.addingTimeInterval(5), now: now, timeZone: utc) == "just now")
        #expect(RelativeTime.describe(now.addingTimeInterval(-59), now: now, timeZone: utc) == "just now")
        #expect(RelativeTime.describe(now.addingTimeInterval(-180), now: now, timeZone: utc) == "3m")
        #expect(RelativeTime.describe(now.addingTimeInterval(-7200), now: now, timeZone: utc) == "2h")
        #expect(RelativeTime.describe(now.addingTimeInterval(-6 * 86_400), now: now, timeZone: utc) == "Nov 24")
        #expect(RelativeTime.describe(now.addingTimeInterval(-86_400 - 60), now: now, timeZone: utc) == "Sat")
        #expect(RelativeTime.describe(now.addingTimeInterval(-400 * 86_400), now: now, timeZone: utc) == "Oct 2024")
    }

    /// One describer names a frame's rows; a day it has named is named again without the calendar.
    @Test func oneDescriberNamesEveryDateAsItsOwnDescriptionDoes() throws {
        // Both zones change their clocks inside the span (Berlin on Oct 25, New York on Nov 1), and
        // the span crosses a year and the six-day line between weekdays and dates. Steps of 37
        // minutes and 3 h 17 min back from now, and 5 h forward from 400 days before it.
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-06T10:15:00Z"))
        for zone in ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"] {
            let timeZone = try #require(TimeZone(identifier: zone))
            for step: TimeInterval in [-2_220, -11_820, 18_000] {
                var describer = RelativeTime.Describer(now: now, timeZone: timeZone)
                var date = step < 0 ? now : now.addingTimeInterval(-400 * 86_400)
                for _ in 0..<2_000 {
                    let expected = RelativeTime.describe(date, now: now, timeZone: timeZone)
                    #expect(describer.describe(date) == expected, "\(zone) \(date)")
                    date.addTimeInterval(step)
                }
            }
        }
    }
}

