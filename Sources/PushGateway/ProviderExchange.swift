import Foundation
import PushCore

/// The one place a whole provider request is decided and logged: the routes' decision, and the
/// record the request log gets once the request is answered. The live gateway (`Gateway.route`)
/// and the instant player's gateway steps both go through it, so both log the same.
public struct ProviderExchange: Sendable {
    /// What the routes decided.
    public let decision: GatewayDecision
    /// What logging the answer takes: all a closure waiting for the answer keeps (the decision
    /// holds the decoded push, and its answer closure).
    public let log: PendingLog

    /// A decided request's record so far, to be completed by its answer.
    public struct PendingLog: Sendable {
        /// The record so far: everything but the answer.
        fileprivate let pending: ProviderRequestRecord
        fileprivate let routes: any GatewayRoutes

        /// The record of the request, answered with `response` at `answeredAt`.
        public func record(answer response: HTTPResponse, at answeredAt: Date) -> ProviderRequestRecord {
            ProviderExchange.answered(pending, response, answer: routes.summarize(answer: response, path: pending.path), at: answeredAt)
        }

        /// The record of a request that got no answer (its connection was closed or went away):
        /// status 0.
        public func unanswered(at now: Date) -> ProviderRequestRecord {
            var record = pending
            record.answeredAt = max(now, pending.receivedAt)
            return record
        }
    }

    private init(decision: GatewayDecision, pending: ProviderRequestRecord, routes: any GatewayRoutes) {
        self.decision = decision
        self.log = PendingLog(pending: pending, routes: routes)
    }

    /// Decides `request` (its `seq` the log's `arrive()`, `receivedAt` the wall clock at its
    /// arrival; `fault` the latency fault that delayed it, if one did).
    public static func decide(
        _ request: HTTPRequest, routes table: any GatewayRoutes, context: GatewayContext, seq: Int, receivedAt: Date, fault: Int? = nil
    ) -> ProviderExchange {
        // The vendor's routes, looked up once for the decision, the summary and the answer's.
        let routes = table.routes(for: request.path)
        let decision = routes.decide(request, context: context)
        let summary = routes.summarize(request, decision: decision)
        var pending = Self.record(of: request, summary, seq: seq, receivedAt: receivedAt)
        pending.fault = fault
        return ProviderExchange(decision: decision, pending: pending, routes: routes)
    }

    /// What the armed faults make of a request that has just arrived, before its vendor
    /// decides anything: `fire` is asked with the request's vendor and (only when a fault
    /// names a token or app) its summary, read from the request alone. A faulted request
    /// reaches nothing but the log: no message, no device, no id used up.
    public static func arrive(
        _ request: HTTPRequest, routes table: any GatewayRoutes, seq: Int, receivedAt: Date,
        fire: (Via, () -> (tokens: [String], app: String?)) -> FiredFault?
    ) -> ProviderArrival {
        let routes = table.routes(for: request.path)
        let vendor = routes.vendor(of: request.path)
        guard let fired = fire(vendor, { routes.target(of: request) }) else { return .decide(fault: nil, delayMs: nil) }
        func faulted(answer: HTTPResponse = HTTPResponse(status: 0)) -> ProviderExchange {
            var pending = Self.record(of: request, routes.summarize(request, decision: nil), seq: seq, receivedAt: receivedAt)
            pending.fault = fired.id
            return ProviderExchange(decision: .respond(answer), pending: pending, routes: routes)
        }
        switch fired.action {
        case .latency(let milliseconds):
            return .decide(fault: fired.id, delayMs: milliseconds)
        case .status(let status, let reason, let retryAfter, let latency):
            let response = routes.faultResponse(status, reason: reason, retryAfter: retryAfter, to: request, now: receivedAt)
            return .refuse(faulted(answer: response), delayMs: latency)
        case .close:
            return .close(faulted().unanswered(at: receivedAt))
        case .goaway(_, let shutdown):
            return .goaway(shutdown: shutdown, faulted().unanswered(at: receivedAt))
        }
    }

    /// The record of a request that got no answer (its connection was closed or went away):
    /// status 0.
    public func unanswered(at now: Date) -> ProviderRequestRecord { log.unanswered(at: now) }

    /// APNs' GOAWAY debug data when its server shuts down ("Handling error responses from
    /// APNs": reason Shutdown, "The server is shutting down").
    public static let shutdownDebugData = Array(#"{"reason":"Shutdown"}"#.utf8)

    /// The record of the request, answered with `response` at `answeredAt`.
    public func record(answer response: HTTPResponse, at answeredAt: Date) -> ProviderRequestRecord {
        log.record(answer: response, at: answeredAt)
    }

    /// The record of a request the transport refused (`response`, its vendor's answer): what
    /// came of it, summarised from the request alone.
    public static func record(
        refusal: HTTPRefusal, response: HTTPResponse, routes: any GatewayRoutes, seq: Int, at now: Date
    ) -> ProviderRequestRecord {
        let summary = routes.summarize(refusal.request, decision: nil)
        let pending = record(of: refusal.request, summary, seq: seq, receivedAt: now)
        return answered(pending, response, answer: routes.summarize(answer: response, path: refusal.request.path), at: now)
    }

    private static func record(of request: HTTPRequest, _ summary: RequestSummary, seq: Int, receivedAt: Date) -> ProviderRequestRecord {
        ProviderRequestRecord(
            seq: seq, receivedAt: receivedAt, answeredAt: receivedAt, vendor: summary.vendor, method: request.method,
            path: request.path, tokens: summary.tokens, app: summary.app, status: 0, ids: summary.ids,
            notificationKey: summary.notificationKey)
    }

    fileprivate static func answered(
        _ pending: ProviderRequestRecord, _ response: HTTPResponse, answer: AnswerSummary, at answeredAt: Date
    ) -> ProviderRequestRecord {
        var record = pending
        record.answeredAt = max(answeredAt, pending.receivedAt)
        record.status = response.status
        record.reason = answer.reason
        // RFC 9110 §10.2.3: retry-after is delay-seconds (or a date, which no vendor here sends).
        record.retryAfter = response.headers.first { $0.name == "retry-after" }.flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
        // The request's own ids first; most records have none, and then the answer's are taken
        // whole (merging key by key hashed each and grew a dictionary a push).
        if record.ids.isEmpty {
            record.ids = answer.ids
        } else {
            for (key, value) in answer.ids where record.ids[key] == nil { record.ids[key] = value }
        }
        return record
    }
}

/// What the armed faults make of a request as it arrives (`ProviderExchange.arrive`).
public enum ProviderArrival: Sendable {
    /// No fault, or a latency fault: decide it (after `delayMs`), its record naming `fault`.
    case decide(fault: Int?, delayMs: Int?)
    /// A fault's refusal in the vendor's shape, answered after `delayMs` when given.
    case refuse(ProviderExchange, delayMs: Int?)
    /// Drop the connection, no answer (HTTP/1.1's goaway too); the request's record.
    case close(ProviderRequestRecord)
    /// HTTP/2 GOAWAY leaving this stream and later ones out; the request's record.
    case goaway(shutdown: Bool, ProviderRequestRecord)
}
