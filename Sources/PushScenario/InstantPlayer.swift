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
        inbox.faults.vocabulary = ProviderRoutes.faultVocabulary
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
        case .fault(let spec):
            handle(.fault(.add(spec)))
        case .activity(.dismiss(let id)):
            if let id = id ?? newestActivity(app: step.app) { handle(.activity(.dismiss(id: id))) }
        case .badge(let change, let sync):
            handle(.badge(app: step.app, change: change, sync: sync))
        case .badgePolicy(let policy):
            handle(.badgePolicy(app: step.app ?? Inbox.defaultApp, policy))
        case .sdkBadge(let call):
            handle(.sdkBadge(app: step.app ?? Inbox.defaultApp, call))
        case .mute(let seconds):
            handle(.mute(app: step.app ?? Inbox.defaultApp, seconds: seconds))
        case .unmute:
            handle(.unmute(app: step.app ?? Inbox.defaultApp))
        case .wait(let seconds):
            advance(to: now + seconds)
        case .expect(let expectation):
            var observed = observe(app: step.app)
            if !expectation.requestConditions.isEmpty { observed.requestLog = inbox.requestLog.select(RequestLogQuery()) }
            if expectation.checksActivity {
                observed.activities = inbox.activities.all.filter { step.app == nil || $0.app == step.app }
                    .map { ObservedActivity($0, at: wallNow) }
            }
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
        var token: String?
        if push.via == .getui && !push.headers.contains(where: { $0.name == "token" }) {
            // Getui's token first, from `/auth` of the step's app as the appId: a request of its
            // own, logged as the running gateway logs it.
            let auth = Self.getuiAuthRequest(appId: app ?? Inbox.defaultApp, appKey: Self.madeUpSecret, masterSecret: Self.madeUpSecret, now: wallNow)
            switch exchange(auth) {
            case .answered(let answer):
                guard let issued = Self.getuiToken(answer) else { return Self.refusal(answer) }
                token = issued
            case .handled(let verdict):
                return verdict ?? PushVerdict(delivered: false, reason: "Getui's /auth made a push")
            }
        }
        let request = Self.gatewayRequest(push, app: app ?? Inbox.defaultApp, now: wallNow, getuiToken: token)
        switch exchange(request) {
        case .answered(let response): return Self.refusal(response)
        case .handled(let verdict): return verdict
        }
    }

    /// What one gateway request came to: an answer of the routes alone (a refusal, or Getui's
    /// token), or the verdict of the push it was handled as.
    private enum Exchanged {
        case answered(HTTPResponse)
        case handled(PushVerdict?)
    }

    /// One request faulted, decided and logged as the running gateway does it
    /// (`ProviderExchange`); each is a request on a connection of its own.
    private mutating func exchange(_ request: HTTPRequest) -> Exchanged {
        let seq = inbox.requestLog.arrive()
        let receivedAt = wallNow
        let arrival = ProviderExchange.arrive(request, routes: routes, seq: seq, receivedAt: receivedAt) { vendor, summary in
            inbox.faults.isEmpty ? nil : inbox.faults.fire(vendor: vendor, path: request.path, streamIndex: 1, now: receivedAt, summary: summary)
        }
        var fault: Int?
        switch arrival {
        case .decide(let id, let delay):
            fault = id
            if let delay { advance(to: now + Double(delay) / 1000) }
        case .refuse(let exchange, let delay):
            if let delay { advance(to: now + Double(delay) / 1000) }
            guard case .respond(let response) = exchange.decision else { return .handled(nil) }
            log(exchange.record(answer: response, at: wallNow))
            return .answered(response)
        case .close(let record), .goaway(_, let record):
            log(record)
            return .handled(PushVerdict(delivered: false, reason: "no answer: the connection was closed"))
        }
        let exchange = ProviderExchange.decide(
            request, routes: routes, context: GatewayContext(inbox: inbox, now: wallNow), seq: seq, receivedAt: receivedAt, fault: fault)
        switch exchange.decision {
        case .respond(let response):
            log(exchange.record(answer: response, at: wallNow))
            return .answered(response)
        case .request(let request, let answer):
            let reply = handle(request)
            log(exchange.record(answer: answer(reply), at: wallNow))
            return .handled(PushVerdict(reply))
        case .expect:
            // A push step names a vendor's path, never the control API's.
            return .handled(PushVerdict(.error("the gateway took the step for a control API request")))
        case .requests(let requests, let answer):
            var replies: [Reply] = []
            for request in requests { replies.append(handle(request)) }
            log(exchange.record(answer: answer(replies), at: wallNow))
            return .handled(PushVerdict(replies.last ?? .error("the gateway made no push of the request")))
        }
    }

    /// Logs a gateway step's request as the server logs the gateway's (its bus event carried out).
    private mutating func log(_ record: consuming ProviderRequestRecord) {
        carryOut(Engine.logProviderRequest(record, inbox: &inbox))
    }

    /// The HTTP request a backend would send: `POST /3/device/{token}` with the step's headers,
    /// or `POST /v3/push` with HTTP Basic `app:secret`. Headers the step leaves out that any
    /// backend sends are added: an APNs provider token (well-formed, unsigned: with no key
    /// registered the gateway accepts it) and `apns-topic` = the step's app; JPush's
    /// `authorization`. A header the step gives is sent exactly as given.
    static func gatewayRequest(_ push: ScenarioPush, app: String, now: Date, getuiToken: String? = nil) -> HTTPRequest {
        var headers = push.headers
        func lacks(_ name: String) -> Bool { !headers.contains { $0.name == name } }
        let path: String
        var body = Array(push.payloadText.utf8)
        if push.via == .getui {
            // Getui's push API v2 under the step's app as the appId: `push/all` for the audience
            // `all`, `push/single/alias` for an alias, else `push/single/cid` (the step's token
            // the cid when the body names none); a `request_id` of its own when it has none.
            var message = (try? JSON.parse(body))?.objectValue ?? [:]
            if message["audience"] == nil, let token = push.token { message["audience"] = ["cid": [.string(token)]] }
            if message["request_id"] == nil {
                message["request_id"] = .string("pd" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24).lowercased())
            }
            let endpoint = message["audience"] == "all" ? "push/all"
                : message["audience"]?.objectValue?["alias"] != nil ? "push/single/alias" : "push/single/cid"
            path = GetuiRoutes.pathPrefix + app + "/" + endpoint
            if let getuiToken, lacks("token") { headers.append(HTTPHeader("token", getuiToken)) }
            body = Array(JSON.object(message).compactText.utf8)
        } else if push.via == .fcm {
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

    /// The appKey and master secret a scenario signs Getui's `/auth` with: with no Getui key
    /// registered the gateway takes any well-formed sign.
    static let madeUpSecret = "pushdeck-scenario"

    /// Getui's `POST /v2/{appId}/auth`: `sign` = sha256(appkey + timestamp + mastersecret) in hex,
    /// `timestamp` the time in milliseconds (Getui's REST API v2, 鉴权).
    static func getuiAuthRequest(appId: String, appKey: String, masterSecret: String, now: Date) -> HTTPRequest {
        let timestamp = String(Int64((now.timeIntervalSince1970 * 1000).rounded()))
        let body = JSON.object([
            "sign": .string(GetuiSessions.sha256Hex(appKey + timestamp + masterSecret)), "timestamp": .string(timestamp),
            "appkey": .string(appKey),
        ])
        return HTTPRequest(
            method: "POST", path: GetuiRoutes.pathPrefix + appId + "/auth", headers: [HTTPHeader("content-type", "application/json;charset=utf-8")],
            body: Array(body.compactText.utf8), version: .http1_1, isTLS: false)
    }

    /// The token of Getui's `/auth` answer (`{"code":0,"data":{"token":…}}`), nil for a refusal.
    static func getuiToken(_ response: HTTPResponse) -> String? {
        guard response.status == 200, case .object(let answer)? = try? JSON.parse(response.body), answer["code"] == 0,
              case .string(let token)? = answer["data"]?.objectValue?["token"] else { return nil }
        return token
    }

    /// `bearer` and a well-formed ES256 JWT issued `issuedAt`, its signature zeros.
    static func providerToken(issuedAt: Date) -> String {
        let header = JSON.object(["alg": "ES256", "kid": "PUSHDECK01"]).compactText
        let claims = JSON.object(["iss": "PUSHDECK01", "iat": .number(JSONNumber(Int64(issuedAt.timeIntervalSince1970)))]).compactText
        return "bearer " + [Array(header.utf8), Array(claims.utf8), [UInt8](repeating: 0, count: 64)]
            .map(ProviderToken.base64URL).joined(separator: ".")
    }

    /// A gateway's refusal as the step's verdict: not delivered, the vendor's reason (APNs
    /// `reason`; JPush's and Getui's error code, as text; else the HTTP status).
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
            } else if let code = body["code"]?.intValue, code != 0 {
                // Getui's `{"code":…,"msg":…}`.
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

    /// The id of the newest (last started) Live Activity of `app` (of every app without one).
    private func newestActivity(app: String?) -> String? {
        inbox.activities.all.last { app == nil || $0.app == app }?.id
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
                // Only these two topics are read (the others' bodies are never built here).
                switch event.topic {
                case .feedback: if case .feedback(let notice)? = event.body { feedback.append(notice.action) }
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
