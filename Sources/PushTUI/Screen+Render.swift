import Foundation
import PushCore

// MARK: - Drawing

extension Screen {
    /// Draws the whole screen at `size`: header, list or detail, footer, the help overlay, and the
    /// banner over the top rows.
    ///
    /// - Parameters:
    ///   - now: the monotonic instant (where the banner is: tests pin it by choosing `now`).
    ///   - date: the wall clock (relative times).
    ///   - callback: the iOS callback line for the detail view's message.
    public func render(inbox: Inbox, now: Instant, date: Date, callback: (Message) -> String = { _ in "" }) -> Grid {
        var grid = Grid(size)
        let layout = self.layout
        let activities = shownActivities.holds(at: date) ? shownActivities : ShownActivities(inbox.activities, at: date)
        HeaderView.render(into: &grid, area: layout.header, inbox: inbox, date: date, bus: bus, activities: activities)
        if !layout.cards.isEmpty {
            let onScreen = activities.activities.dropFirst(firstCard).prefix(layout.cards.height / ActivityCardView.cardHeight)
            ActivityCardView.render(into: &grid, area: layout.cards, activities: Array(onScreen), date: date, selected: selectedCard)
        }
        switch view {
        case .list:
            ListView.render(into: &grid, area: layout.body, screen: self, date: date)
        case .detail:
            DetailView.render(into: &grid, area: layout.body, message: detailMessage,
                              callback: detailMessage.map(callback) ?? "", scroll: detailScroll,
                              date: date, timeZone: timeZone,
                              badgeNote: detailMessage.map { inbox.badgeNote(for: $0.app) } ?? "",
                              requests: detailRequests)
        case .activity(let id):
            ActivityDetailView.render(into: &grid, area: layout.body, activity: inbox.activities.byId[id],
                                      scroll: activityScroll, date: date, timeZone: timeZone)
        }
        FooterView.render(into: &grid, area: layout.footer, screen: self)
        if helpShown { HelpView.render(into: &grid, area: layout.body, grouped: grouped) }
        if let banner = inbox.banner {
            BannerView.render(into: &grid, area: grid.bounds, banner: banner, phase: inbox.bannerPhase(at: now), date: date, timeZone: timeZone)
        }
        return grid
    }
}
