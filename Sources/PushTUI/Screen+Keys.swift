import PushCore

// MARK: - Keys and mouse

extension Screen {
    /// Handles one key: applies its screen moves and returns every action, so the host can send
    /// the `.send` events to the reducer and stop on `.quit`.
    /// `bannerPhase` overrides `inbox.bannerPhase(at: now)` (tests pin the banner on screen).
    public mutating func handle(_ key: Key, inbox: Inbox, now: Instant, bannerPhase: BannerPhase? = nil) -> [UIAction] {
        if key != .resize { status = nil }
        let actions = actions(for: key, inbox: inbox, now: now, bannerPhase: bannerPhase)
        for action in actions { apply(action) }
        return actions
    }

    /// What `key` means in the current state. Pure: the screen does not change.
    public func actions(for key: Key, inbox: Inbox, now: Instant, bannerPhase: BannerPhase? = nil) -> [UIAction] {
        let phase = inbox.banner == nil ? BannerPhase.gone : bannerPhase ?? inbox.bannerPhase(at: now)
        let bannerArea = BannerView.visibleArea(banner: inbox.banner, phase: phase, width: size.width, height: size.height)
        let bannerUp = !bannerArea.isEmpty

        if key == .resize { return [] }
        // The banner's timer pauses while the pointer is over it or it has the focus (Tab).
        if case .mouse(.move(let x, let y)) = key {
            guard let banner = inbox.banner else { return [] }
            let over = bannerUp && bannerArea.contains(x: x, y: y)
            return over != banner.pauses.contains(.pointer) ? [.send(.pauseBanner(.pointer, over))] : []
        }
        if key == .tab, bannerUp, let banner = inbox.banner {
            return [.send(.pauseBanner(.focus, !banner.pauses.contains(.focus)))]
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
        if key == .escape, bannerUp { return [.send(.dismissBanner)] }

        switch key {
        case .char("q"): return [.quit]
        case .char("?"): return [.toggleHelp]
        case .char("m"): return [.send(.setMode(inbox.mode == .on ? .off : .on))]
        case .char("f"): return [.send(.setAppState(inbox.appState.next))]
        case .char("a"): return [.send(.readAll(app: nil))]
        case .char("c"): return [.send(.badge(app: nil, change: .clear, sync: nil))]
        case .char("o"): return openBanner(inbox)
        default: break
        }
        switch view {
        case .list: return listActions(for: key)
        case .detail: return detailActions(for: key)
        }
    }

    private func openBanner(_ inbox: Inbox) -> [UIAction] {
        guard let banner = inbox.banner else { return [] }
        return [.send(.openBanner), .openDetail(id: banner.message.id)]
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
        case .char("r"): return selectedMessage.map { [.send(.read([$0]))] } ?? []
        case .char("d"): return selectedMessage.map { [.send(.delete([$0]))] } ?? []
        case .char("/"): return [.openFilter]
        case .escape: return filter.isEmpty ? [] : [.clearFilter]
        case .mouse(.wheelUp): return [.moveSelection(by: -3)]
        case .mouse(.wheelDown): return [.moveSelection(by: 3)]
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
        return [.openDetail(id: message.id), .send(.read([message]))]
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
        case .char("r"): return detailMessage.map { [.send(.read([$0]))] } ?? []
        case .char("d"): return detailMessage.map { [.send(.delete([$0])), .back] } ?? []
        default: return []
        }
    }
}
