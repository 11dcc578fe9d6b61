import Foundation
import PushCore

/// Plays a scenario in process: an in-memory inbox driven by the pure reducer on a manual clock.
/// An hour of pushes and banners takes milliseconds and gives the same result every run.
public struct InstantPlayer {
    public private(set) var inbox: Inbox
    /// The scenario's clock: the reducer's `now`, and the wall time messages are stamped with.
    public private(set) var now = Instant.zero
    let wallStart: Date
    let decoder: PushDecoder
    /// The messages as a store would hold them (the reducer's reads need them).
    private var messages: [Int64: Message] = [:]
    /// Ids that may be unread, per app (read ones are skipped when used): "read all" visits
    /// these, not every message, so a long scenario stays linear.
    private var maybeUnread: [String: [Int64]] = [:]
    /// The newest listed message, per app and over all (`read: "last"`).
    private var newest: [String: Int64] = [:]
    private var newestOverall: Int64?
    /// The newest listed message per app and collapse id: the one a push with that id
    /// replaces, as the server's store finds it (issue 13).
    private var collapsed: [CollapseKey: Int64] = [:]
    private var lastReply: JSONObject?
    private var lastDelivered: Message?
    private var feedback: [Int] = []

    public init(bannerSeconds: Double = Banner.defaultSeconds, wallStart: Date = Date(timeIntervalSince1970: 1_764_547_200),
                maxPayloadBytes: Int = 4096) {
        // One decoder for pushes and for held messages delivered later (the server's rule).
        decoder = PushDecoder(maxPayloadBytes: maxPayloadBytes)
        inbox = Inbox(bannerSeconds: bannerSeconds, decoder: decoder)
        self.wallStart = wallStart
    }

    /// Plays every step; the result of each expect.
    public mutating func play(_ scenario: Scenario) -> PlayResult {
        var result = PlayResult(scenario: scenario)
        for step in scenario.steps {
            advance(to: Instant(seconds: step.time))
            if let outcome = run(step) { result.expects.append(outcome) }
        }
        advance(to: Instant(seconds: scenario.duration))
        return result
    }

    /// Moves the clock, letting the banner's timeline run on at each of its deadlines.
    mutating func advance(to target: Instant) {
        while let deadline = inbox.nextDeadline(after: now), deadline <= target, deadline >= now {
            now = deadline
            apply(reduce(into: &inbox, .tick, now: now))
            if inbox.nextDeadline(after: now) == deadline { break }
        }
        if target > now { now = target }
    }

    /// Runs one step; for an expect, what it found.
    public mutating func run(_ step: Step) -> ExpectOutcome? {
        switch step.action {
        case .push(let push):
            let request = PushRequest(payloadText: push.payloadText, app: step.app, channel: push.channel, parsed: push.parsed)
            do {
                var decoded = try decoder.decode(request)
                if let collapseId = decoded.collapseId, decoded.channel == .apns {
                    decoded.replacing = replaced(by: CollapseKey(app: decoded.app, collapseId: collapseId))
                }
                let wall = wallStart.addingTimeInterval(Double(now.nanoseconds) / 1e9)
                lastReply = apply(reduce(into: &inbox, .push(decoded, at: wall), now: now))
            } catch {
                lastReply = Reply.error(error.message)
            }
        case .state(let state):
            apply(reduce(into: &inbox, .setAppState(state), now: now))
        case .mode(let mode):
            apply(reduce(into: &inbox, .setMode(mode), now: now))
        case .read(.all):
            apply(reduce(into: &inbox, .readAll(app: step.app), now: now))
        case .read(let what):
            apply(reduce(into: &inbox, .read(message(what, app: step.app)), now: now))
        case .delete(let what):
            apply(reduce(into: &inbox, .delete(message(what, app: step.app)), now: now))
        case .reset:
            apply(reduce(into: &inbox, .reset(app: step.app, all: false), now: now))
        case .badge(let change, let sync):
            apply(reduce(into: &inbox, .badge(app: step.app, change: change, sync: sync), now: now))
        case .badgePolicy(let policy):
            apply(reduce(into: &inbox, .setBadgePolicy(app: step.app ?? Inbox.defaultApp, policy), now: now))
        case .sdkBadge(let call):
            apply(reduce(into: &inbox, .sdkBadge(app: step.app ?? Inbox.defaultApp, call), now: now))
        case .wait(let seconds):
            advance(to: now + seconds)
        case .expect(let expectation):
            let observed = observe(app: step.app)
            feedback = []
            return ExpectOutcome(step: step, mismatches: expectation.mismatches(observed))
        case .none:
            break
        }
        return nil
    }

    /// The message a read or delete step means (none when there is no such message).
    private func message(_ what: ReadWhat, app: String?) -> [Message] {
        switch what {
        case .all: return []
        case .id(let id): return messages[id].map { [$0] } ?? []
        case .last:
            let id = app.map { newest[$0] } ?? newestOverall
            return id.flatMap { messages[$0] }.map { [$0] } ?? []
        }
    }

    /// The newest listed message of the app with the collapse id, if one is left.
    private mutating func replaced(by key: CollapseKey) -> Message? {
        if let id = collapsed[key], let message = messages[id], !message.held { return message }
        // Deleted (a rare, slow path): an older one with the id, as the store would find.
        collapsed[key] = messages.values
            .filter { !$0.held && $0.app == key.app && $0.collapseId == key.collapseId }.map(\.id).max()
        return collapsed[key].flatMap { messages[$0] }
    }

    /// Everything an expect can check, now.
    public func observe(app: String?) -> Observed {
        var seen = Observed()
        let badge = app.map { inbox.badge(of: $0) } ?? Badge(icon: inbox.totalBadge, server: inbox.totalServerBadge)
        seen.badge = badge.icon
        seen.serverBadge = badge.server
        seen.unread = app.map { inbox.unread[$0] ?? 0 } ?? inbox.totalUnread
        seen.held = inbox.held.filter { app == nil || $0.app == app }.count
        seen.dropped = inbox.dropped
        if let banner = inbox.banner, inbox.bannerIsUp(at: now) {
            seen.banner = .some(banner.message.title ?? banner.message.body)
        } else {
            seen.banner = .some(nil)
        }
        if let reply = lastReply {
            seen.delivered = .some(reply["delivered"]?.boolValue ?? false)
            seen.reason = .some(Self.reason(of: reply))
        }
        seen.feedback = feedback
        seen.callback = .some(lastDelivered.map { inbox.callback(for: $0) })
        return seen
    }

    /// Why the last push was not delivered: the reply's `reason`, `held`, or its error.
    static func reason(of reply: JSONObject) -> String? {
        if let reason = reply["reason"]?.stringValue { return reason }
        if reply["held"] == .bool(true) { return "held" }
        return reply["error"]?.stringValue
    }

    /// Carries out the effects on the in-memory store; returns the reply.
    @discardableResult
    private mutating func apply(_ effects: [Effect]) -> JSONObject? {
        var reply: JSONObject?
        for effect in effects {
            switch effect {
            case .store(let change): write(change)
            case .publish(let event):
                // Only feedback is read here: a message event's fields would build its wire
                // object (the payload parsed again) — the delivered message is noted as written.
                if event.topic == .feedback, let action = event.fields["action"]?.intValue { feedback.append(action) }
            case .reply(let object): reply = object
            }
        }
        return reply
    }

    private mutating func write(_ change: StoreChange) {
        switch change {
        case .insert(let message):
            messages[message.id] = message
            if !message.held { listed(message) }
        case .markRead(let ids): for id in ids { messages[id]?.read = true }
        case .markAllRead(let app):
            for target in app.map({ [$0] }) ?? Array(maybeUnread.keys) {
                for id in maybeUnread[target] ?? [] { messages[id]?.read = true }
                maybeUnread[target] = nil
            }
        case .delete(let ids):
            for id in ids { messages[id] = nil }
            if ids.contains(where: { $0 == newestOverall || newest.values.contains($0) }) { findNewest() }
        case .release(let ids):
            for id in ids {
                messages[id]?.held = false
                messages[id]?.offline = true
                if let message = messages[id] { listed(message) }
            }
        case .setLaunch(let id):
            for (other, message) in messages where message.launch && other != id { messages[other]?.launch = false }
            messages[id]?.launch = true
        case .reset(let app, _, _):
            messages = messages.filter { app != nil && $0.value.app != app }
            collapsed = collapsed.filter { app != nil && $0.key.app != app }
            if let app { maybeUnread[app] = nil } else { maybeUnread = [:] }
            findNewest()
        case .replace(let message, _):
            // A collapse-id replacement (issue 13): the same id, the new content.
            messages[message.id] = message
            if !message.read { listed(message) }
        case .expire(let ids):
            for id in ids {
                messages[id]?.held = false
                messages[id]?.read = true
                messages[id]?.expired = true
            }
        case .badge, .settings:
            break
        case .device, .removeDevice, .providerKey, .removeProviderKey:
            // Devices and keys live in the inbox itself; the player keeps no copy of them.
            break
        }
    }

    /// A message now in the list: unread, and perhaps the newest.
    private mutating func listed(_ message: Message) {
        lastDelivered = message
        if let collapseId = message.collapseId {
            let key = CollapseKey(app: message.app, collapseId: collapseId)
            collapsed[key] = max(collapsed[key] ?? 0, message.id)
        }
        if !message.read { maybeUnread[message.app, default: []].append(message.id) }
        newest[message.app] = max(newest[message.app] ?? 0, message.id)
        newestOverall = max(newestOverall ?? 0, message.id)
    }

    /// The newest listed messages again, after the newest went (a rare, slow path).
    private mutating func findNewest() {
        newest = [:]
        newestOverall = nil
        for message in messages.values where !message.held {
            newest[message.app] = max(newest[message.app] ?? 0, message.id)
            newestOverall = max(newestOverall ?? 0, message.id)
        }
    }
}

/// An app's collapse id.
struct CollapseKey: Hashable {
    var app: String
    var collapseId: String
}

/// One expect's outcome.
public struct ExpectOutcome: Sendable, Equatable {
    public var step: Step
    public var mismatches: [Mismatch]
    public var passed: Bool { mismatches.isEmpty }
}

/// A played scenario: every expect's outcome.
public struct PlayResult: Sendable, Equatable {
    public var scenario: Scenario
    public var expects: [ExpectOutcome] = []
    public var seconds: Double = 0
    public var passed: Bool { expects.allSatisfy(\.passed) }
    public var failures: [ExpectOutcome] { expects.filter { !$0.passed } }

    public init(scenario: Scenario) { self.scenario = scenario }
}
