import Foundation

// MARK: - The banner's actions

extension Inbox {
    /// `o` or a click (STPushView tap): the banner's message is opened — read, with its 90002
    /// feedback — and the banner goes away at once.
    mutating func openBanner(now: Instant, into outcome: inout Outcome) {
        guard let banner, bannerIsUp(at: now) else {
            self.banner = nil
            return
        }
        open([banner.message], into: &outcome)
        self.banner = nil
        outcome.reply = .badge(totalBadge)
    }

    /// `Esc` (the swipe): the banner slides up from where it is.
    mutating func dismissBanner(now: Instant) {
        guard var current = banner else { return }
        current.dismiss(at: now, stay: bannerStay)
        banner = current.phase(at: now, stay: bannerStay) == .gone ? nil : current
    }
}
