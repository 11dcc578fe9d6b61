import Foundation
import PushCore
import PushTUI
import Testing
import TestSupport

/// The header and the footer at any width: parts give way whole, the least important first.
@Suite struct HeaderFooterFitTests {
    /// Everything the header can show at once: push off with drift, dropped pushes, two held
    /// pass-through messages, an offline device with one stored, a mute, quiet hours, a platform policy.
    static func busyInbox() -> Inbox {
        var inbox = SampleMessages.sampleInbox(mode: .off, appState: .terminated, dropped: 12, serverBadge: 5)
        let messages = SampleMessages.sampleMessages()
        var stored = messages[2]
        stored.token = "0123abcd"
        inbox = Inbox(badges: inbox.badges, unread: inbox.unread, settings: inbox.settings, nextId: 8,
                      held: [messages[0], messages[1], stored])
        inbox.devices["0123abcd"] = Device(token: "0123abcd", app: stored.app, offline: true)
        inbox.settings.muted = ["com.example.news": Date?.none]
        inbox.settings.quiet = QuietHours(start: 22 * 60, end: 7 * 60)
        inbox.settings.badgePolicies = ["com.example.shop": .platform]
        return inbox
    }

    static func header(_ inbox: Inbox, width: Int) -> String {
        var grid = Grid(width: width, height: 1)
        HeaderView.render(into: &grid, area: grid.bounds, inbox: inbox)
        return grid.rowText(0)
    }

    /// The header's parts as shown, from the most important to the least.
    static let importance = ["unread", "badge", "PUSH", "terminated", "dropped", "held", "offline", "pushdeck", "muted", "quiet", "platform"]

    @Test func at80ColumnsTheDroppedHeldAndOfflineCountsStayAndNothingIsCut() {
        var inbox = Self.busyInbox()
        inbox.badges = ["com.example.shop": Badge(icon: 1, server: 1), "com.example.news": Badge(icon: 2, server: 2)]
        let row = Self.header(inbox, width: 80)
        #expect(row.contains("PUSH [OFF]"), "\(row)")
        #expect(row.contains("12 dropped"), "\(row)")
        #expect(row.contains("2 held"), "\(row)")
        #expect(row.contains("offline"), "\(row)")
        #expect(!row.contains("…") && !row.contains("qu"), "\(row)")
        // With the ledgers drifting too, the badge's longer part pushes out the offline device
        // before the held count, and nothing is cut.
        let drifting = Self.header(Self.busyInbox(), width: 80)
        #expect(drifting.contains("badge 3 (server 5)") && drifting.contains("12 dropped") && drifting.contains("2 held"), "\(drifting)")
        #expect(!drifting.contains("…"), "\(drifting)")
    }

    @Test func partsGiveWayWholeFromTheLeastImportantAtEveryWidth() {
        let inbox = Self.busyInbox()
        let full = Self.header(inbox, width: 300)
        #expect(Self.importance.allSatisfy { full.contains($0) }, "\(full)")
        for width in 20...200 {
            let row = Self.header(inbox, width: width)
            #expect(!row.contains("…"), "\(width): \(row)")
            #expect(row.trimmingCharacters(in: .whitespaces).count <= width)
            let shown = Self.importance.map { row.contains($0) }
            // Once a part is missing, every less important one is missing too.
            if let firstMissing = shown.firstIndex(of: false) {
                #expect(!shown[firstMissing...].contains(true), "\(width): \(row)")
            }
        }
    }

    @Test func theHeldCountLeavesOutWhatIsStoredForAnOfflineDevice() {
        var inbox = SampleMessages.sampleInbox(appState: .terminated)
        let messages = SampleMessages.sampleMessages()
        inbox = Inbox(badges: inbox.badges, unread: inbox.unread, settings: inbox.settings, nextId: 8, held: [messages[0]])
        #expect(Self.header(inbox, width: 120).contains("1 held"))
        #expect(!Self.header(SampleMessages.sampleInbox(), width: 120).contains("held"))
    }

    @Test func theFooterShortensThenDropsTheLeastImportantHintAndKeepsTheThreadMode() {
        for grouped in [true, false] {
            let mode = grouped ? "t threads" : "t all"
            let hints = FooterView.listHints(grouped: grouped)
            // 120 columns less the position counter "1/6": every hint, the least important shortened.
            let wide = FooterView.fitting(hints, width: 114)
            #expect(wide == "↑↓ move  ⏎ open  r read  a all read  c clear badge  m push on/off  "
                + (grouped ? "o banner  t threads" : "o open banner  t all") + "  / filter  ? help  q quit", "\(wide)")
            for width in 14...130 {
                let line = FooterView.fitting(hints, width: width)
                #expect(line.columns <= width, "\(width): \(line)")
                #expect(line.contains("? help"))
                // "⏎ open  m push  t threads  ? help  q quit" takes 41 columns.
                if width >= 41 { #expect(line.contains(mode), "\(width): \(line)") }
            }
        }
        #expect(FooterView.fitting(FooterView.listHints(grouped: true), width: 74)
            == "↑↓ move  ⏎ open  r read  a all  c clear  m push  t threads  ? help  q quit")
    }

    @Test func theFooterAndTheHelpSayWhichModeTheListIsIn() {
        var screen = Screen(size: Size(width: 120, height: 40))
        #expect(screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now).rowText(39).contains("t threads"))
        _ = screen.handle(.char("t"), inbox: Inbox(), now: .zero)
        let flat = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        #expect(flat.rowText(39).contains("t all"), "\(flat.rowText(39))")
        _ = screen.handle(.char("?"), inbox: Inbox(), now: .zero)
        let help = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        #expect((0..<40).contains { help.rowText($0).contains("list: every message (now) · t: by thread") })
        _ = screen.handle(.escape, inbox: Inbox(), now: .zero)
        _ = screen.handle(.char("t"), inbox: Inbox(), now: .zero)
        _ = screen.handle(.char("?"), inbox: Inbox(), now: .zero)
        let grouped = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now)
        #expect((0..<40).contains { grouped.rowText($0).contains("list: by thread (now) · t: every message") })
    }
}
