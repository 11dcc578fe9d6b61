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
}

