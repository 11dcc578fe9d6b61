import Foundation
import PushCore
import PushGateway
import PushJSON

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
    /// What the last push step came to.
    private var lastPush: PushVerdict?
    private var lastDelivered: Message?
    private var feedback: [Int] = []
    /// The gateway's routes, as `pushdeck serve --gateway` runs them (devices open).
    let routes = ProviderRoutes(devices: .open)

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
        case .push(let push) where push.via != .socket:
            lastPush = gateway(push, app: step.app)
        case .push(let push):
            lastPush = handle(.push(PushRequest(payloadText: push.payloadText, app: step.app, channel: push.channel)))
                .map(PushVerdict.init)
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

    /// The scenario's wall time: what messages are stamped with and what the gateway's routes see.
    var wallNow: Date { wallStart.addingTimeInterval(Double(now.nanoseconds) / 1e9) }

    /// A request as the server's loop handles it (a socket push, or what the gateway made of
    /// a vendor's request); its reply.
    mutating func handle(_ request: Request) -> Reply? {
        guard case .push(let push) = request else {
            return .error("only pushes are played through the gateway")
        }
        do {
            var decoded = try decoder.decode(push)
            if let collapseId = decoded.collapseId, decoded.channel == .apns {
                decoded.replacing = replaced(by: CollapseKey(app: decoded.app, collapseId: collapseId))
            }
            return apply(reduce(into: &inbox, .push(decoded, at: wallNow), now: now))
        } catch {
            return .error(error.message)
        }
    }

    /// A push as if through the APNs or JPush gateway: the HTTP request that gateway would get,
    /// decided by the very routes the running gateway uses. A refusal is the step's reply with
    /// `delivered: false` and the vendor's reason; an accepted request is handled as a push.
    mutating func gateway(_ push: ScenarioPush, app: String?) -> PushVerdict? {
        let request = Self.gatewayRequest(push, app: app ?? Inbox.defaultApp, now: wallNow)
        switch routes.decide(request, context: GatewayContext(inbox: inbox, now: wallNow)) {
        case .respond(let response):
            return Self.refusal(response)
        case .request(let request, _):
            return handle(request).map(PushVerdict.init)
        case .requests(let requests, _):
            var reply: Reply? = .error("the gateway made no push of the request")
            for request in requests { reply = handle(request) }
            return reply.map(PushVerdict.init)
        }
    }

    /// The HTTP request a backend would send: `POST /3/device/{token}` with the step's headers,
    /// or `POST /v3/push` with HTTP Basic `app:secret`. Headers the step leaves out that any
    /// backend sends are added: an APNs provider token (well-formed, unsigned: with no key
    /// registered the gateway accepts it) and `apns-topic` = the step's app; JPush's
    /// `authorization`. A header the step gives is sent exactly as given.
    static func gatewayRequest(_ push: ScenarioPush, app: String, now: Date) -> HTTPRequest {
        var headers = push.headers
        func lacks(_ name: String) -> Bool { !headers.contains { $0.name == name } }
        let path: String
        if push.via == .jpush {
            path = JPushRoutes.pushPath
            if lacks("authorization") {
                headers.append(HTTPHeader("authorization", "Basic " + Data("\(app):pushdeck-scenario".utf8).base64EncodedString()))
            }
        } else {
            path = APNsRoutes.pathPrefix + (push.token ?? "")
            if lacks("authorization") { headers.append(HTTPHeader("authorization", providerToken(issuedAt: now))) }
            if lacks("apns-topic") { headers.append(HTTPHeader("apns-topic", app)) }
        }
        return HTTPRequest(method: "POST", path: path, headers: headers, body: Array(push.payloadText.utf8), version: .http2, isTLS: false)
    }

    /// `bearer` and a well-formed ES256 JWT issued `issuedAt`, its signature zeros.
    static func providerToken(issuedAt: Date) -> String {
        let header = JSON.object(["alg": "ES256", "kid": "PUSHDECK01"]).compactText
        let claims = JSON.object(["iss": "PUSHDECK01", "iat": .number(JSONNumber(Int64(issuedAt.timeIntervalSince1970)))]).compactText
        return "bearer " + [Array(header.utf8), Array(claims.utf8), [UInt8](repeating: 0, count: 64)]
            .map(ProviderToken.base64URL).joined(separator: ".")
    }

    /// A gateway's refusal as the step's verdict: not delivered, the vendor's reason (APNs
    /// `reason`; JPush's error code, as text; else the HTTP status).
    static func refusal(_ response: HTTPResponse) -> PushVerdict {
        var reason = "HTTP \(response.status)"
        if case .object(let body)? = try? JSON.parse(response.body) {
            if let text = body["reason"]?.stringValue {
                reason = text
            } else if case .object(let error)? = body["error"], let code = error["code"]?.intValue {
                reason = String(code)
            }
        }
        return PushVerdict(delivered: false, reason: reason)
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
        if let lastPush {
            seen.delivered = .some(lastPush.delivered)
            seen.reason = .some(lastPush.reason)
        }
        seen.feedback = feedback
        seen.callback = .some(lastDelivered.map { inbox.callback(for: $0) })
        return seen
    }

    /// Carries out the effects on the in-memory store; returns the reply.
    @discardableResult
    private mutating func apply(_ effects: [Effect]) -> Reply? {
        var reply: Reply?
        for effect in effects {
            switch effect {
            case .store(let change): write(change)
            case .publish(let event):
                // Only feedback is read here: a message event's fields would build its wire
                // object (the payload parsed again) — the delivered message is noted as written.
                if event.topic == .feedback, let action = event.fields["action"]?.intValue { feedback.append(action) }
            case .reply(let typed): reply = typed
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
        case .replace(let message):
            // A collapse-id replacement (issue 13): the same id, the new content.
            messages[message.id] = message
            if !message.read { listed(message) }
        case .expire(let ids):
            for id in ids {
                messages[id]?.held = false
                messages[id]?.read = true
                messages[id]?.expired = true
            }
        case .badge, .unread, .settings:
            // The ledgers and unread counts live in the inbox itself.
            break
        case .device, .removeDevice, .providerKey, .removeProviderKey, .getuiRequestId:
            // Devices, keys and Getui request ids live in the inbox itself; the player keeps no copy of them.
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
