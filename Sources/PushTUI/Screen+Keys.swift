import PushCore

// MARK: - Keys and mouse

extension Screen {
    /// Handles one key: applies its screen moves and returns every action, so the host can hand
    /// the requests and banner gestures on and stop on `.quit`.
    public mutating func handle(_ key: Key, inbox: Inbox, now: Instant) -> [UIAction] {
        if key != .resize { status = nil }
        let actions = actions(for: key, inbox: inbox, now: now)
        for action in actions { apply(action) }
        if case .activity(let id) = view {
            let lines = inbox.activities.byId[id].map { ActivityDetailView.lines($0, width: size.width, timeZone: timeZone).count } ?? 0
            clampActivityScroll(lines: lines, height: listHeight)
        }
        return actions
    }

    /// What `key` means in the current state (the banner's place on screen is the one at `now`).
    /// Pure: the screen does not change.
    ///
    /// Inbox commands are the `Request`s a script sends for them: a new key is one line here.
    public func actions(for key: Key, inbox: Inbox, now: Instant) -> [UIAction] {
        let phase = inbox.bannerPhase(at: now)
        let bannerArea = BannerView.visibleArea(banner: inbox.banner, phase: phase, width: size.width, height: size.height)
        let bannerUp = !bannerArea.isEmpty

        if key == .resize { return [] }
        // The banner's timer pauses while the pointer is over it or it has the focus (Tab).
        if case .mouse(.move(let x, let y)) = key {
            guard let banner = inbox.banner else { return [] }
            let over = bannerUp && bannerArea.contains(x: x, y: y)
            return over != banner.pauses.contains(.pointer) ? [.banner(.pause(.pointer, over))] : []
        }
        if key == .tab, bannerUp, let banner = inbox.banner {
            return [.banner(.pause(.focus, !banner.pauses.contains(.focus)))]
        }
        if case .mouse(.click(let x, let y)) = key, bannerUp, bannerArea.contains(x: x, y: y) {
            return openBanner(inbox)
        }
        if helpShown {
            switch key {
            case .char("q"): return [.quit]
            case .char("?"), .escape, .enter, .backspace, .left: return [.toggleHelp]
            default: return []
            }
        }
        if filterOpen {
            switch key {
            case .char(let character): return [.filterInput(character)]
            case .backspace: return [.filterBackspace]
            case .enter: return [.closeFilter]
            case .escape: return [.clearFilter]
            default: break  // arrows still move the list
            }
        }
        if key == .escape, bannerUp { return [.banner(.dismiss)] }

        switch key {
        case .char("q"): return [.quit]
        case .char("?"): return [.toggleHelp]
        case .char("m"): return [.request(.mode(inbox.mode == .on ? .off : .on))]
        case .char("f"): return [.request(.app(inbox.appState.next))]
        case .char("a"): return [.request(.read(.all(app: nil)))]
        case .char("c"): return [.request(.badge(app: nil, change: .clear, sync: nil))]
        case .char("o"): return openBanner(inbox)
        default: break
        }
        switch view {
        case .list: return selectedCard.map { cardActions(for: key, selected: $0) } ?? listActions(for: key)
        case .detail: return detailActions(for: key)
        case .activity(let id): return activityActions(for: key, id: id)
        }
    }

    /// A card is selected (`[`, `]`): `⏎` opens it, `x` dismisses it (the user's swipe on the
    /// Lock Screen, the socket's `{"op":"activity","action":"dismiss"}`), `Esc` gives the
    /// selection back to the list; every other key is the list's.
    private func cardActions(for key: Key, selected: String) -> [UIAction] {
        switch key {
        case .enter, .right, .char("l"): return [.openActivity(id: selected)]
        case .char("x"): return [.request(.activity(.dismiss(id: selected)))]
        case .char("]"), .char("["): return card(key == .char("]") ? 1 : -1, from: selected).map { [.selectCard($0)] } ?? []
        case .escape: return [.selectCard(nil)]
        default: return listActions(for: key)
        }
    }

    /// The card `step` away from `id` among the shown ones (held at the first and last); from
    /// none, `]` selects the first and `[` the last.
    func card(_ step: Int, from id: String?) -> String? {
        guard let id, let index = cardIds.firstIndex(of: id) else { return step < 0 ? cardIds.last : cardIds.first }
        return cardIds[min(max(0, index + step), cardIds.count - 1)]
    }

    private func activityActions(for key: Key, id: String) -> [UIAction] {
        let page = max(1, listHeight - 1)
        switch key {
        case .up, .char("k"): return [.scrollActivity(by: -1)]
        case .down, .char("j"): return [.scrollActivity(by: 1)]
        case .pageUp: return [.scrollActivity(by: -page)]
        case .pageDown, .char(" "): return [.scrollActivity(by: page)]
        case .home, .char("g"): return [.scrollActivity(by: Int.min)]
        case .end, .char("G"): return [.scrollActivity(by: Int.max)]
        case .mouse(.wheelUp): return [.scrollActivity(by: -3)]
        case .mouse(.wheelDown): return [.scrollActivity(by: 3)]
        case .escape, .backspace, .left, .char("h"): return [.back]
        case .char("]"), .char("["):
            let next = card(key == .char("]") ? 1 : -1, from: id)
            return next.map { $0 == id ? [] : [.openActivity(id: $0)] } ?? []
        case .char("x"): return [.request(.activity(.dismiss(id: id))), .back]
        default: return []
        }
    }

    private func openBanner(_ inbox: Inbox) -> [UIAction] {
        guard let banner = inbox.banner else { return [] }
        return [.banner(.open), .openDetail(id: banner.message.id)]
    }

    private func listActions(for key: Key) -> [UIAction] {
        let page = max(1, listHeight)
        switch key {
        case .up, .char("k"): return [.moveSelection(by: -1)]
        case .down, .char("j"): return [.moveSelection(by: 1)]
        case .pageUp: return [.moveSelection(by: -page)]
        case .pageDown, .char(" "): return [.moveSelection(by: page)]
        case .home, .char("g"): return [.select(0)]
        case .end, .char("G"): return [.select(Int.max)]
        case .enter, .right, .char("l"): return open(selectedRow)
        case .char("t"): return [.toggleGrouping]
        case .char("]"), .char("["): return card(key == .char("]") ? 1 : -1, from: nil).map { [.selectCard($0)] } ?? []
        case .char("r"): return selectedMessage.map { [.request(.read(.ids([$0.id])))] } ?? []
        case .char("d"): return selectedMessage.map { [.request(.delete([$0.id]))] } ?? []
        case .char("/"): return [.openFilter]
        case .escape: return filter.isEmpty ? [] : [.clearFilter]
        case .mouse(.wheelUp): return [.moveSelection(by: -3)]
        case .mouse(.wheelDown): return [.moveSelection(by: 3)]
        case .mouse(.click(let x, let y)) where layout.cards.contains(x: x, y: y):
            // A click selects a card; a click on the selected card opens it.
            let index = firstCard + (y - layout.cards.y) / ActivityCardView.cardHeight
            guard cardIds.indices.contains(index) else { return [] }
            let id = cardIds[index]
            return id == selectedCard ? [.openActivity(id: id)] : [.selectCard(id)]
        case .mouse(.click(let x, let y)):
            let body = layout.body
            guard body.contains(x: x, y: y) else { return [] }
            let row = scrollOffset + (y - body.y)
            guard row < total else { return [] }
            // A click on the selected row opens it, as a second tap would.
            return row == selected ? open(selectedRow) : [.select(row)]
        default: return []
        }
    }

    /// Enter on a thread's row expands (or folds) it; on a message, opens it.
    private func open(_ row: ListRow?) -> [UIAction] {
        if case .thread(let message, _, _)? = row, let key = message.threadKey { return [.toggleThread(key)] }
        return open(row?.message)
    }

    private func open(_ message: Message?) -> [UIAction] {
        guard let message else { return [] }
        return [.openDetail(id: message.id), .request(.read(.ids([message.id])))]
    }

    private func detailActions(for key: Key) -> [UIAction] {
        let page = max(1, listHeight - 1)
        switch key {
        case .up, .char("k"): return [.scrollDetail(by: -1)]
        case .down, .char("j"): return [.scrollDetail(by: 1)]
        case .pageUp: return [.scrollDetail(by: -page)]
        case .pageDown, .char(" "): return [.scrollDetail(by: page)]
        case .home, .char("g"): return [.scrollDetail(by: Int.min)]
        case .end, .char("G"): return [.scrollDetail(by: Int.max)]
        case .escape, .backspace, .left, .char("h"): return [.back]
        case .mouse(.wheelUp): return [.scrollDetail(by: -3)]
        case .mouse(.wheelDown): return [.scrollDetail(by: 3)]
        case .char("r"): return detailMessage.map { [.request(.read(.ids([$0.id])))] } ?? []
        case .char("d"): return detailMessage.map { [.request(.delete([$0.id])), .back] } ?? []
        default: return []
        }
    }
}
