import Foundation
import PushCore

/// The one place a whole provider request is decided and logged: the routes' decision, and the
/// record the request log gets once the request is answered. The live gateway (`Gateway.route`)
/// and the instant player's gateway steps both go through it, so both log the same.
public struct ProviderExchange: Sendable {
    /// What the routes decided.
    public let decision: GatewayDecision
    /// The record so far: everything but the answer.
    private let pending: ProviderRequestRecord
    private let request: HTTPRequest
    private let routes: any GatewayRoutes

    /// Decides `request` (its `seq` the log's `arrive()`, `receivedAt` the wall clock at its arrival).
    public static func decide(
        _ request: HTTPRequest, routes: any GatewayRoutes, context: GatewayContext, seq: Int, receivedAt: Date
    ) -> ProviderExchange {
        let decision = routes.decide(request, context: context)
        let summary = routes.summarize(request, decision: decision)
        var bodiless = request
        bodiless.body = []
        return ProviderExchange(
            decision: decision, pending: Self.record(of: request, summary, seq: seq, receivedAt: receivedAt),
            request: bodiless, routes: routes)
    }

    /// The record of the request, answered with `response` at `answeredAt`.
    public func record(answer response: HTTPResponse, at answeredAt: Date) -> ProviderRequestRecord {
        Self.answered(pending, response, answer: routes.summarize(answer: response, to: request), at: answeredAt)
    }

    /// The record of a request the transport refused (`response`, its vendor's answer): what
    /// came of it, summarised from the request alone.
    public static func record(
        refusal: HTTPRefusal, response: HTTPResponse, routes: any GatewayRoutes, seq: Int, at now: Date
    ) -> ProviderRequestRecord {
        let summary = routes.summarize(refusal.request, decision: nil)
        let pending = record(of: refusal.request, summary, seq: seq, receivedAt: now)
        return answered(pending, response, answer: routes.summarize(answer: response, to: refusal.request), at: now)
    }

    private static func record(of request: HTTPRequest, _ summary: RequestSummary, seq: Int, receivedAt: Date) -> ProviderRequestRecord {
        ProviderRequestRecord(
            seq: seq, receivedAt: receivedAt, answeredAt: receivedAt, vendor: summary.vendor, method: request.method,
            path: request.path, tokens: summary.tokens, app: summary.app, status: 0, ids: summary.ids,
            notificationKey: summary.notificationKey)
    }

    private static func answered(
        _ pending: ProviderRequestRecord, _ response: HTTPResponse, answer: AnswerSummary, at answeredAt: Date
    ) -> ProviderRequestRecord {
        var record = pending
        record.answeredAt = max(answeredAt, pending.receivedAt)
        record.status = response.status
        record.reason = answer.reason
        // RFC 9110 §10.2.3: retry-after is delay-seconds (or a date, which no vendor here sends).
        record.retryAfter = response.headers.first { $0.name == "retry-after" }.flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
        for (key, value) in answer.ids where record.ids[key] == nil { record.ids[key] = value }
        return record
    }
}
