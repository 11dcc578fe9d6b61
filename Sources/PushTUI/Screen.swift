import Foundation
import PushCore

/// The UI state: which view shows, the selection, the filter and the window of loaded list rows.
///
/// A value type the host owns. Keys go through `handle(_:inbox:now:)`; the host handles the returned
/// `.request`s as a script's and the `.banner` gestures as the reducer's events, calls
/// `load(from:)` when `needsLoad` (or when the store changed), and draws `render(inbox:now:date:)`.
public struct Screen: Sendable, Equatable {
    /// The main view.
    public enum View: Sendable, Equatable {
        case list
        case detail(id: Int64)
        /// A Live Activity opened from its card: its fields and its history of pushes.
        case activity(id: String)
    }

    public var view: View = .list
    public var helpShown = false
    /// The selected list row (0 is the newest message).
    public private(set) var selected = 0
    /// The first list row on screen.
    public private(set) var scrollOffset = 0
    /// The first detail line on screen.
    public private(set) var detailScroll = 0
    public private(set) var filter = ""
    /// The list groups messages by thread (`t` toggles; on as on iOS).
    public private(set) var grouped = true
    /// The thread whose messages show under its row (Enter on the row toggles it).
    public private(set) var expanded: ThreadKey?
    public private(set) var filterOpen = false
    /// The terminal size; the host sets it on resize before handing `Key.resize` in.
    public var size: Size {
        didSet { followSelection() }
    }
    /// The loaded rows: rows `rowsOffset ..< rowsOffset + listRows.count` of the list.
    public private(set) var listRows: [ListRow] = []
    /// The loaded rows' messages (a thread's row is its newest message).
    public var rows: [Message] { listRows.map(\.message) }
    public private(set) var rowsOffset = 0
    /// How many messages the filtered list has.
    public private(set) var total = 0
    /// The message the detail view shows, loaded by `load(from:)`.
    public private(set) var detailMessage: Message?
    /// The provider requests of the detail view's message (the host reads them from the
    /// request log: `RequestLog.requests(of:)`), shown under its request.
    public var detailRequests: [ProviderRequestRecord] = []
    /// A one-line note in the footer ("3 messages read"); cleared by the next key.
    public var status: String?
    /// The host is still searching older messages for the filter: `total` is a count so far.
    public var searching = false
    /// Where the provider gateway listens while it runs (shown in the footer), else nil.
    public var gatewayAddress: String?
    /// The team bus's connection for the header (`bus connected`, …), nil without `--mqtt`.
    public var bus: String?
    /// The time zone of weekdays and dates in the list.
    public var timeZone: TimeZone
    /// The query the loaded rows were loaded with.
    private var loadedQuery = ListQuery()
    /// The detail id last asked of the source (found or not), so a deleted one is not asked again.
    private var loadedDetailId: Int64?

    public init(size: Size, timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) {
        self.size = size
        self.timeZone = timeZone
    }

    /// An opened activity takes the whole body: the cards show over the list and a message's detail.
    public var layout: ScreenLayout {
        if case .activity = view { return ScreenLayout(size: size) }
        return ScreenLayout(size: size, cardRows: ActivityCardView.rows(count: activityCount, bodyHeight: max(0, size.height - 2)))
    }

    /// How many Live Activities show as cards (the host sets it each turn, before `load(from:)`,
    /// from `ActivityCardView.shown`): their rows come off the list's.
    public var activityCount = 0 {
        didSet { if activityCount != oldValue { followSelection() } }
    }

    /// The ids of the activities the cards show, in their order (the host sets it each turn with
    /// `ActivityCardView.shown`; it sets `activityCount` too). A selected card that is gone (its
    /// activity dismissed) is no longer selected.
    public var cardIds: [String] = [] {
        didSet {
            activityCount = cardIds.count
            if let card = selectedCard, !cardIds.contains(card) { selectedCard = nil }
        }
    }
    /// The Live Activities as the host worked them out (`ShownActivities`, kept while they hold);
    /// setting them sets `cardIds`. Drawing at a date they do not hold at works them out from
    /// the inbox instead (as for a screen no host keeps them for).
    public var shownActivities = ShownActivities.none {
        didSet { cardIds = shownActivities.ids }
    }
    /// The card `[` and `]` selected (an activity id): `⏎` opens it, `x` dismisses it. Nil while
    /// the list has the selection.
    public private(set) var selectedCard: String?
    /// The first line of the opened activity on screen.
    public private(set) var activityScroll = 0

    /// The first card on screen: the cards scroll so the selected one shows.
    public var firstCard: Int {
        let fit = layout.cards.height / ActivityCardView.cardHeight
        guard let card = selectedCard, let index = cardIds.firstIndex(of: card), fit > 0 else { return 0 }
        return max(0, index - fit + 1)
    }

    /// Rows of the list on screen at this size.
    public var listHeight: Int { layout.body.height }

    /// What the list shows: the filter, grouping and the expanded thread.
    public var query: ListQuery { ListQuery(filter: filter, grouped: grouped, expanded: expanded) }

    /// The selected row, when it is loaded.
    public var selectedRow: ListRow? {
        let index = selected - rowsOffset
        return listRows.indices.contains(index) ? listRows[index] : nil
    }

    /// The selected message (a thread's row: its newest), when its row is loaded.
    public var selectedMessage: Message? { selectedRow?.message }

    /// The message `r` and `d` act on: the detail view's, else the selected one.
    public var currentMessage: Message? {
        if case .detail = view { return detailMessage }
        return selectedMessage
    }

    /// True when what is on screen is not loaded: call `load(from:)`.
    public var needsLoad: Bool {
        switch view {
        case .activity:
            return loadedQuery != query
        case .detail(let id):
            return loadedDetailId != id
        case .list:
            return loadedQuery != query || rowsOffset != scrollOffset
                || rows.count < min(listHeight, max(0, total - scrollOffset))
        }
    }

    // MARK: - Loading

    /// Loads the rows on screen (and the detail message) from `source`: one count and one page.
    public mutating func load(from source: some MessageSource) {
        // At the top the list follows the newest message (a live feed); elsewhere the selection
        // stays on its message when newer ones arrive above it.
        let previous = selected == 0 ? nil : selectedMessage?.id
        total = source.count(query)
        selected = clampRow(selected)
        followSelection()
        loadPage(from: source)
        if let previous, let index = rows.firstIndex(where: { $0.id == previous }), rowsOffset + index != selected {
            selected = rowsOffset + index
            let before = scrollOffset
            followSelection()
            if scrollOffset != before { loadPage(from: source) }
        }
        if case .detail(let id) = view {
            detailMessage = source.message(id: id)
            loadedDetailId = id
        } else {
            detailMessage = nil
            loadedDetailId = nil
        }
    }

    private mutating func loadPage(from source: some MessageSource) {
        listRows = listHeight > 0 ? source.rows(offset: scrollOffset, limit: listHeight, query: query) : []
        rowsOffset = scrollOffset
        loadedQuery = query
    }

    // MARK: - Screen moves

    /// Applies a screen move; `.request`, `.banner` and `.quit` are for the host and change nothing here.
    public mutating func apply(_ action: UIAction) {
        switch action {
        case .moveSelection(let rows):
            selectedCard = nil
            selected = clampRow(selected.saturatingAdd(rows))
            followSelection()
        case .select(let row):
            selectedCard = nil
            selected = clampRow(row)
            followSelection()
        case .selectCard(let id):
            selectedCard = id.flatMap { cardIds.contains($0) ? $0 : nil }
        case .openActivity(let id):
            view = .activity(id: id)
            selectedCard = id
            activityScroll = 0
            detailMessage = nil
            loadedDetailId = nil
        case .scrollActivity(let lines):
            activityScroll = max(0, activityScroll.saturatingAdd(lines))
        case .scrollDetail(let lines):
            let limit = max(0, DetailView.lineCount(detailMessage, width: size.width, requests: detailRequests) - listHeight)
            detailScroll = min(max(0, detailScroll.saturatingAdd(lines)), limit)
        case .openDetail(let id):
            view = .detail(id: id)
            detailScroll = 0
            detailMessage = rows.first { $0.id == id }
            loadedDetailId = nil
        case .back:
            if helpShown {
                helpShown = false
            } else {
                view = .list
                detailMessage = nil
                activityScroll = 0
            }
        case .toggleHelp:
            helpShown.toggle()
        case .openFilter:
            filterOpen = true
        case .filterInput(let character):
            filter.append(character)
            resetSelection()
        case .filterBackspace:
            if filter.isEmpty {
                filterOpen = false
            } else {
                filter.removeLast()
                resetSelection()
            }
        case .closeFilter:
            filterOpen = false
        case .clearFilter:
            filterOpen = false
            if !filter.isEmpty {
                filter = ""
                resetSelection()
            }
        case .toggleGrouping:
            grouped.toggle()
            expanded = nil
            resetSelection()
        case .toggleThread(let thread):
            expanded = expanded == thread ? nil : thread
        case .request, .banner, .quit:
            break
        }
    }

    /// Holds the opened activity's scroll to its last page (`lines` long, in `height` rows).
    mutating func clampActivityScroll(lines: Int, height: Int) {
        activityScroll = min(activityScroll, max(0, lines - height))
    }

    private mutating func resetSelection() {
        selected = 0
        scrollOffset = 0
    }

    private func clampRow(_ row: Int) -> Int {
        total == 0 ? 0 : min(max(0, row), total - 1)
    }

    /// Scrolls the list so the selected row is on screen.
    private mutating func followSelection() {
        let height = listHeight
        guard height > 0 else {
            scrollOffset = selected
            return
        }
        if selected < scrollOffset { scrollOffset = selected }
        if selected >= scrollOffset + height { scrollOffset = selected - height + 1 }
        scrollOffset = max(0, min(scrollOffset, max(0, total - height)))
    }
}

extension Int {
    /// `self + other`, held at `Int.min`/`Int.max` instead of overflowing (Home/End move by those).
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}
