import Foundation
import PushCore

/// Verdicts about the backend, judged on the gateway's request log (beside `Expect.swift`'s,
/// which judge the inbox): pure functions of the records, so `pushdeck expect`, the control
/// API's long-poll and both scenario players judge alike.
public enum RequestCondition: Sendable, Equatable {
    /// At least `count` requests, of `vendor` and answered `status` when given.
    case requests(count: Int, vendor: Via?, status: Int?)
    /// A refused notification (status ≥ 400, or exactly `afterStatus`) sent again — the same
    /// notification by the vendor's rule, its `notificationKey` — and not sooner than
    /// max(its `retry-after`, `minWait` seconds) after the refusal was answered.
    case retried(afterStatus: Int?, minWait: Double)
    /// Nothing sent to `token` after the first `Unregistered` (APNs) / `UNREGISTERED` (FCM)
    /// answer to it.
    case stopped(token: String)

    /// The reasons that say a token is gone: APNs' 410 `Unregistered` (Apple, "Handling
    /// notification responses from APNs") and FCM's `UNREGISTERED` (Firebase, "ErrorCode").
    public static let unregisteredReasons: Set<String> = ["Unregistered", "UNREGISTERED"]

    public var summary: String {
        switch self {
        case .requests(let count, let vendor, let status):
            var filters: [String] = []
            if let vendor { filters.append("vendor \(vendor.rawValue)") }
            if let status { filters.append("status \(status)") }
            return "\(count) request\(count == 1 ? "" : "s")" + (filters.isEmpty ? "" : " (" + filters.joined(separator: ", ") + ")")
        case .retried(let afterStatus, let minWait):
            let refused = afterStatus.map { "a notification refused with \($0)" } ?? "a refused notification (status ≥ 400)"
            return "\(refused) sent again after max(retry-after, \(RequestVerdict.seconds(minWait)) s)"
        case .stopped(let token):
            return "no request to \(token) after its Unregistered answer"
        }
    }

    /// Judges the records (in arrival order, those after the `since` seq) as they stand now.
    public func judge(_ records: [ProviderRequestRecord]) -> RequestVerdict {
        switch self {
        case .requests(let count, let vendor, let status):
            let matching = records.filter { (vendor == nil || $0.vendor == vendor) && (status == nil || $0.status == status) }
            let line = "wanted \(summary); saw \(matching.count) of \(records.count) request\(records.count == 1 ? "" : "s")"
            return matching.count >= count ? .holds(line) : .waiting(line, holdsAtTimeout: false)
        case .retried(let afterStatus, let minWait):
            return Self.judgeRetried(records, afterStatus: afterStatus, minWait: minWait, summary: summary)
        case .stopped(let token):
            return Self.judgeStopped(records, token: token)
        }
    }

    private static func judgeRetried(
        _ records: [ProviderRequestRecord], afterStatus: Int?, minWait: Double, summary: String
    ) -> RequestVerdict {
        func refused(_ record: ProviderRequestRecord) -> Bool {
            afterStatus.map { record.status == $0 } ?? (record.status >= 400)
        }
        var refusals = 0
        var retried: String?
        for (index, refusal) in records.enumerated() where refused(refusal) {
            guard let key = refusal.notificationKey else { continue }
            refusals += 1
            guard let resend = records[(index + 1)...].first(where: { $0.notificationKey == key }) else { continue }
            let wait = max(Double(refusal.retryAfter ?? 0), minWait)
            // To the millisecond: the log's times are kept to the millisecond on the wire.
            let gap = Int((resend.receivedAt.timeIntervalSince(refusal.answeredAt) * 1000).rounded())
            let needed = Int((wait * 1000).rounded())
            let story = "\(describe(refusal)) refused \(refusal.status)\(refusal.reason.map { " \($0)" } ?? "") at "
                + "\(RFC3339.string(from: refusal.answeredAt))\(refusal.retryAfter.map { " (retry-after \($0))" } ?? ""), "
                + "sent again as #\(resend.seq) at \(RFC3339.string(from: resend.receivedAt)): waited \(gap) ms"
            if gap < needed {
                return .failed("wanted \(summary); \(story), \(needed - gap) ms sooner than the \(needed) ms it had to wait")
            }
            retried = retried ?? "\(story) of the \(needed) ms it had to wait"
        }
        if let retried { return .holds(retried) }
        let seen = refusals == 0
            ? "no refused notification among \(records.count) request\(records.count == 1 ? "" : "s")"
            : "\(refusals) refused notification\(refusals == 1 ? "" : "s"), none sent again"
        return .waiting("wanted \(summary); saw \(seen)", holdsAtTimeout: false)
    }

    private static func judgeStopped(_ records: [ProviderRequestRecord], token: String) -> RequestVerdict {
        guard let gone = records.firstIndex(where: { $0.tokens.contains(token) && $0.reason.map(unregisteredReasons.contains) == true })
        else {
            let sent = records.filter { $0.tokens.contains(token) }.count
            return .waiting(
                "wanted \(token) answered Unregistered and then left alone; it was never answered Unregistered "
                    + "(\(sent) request\(sent == 1 ? "" : "s") to it)", holdsAtTimeout: false)
        }
        let unregistered = records[gone]
        let when = "answered \(unregistered.reason ?? "") at \(RFC3339.string(from: unregistered.answeredAt)) (#\(unregistered.seq))"
        if let after = records[(gone + 1)...].first(where: { $0.tokens.contains(token) }) {
            let count = records[(gone + 1)...].filter { $0.tokens.contains(token) }.count
            return .failed(
                "wanted no request to \(token) after it was \(when); #\(after.seq) \(after.method) \(after.path) came at "
                    + "\(RFC3339.string(from: after.receivedAt))" + (count > 1 ? " (and \(count - 1) more)" : ""))
        }
        return .waiting("\(token) was \(when); no request to it since", holdsAtTimeout: true)
    }

    private static func describe(_ record: ProviderRequestRecord) -> String {
        let token = record.tokens.first.map { " to \($0)" } ?? ""
        return "#\(record.seq) \(record.vendor.rawValue)\(token)"
    }
}

/// What the records say now: held (exit 0), failed for good (exit 1), or not yet decided — and
/// then what the timeout makes of it (`--stopped` holds at the timeout; the others fail).
public enum RequestVerdict: Sendable, Equatable {
    case holds(String)
    case failed(String)
    case waiting(String, holdsAtTimeout: Bool)

    /// Decided now (no more waiting).
    public var isDecided: Bool {
        if case .waiting = self { return false }
        return true
    }

    /// The outcome if judged now as the last word (at the timeout, or a scenario's expect step).
    public var final: (ok: Bool, line: String) {
        switch self {
        case .holds(let line): (true, line)
        case .failed(let line): (false, line)
        case .waiting(let line, let holds): (holds, line)
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// The request-log condition `expect` waits for, with the records seen so far (after `since`),
/// counted once each by seq — the snapshot and the bus's `request` events may both bring one.
public struct RequestWatch: Sendable {
    public let condition: RequestCondition
    public let since: Int
    private var records: [ProviderRequestRecord] = []
    private var seen: Set<Int> = []

    public init(condition: RequestCondition, since: Int = 0) {
        self.condition = condition
        self.since = since
    }

    /// Takes records (a `requests` reply, or one bus event's); those at or before `since` and
    /// those already seen are left out.
    public mutating func note(_ more: [ProviderRequestRecord]) {
        var added = false
        for record in more where record.seq > since && seen.insert(record.seq).inserted {
            records.append(record)
            added = true
        }
        if added && zip(records, records.dropFirst()).contains(where: { $0.seq > $1.seq }) { records.sort { $0.seq < $1.seq } }
    }

    public var verdict: RequestVerdict { condition.judge(records) }

    /// The line `expect` prints at its timeout when the verdict is not yet decided.
    public func timedOutLine(after seconds: Double) -> String {
        "timed out after \(RequestVerdict.seconds(seconds)) s; \(verdict.final.line)"
    }
}
