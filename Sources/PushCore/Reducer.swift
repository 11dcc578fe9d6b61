import Foundation
import PushJSON

/// The inbox reducer: the one place where pushes, reads, badge commands, mode and app-state
/// switches and the banner's timeline are decided. Pure: the world is changed only
/// through the returned effects, carried out in order by the loop.
///
/// Effects come in a fixed order: store writes first (one transaction), then bus events, then
/// the reply — so nothing is published or answered before it is committed. Each app whose
/// ledgers moved gets one `.badge` write and one `badge.changed`, and each whose unread count
/// moved one `.unread` write, with the final values (see `Outcome`). The reply is a typed
/// `Reply`; the wire layer (`Reply+Wire.swift`) writes it.
public func reduce(into inbox: inout Inbox, _ event: Event, now: Instant) -> [Effect] {
    var outcome = Outcome()
    let bannerBefore = inbox.banner.map { (id: $0.message.id, count: $0.count, shownAt: $0.shownAt) }
    switch event {
    case .push(let push, let at):
        inbox.receive(push, at: at, now: now, into: &outcome)
        if !push.also.isEmpty { inbox.receiveAlso(push.also, at: at, now: now, into: &outcome) }
    case .read(let messages):
        inbox.open(messages, into: &outcome)
        outcome.reply = .badge(inbox.totalBadge)
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
    case .activityPush(let push, let at):
        inbox.receive(push, at: at, into: &outcome)
    case .channel(let command, let at):
        inbox.changeChannels(command, at: at, into: &outcome)
    case .broadcast(let push, let at):
        inbox.receive(push, at: at, into: &outcome)
    case .dismissActivity(let id, let at):
        inbox.dismissActivity(id: id, at: at, into: &outcome)
    }
    if let banner = inbox.banner,
        bannerBefore?.id != banner.message.id || bannerBefore?.count != banner.count
            || bannerBefore?.shownAt != banner.shownAt
    {
        outcome.publish(BusEvent(bannerShown: banner))
    }
    outcome.recordCounts(of: inbox)
    return outcome.effects()
}
