import Foundation
import PushJSON

/// The inbox reducer: the one place where pushes, reads, badge commands, mode and app-state
/// switches and the banner's timeline are decided (DESIGN §5, §6). Pure: the world is changed only
/// through the returned effects, carried out in order by the loop.
///
/// Effects come in a fixed order: store writes first (one transaction), then bus events, then
/// the reply — so nothing is published or answered before it is committed. Each app whose
/// ledgers moved gets one `.badge` write and one `badge.changed`, with its final value.
public func reduce(into inbox: inout Inbox, _ event: Event, now: Instant) -> [Effect] {
    var outcome = Outcome()
    let bannerBefore = inbox.banner.map { (id: $0.message.id, count: $0.count, shownAt: $0.shownAt) }
    switch event {
    case .push(let push, let at):
        inbox.receive(push, at: at, now: now, into: &outcome)
        if !push.also.isEmpty { inbox.receiveAlso(push.also, at: at, now: now, into: &outcome) }
    case .read(let messages):
        inbox.open(messages, into: &outcome)
        outcome.reply = ["ok": true, "badge": .number(JSONNumber(inbox.totalBadge))]
    case .readAll(let app):
        inbox.readAll(app: app, into: &outcome)
    case .delete(let messages):
        inbox.delete(messages, into: &outcome)
    case .badge(let app, let change, let sync):
        inbox.applyBadgeRequest(app: app, change: change, sync: sync, into: &outcome)
    case .setBadgePolicy(let app, let policy):
        inbox.setBadgePolicy(app: app, policy, into: &outcome)
    case .sdkBadge(let app, let call):
        inbox.applySDKCall(app: app, call, into: &outcome)
    case .mute(let app, let until):
        inbox.mute(app, until: until, into: &outcome)
    case .unmute(let app):
        inbox.unmute(app, into: &outcome)
    case .setQuiet(let quiet):
        inbox.setQuiet(quiet, into: &outcome)
    case .expireHeld(let date):
        inbox.expireHeld(at: date, into: &outcome)
    case .setMode(let mode):
        inbox.setMode(mode, now: now, into: &outcome)
    case .setAppState(let state):
        inbox.setAppState(state, now: now, into: &outcome)
    case .openBanner:
        inbox.openBanner(now: now, into: &outcome)
    case .pauseBanner(let reason, let on):
        let stay = inbox.bannerStay
        inbox.banner?.setPause(reason, on, at: now, stay: stay)
    case .dismissBanner:
        inbox.dismissBanner(now: now)
    case .reset(let app, let all):
        inbox.reset(app: app, all: all, now: now, into: &outcome)
    case .tick:
        if inbox.banner != nil, inbox.bannerPhase(at: now) == .gone { inbox.banner = nil }
    case .device(let command, let at):
        inbox.changeDevices(command, at: at, now: now, into: &outcome)
    case .key(let command):
        inbox.changeKeys(command, into: &outcome)
    }
    if let banner = inbox.banner,
        bannerBefore?.id != banner.message.id || bannerBefore?.count != banner.count
            || bannerBefore?.shownAt != banner.shownAt
    {
        outcome.publish(.bannerShown, Inbox.bannerFields(banner))
    }
    outcome.recordBadgeChanges()
    return outcome.effects()
}

/// What one event does, gathered while the reducer works and handed out in effect order.
///
/// One array holds the effects as they come, writes kept ahead of events, so a push costs one
/// allocation for its effects rather than a list per kind joined at the end.
struct Outcome {
    private var list: [Effect] = []
    /// How many of `list`'s first effects are store writes.
    private var writeCount = 0
    var reply: JSONObject?
    /// The ledgers of the first app whose badge the event touched, before and after it; the
    /// rest in `otherLedgers` (a push touches one app: no allocation for it).
    private var firstLedgers: (app: String, before: Badge, after: Badge)?
    private var otherLedgers: [String: (before: Badge, after: Badge)] = [:]

    mutating func write(_ change: StoreChange) {
        // A delivered push has five: insert, badge, its event, badge.changed, the reply.
        if list.isEmpty { list.reserveCapacity(6) }
        if writeCount == list.count {
            list.append(.store(change))
        } else {
            list.insert(.store(change), at: writeCount)
        }
        writeCount += 1
    }

    mutating func publish(_ topic: Topic, _ fields: JSONObject) { list.append(.publish(BusEvent(topic, fields))) }
    mutating func publish(_ topic: Topic, message: Message) { list.append(.publish(BusEvent(topic, message: message))) }

    /// Notes a change of `app`'s ledgers: what they were before the event (the first time)
    /// and what they are now.
    mutating func noteLedgers(of app: String, before: Badge, after: Badge) {
        guard let first = firstLedgers else {
            firstLedgers = (app, before, after)
            return
        }
        if first.app == app {
            firstLedgers?.after = after
        } else {
            otherLedgers[app] = (otherLedgers[app]?.before ?? before, after)
        }
    }

    /// One `.badge` write and one `badge.changed` per app whose ledgers moved, by app name.
    mutating func recordBadgeChanges() {
        guard let first = firstLedgers else { return }
        guard !otherLedgers.isEmpty else {
            recordBadgeChange(of: first.app, from: first.before, to: first.after)
            return
        }
        var touched = otherLedgers.map { (app: $0.key, before: $0.value.before, after: $0.value.after) }
        touched.append(first)
        touched.sort { $0.app < $1.app }
        for (app, before, after) in touched { recordBadgeChange(of: app, from: before, to: after) }
    }

    private mutating func recordBadgeChange(of app: String, from before: Badge, to badge: Badge) {
        guard badge != before else { return }
        write(.badge(app: app, badge))
        list.append(.publish(BusEvent(badgeChangedOf: app, badge)))
    }

    /// The effects in order: writes, events, then the reply.
    mutating func effects() -> [Effect] {
        if let reply { list.append(.reply(reply)) }
        reply = nil
        return list
    }
}

// MARK: - Mode and app state

extension Inbox {
    /// Turns push delivery on or off.
    ///
    /// Turning it on keeps the dropped count: it is the history of what was dropped while off,
    /// shown as "N dropped while off", not a gauge of the current mode. Held messages wait while
    /// push is off and are delivered when it comes back on in the foreground.
    mutating func setMode(_ mode: PushMode, now: Instant, into outcome: inout Outcome) {
        if mode != settings.mode {
            settings.mode = mode
            outcome.write(.settings(settings))
            outcome.publish(.modeChanged, ["mode": .string(mode.rawValue)])
            releaseHeldIfDue(now: now, into: &outcome)
        }
        outcome.reply = ["ok": true, "mode": .string(mode.rawValue)]
    }

    /// Moves the simulated app to `state` (seed 003).
    ///
    /// Leaving the foreground takes the banner with it (it is an in-app view, like STPushView).
    /// Becoming foreground delivers the held pass-through messages (Getui's offline queue). The
    /// launch notification stays marked when the app starts: it is history — the notification
    /// the app was launched with — and is replaced only by a newer APNs push while terminated.
    mutating func setAppState(_ state: AppState, now: Instant, into outcome: inout Outcome) {
        if state != settings.appState {
            settings.appState = state
            outcome.write(.settings(settings))
            outcome.publish(.appChanged, ["state": .string(state.rawValue)])
            if state != .foreground { banner = nil }
            releaseHeldIfDue(now: now, into: &outcome)
        }
        outcome.reply = ["ok": true, "state": .string(state.rawValue)]
    }
}

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
        outcome.reply = ["ok": true, "badge": .number(JSONNumber(totalBadge))]
    }

    /// `Esc` (the swipe): the banner slides up from where it is.
    mutating func dismissBanner(now: Instant) {
        guard var current = banner else { return }
        current.dismiss(at: now, stay: bannerStay)
        banner = current.phase(at: now, stay: bannerStay) == .gone ? nil : current
    }
}

// MARK: - Reset and the banner event

extension Inbox {
    /// `reset` (DESIGN §9): the app's (or every app's) messages, held queue, ledgers and unread
    /// count to nothing; push on, app foreground, nothing dropped, badge sync on. Mode, app state
    /// and the dropped count are one per inbox, so `app` resets them too. Ids keep counting up.
    mutating func reset(app: String?, all: Bool, now: Instant, into outcome: inout Outcome) {
        outcome.write(.reset(app: app, all: all, idFloor: nextId - 1))
        let apps = app.map { [$0] } ?? Set(badges.keys).union(unread.keys).sorted()
        for target in apps {
            let before = badge(of: target)
            badges[target] = nil
            unread[target] = nil
            outcome.noteLedgers(of: target, before: before, after: Badge())
        }
        removeHeld { app == nil || $0.app == app }
        if app == nil { launchId = nil }
        if all {
            devices = [:]
            providerKeys = [:]
        }
        if app == nil || banner?.message.app == app { banner = nil }
        let clean = InboxSettings()
        if settings != clean {
            let old = settings
            settings = clean
            outcome.write(.settings(settings))
            if old.mode != clean.mode { outcome.publish(.modeChanged, ["mode": .string(clean.mode.rawValue)]) }
            if old.appState != clean.appState {
                outcome.publish(.appChanged, ["state": .string(clean.appState.rawValue)])
            }
        }
        outcome.publish(.reset, ["app": .string(orNull: app), "all": .bool(all)])
        outcome.reply = ["ok": true, "badge": .number(JSONNumber(app.map { badge(of: $0).icon } ?? totalBadge))]
    }

    /// The `banner.shown` event's fields: the message's id, app, title and body, and `count`.
    static func bannerFields(_ banner: Banner) -> JSONObject {
        [
            "id": .number(JSONNumber(banner.message.id)), "app": .string(banner.message.app),
            "title": .string(orNull: banner.message.title), "body": .string(orNull: banner.message.body),
            "count": .number(JSONNumber(banner.count)),
        ]
    }
}
