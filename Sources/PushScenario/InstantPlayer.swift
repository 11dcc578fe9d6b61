import Foundation
import PushCore
import PushGateway
import PushJSON
import PushStore

/// Plays a scenario in process: the server's own engine (`Engine`) over an in-memory store
/// (`MemoryStore`) on a manual clock. Every step is the request the live player would send, so
/// a rule holds the same played either way; an hour of pushes and banners takes milliseconds
/// and gives the same result every run.
public struct InstantPlayer {
    public private(set) var inbox: Inbox
    /// The scenario's clock: the reducer's `now`, and the wall time messages are stamped with.
    public private(set) var now = Instant.zero
    let wallStart: Date
    /// The messages, as the server's store would hold them.
    public let store = MemoryStore()
    /// What the last push step came to.
    private var lastPush: PushVerdict?
    /// The message of the last delivery event: an expect's `callback` is about it, as stored now.
    private var lastDelivered: Int64?
    private var feedback: [Int] = []
    /// The gateway's routes, as `pushdeck serve --gateway` runs them (devices open).
    let routes = ProviderRoutes(devices: .open)

    public init(bannerSeconds: Double = Banner.defaultSeconds, wallStart: Date = Date(timeIntervalSince1970: 1_764_547_200),
                maxPayloadBytes: Int = 4096) {
        // One decoder for pushes and for held messages delivered later (the server's rule).
        inbox = Inbox(bannerSeconds: bannerSeconds, decoder: PushDecoder(maxPayloadBytes: maxPayloadBytes))
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
            carryOut(reduce(into: &inbox, .tick, now: now))
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
            lastPush = PushVerdict(handle(.push(PushRequest(payloadText: push.payloadText, app: step.app, channel: push.channel))))
        case .state(let state):
            handle(.app(state))
        case .mode(let mode):
            handle(.mode(mode))
        case .read(.all):
            handle(.read(.all(app: step.app)))
        case .read(let what):
            if let id = messageId(what, app: step.app) { handle(.read(.ids([id]))) }
        case .delete(let what):
            if let id = messageId(what, app: step.app) { handle(.delete([id])) }
        case .reset:
            handle(.reset(app: step.app, all: false))
        case .badge(let change, let sync):
            handle(.badge(app: step.app, change: change, sync: sync))
        case .badgePolicy(let policy):
            handle(.badgePolicy(app: step.app ?? Inbox.defaultApp, policy))
        case .sdkBadge(let call):
            handle(.sdkBadge(app: step.app ?? Inbox.defaultApp, call))
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

    /// A request handled as the server's loop handles it — the engine over the in-memory
    /// store — with its effects carried out; its reply.
    @discardableResult
    mutating func handle(_ request: Request) -> Reply {
        let handled = Engine.handle(request, inbox: &inbox, store: store, now: now, wallNow: wallNow)
        carryOut(handled.effects)
        return handled.reply
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
            return PushVerdict(handle(request))
        case .requests(let requests, _):
            var reply: Reply = .error("the gateway made no push of the request")
            for request in requests { reply = handle(request) }
            return PushVerdict(reply)
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
        var body = Array(push.payloadText.utf8)
        if push.via == .fcm {
            // `messages:send` of the step's app as the project (its unknown token registered to
            // that app), the payload the `message`; the step's token its target when it has none.
            path = "/v1/projects/\(app)/messages:send"
            if lacks("authorization") { headers.append(HTTPHeader("authorization", "Bearer pushdeck-scenario")) }
            var message = (try? JSON.parse(body))?.objectValue ?? [:]
            if let token = push.token, message["token"] == nil, message["topic"] == nil, message["condition"] == nil {
                message["token"] = .string(token)
            }
            body = Array(JSON.object(["message": .object(message)]).compactText.utf8)
        } else if push.via == .jpush {
            path = JPushRoutes.pushPath
            if lacks("authorization") {
                headers.append(HTTPHeader("authorization", "Basic " + Data("\(app):pushdeck-scenario".utf8).base64EncodedString()))
            }
        } else {
            path = APNsRoutes.pathPrefix + (push.token ?? "")
            if lacks("authorization") { headers.append(HTTPHeader("authorization", providerToken(issuedAt: now))) }
            if lacks("apns-topic") { headers.append(HTTPHeader("apns-topic", app)) }
        }
        return HTTPRequest(method: "POST", path: path, headers: headers, body: body, version: .http2, isTLS: false)
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
            } else if case .object(let error)? = body["error"], case .string(let status)? = error["status"] {
                // Google's error (FCM): FCM's errorCode when it gives one, else the gRPC status.
                let fcm = error["details"]?.arrayValue?.compactMap(\.objectValue)
                    .first { $0["@type"] == "type.googleapis.com/google.firebase.fcm.v1.FcmError" }
                reason = fcm?["errorCode"]?.stringValue ?? status
            } else if case .object(let error)? = body["error"], let code = error["code"]?.intValue {
                reason = String(code)
            }
        }
        return PushVerdict(delivered: false, reason: reason)
    }

    /// The id a read or delete step means: the scenario's own (its Nth message), or the newest
    /// listed message of the step's app (of every app without one). None when there is none.
    private func messageId(_ what: ReadWhat, app: String?) -> Int64? {
        switch what {
        case .all: return nil
        case .id(let id): return id
        case .last: return store.page(ListQuery(limit: 1, app: app)).first?.id
        }
    }

    /// Everything an expect can check, now: the inbox's report (the rule the server's `state`
    /// reply follows too), and what the last push step came to.
    public func observe(app: String?) -> Observed {
        let message = lastDelivered.flatMap { store.messages(ids: [$0], includeHeld: false).first }
        var seen = Observed(inbox.report(app: app, at: now, message: message))
        if let lastPush {
            seen.delivered = .some(lastPush.delivered)
            seen.reason = .some(lastPush.reason)
        }
        seen.feedback = feedback
        return seen
    }

    /// Carries out effects: writes to the in-memory store; of the bus events, feedback and the
    /// message each delivery event carries (the last one is what `callback` is about), as the
    /// live player reads them from its subscription.
    private mutating func carryOut(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .store(let change):
                store.apply(change)
            case .publish(let event):
                switch event.topic {
                case .feedback: if let action = event.fields["action"]?.intValue { feedback.append(action) }
                case .messageReceived, .remoteReceived: if let message = event.message { lastDelivered = message.id }
                default: break
                }
            case .reply, .forward:
                break
            }
        }
    }
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
