import Foundation
import PushCore
import PushScenario
import Testing

/// The request-log verdicts over hand-built records: each passing and failing way, and the
/// boundaries of the wait (exactly the retry-after, one millisecond early).
@Suite struct RequestVerdictTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A record received `at` seconds after `start`, answered `latency` ms later.
    static func record(
        _ seq: Int, at: Double, latency: Double = 2, vendor: Via = .apns, token: String = "aa11", status: Int = 200,
        reason: String? = nil, retryAfter: Int? = nil, key: String? = "apns-id:1"
    ) -> ProviderRequestRecord {
        let received = start.addingTimeInterval(at)
        return ProviderRequestRecord(
            seq: seq, receivedAt: received, answeredAt: received.addingTimeInterval(latency / 1000), vendor: vendor,
            method: "POST", path: "/3/device/\(token)", tokens: [token], app: "com.example.shop", status: status,
            reason: reason, retryAfter: retryAfter, notificationKey: key)
    }

    // MARK: --requests

    @Test func requestsCountsTheMatchingOnes() {
        let records = [
            Self.record(1, at: 0), Self.record(2, at: 1, vendor: .fcm, status: 503), Self.record(3, at: 2, vendor: .fcm),
        ]
        #expect(RequestCondition.requests(count: 3, vendor: nil, status: nil).judge(records).final.ok)
        #expect(RequestCondition.requests(count: 2, vendor: .fcm, status: nil).judge(records).final.ok)
        let missing = RequestCondition.requests(count: 2, vendor: .fcm, status: 503).judge(records)
        #expect(!missing.isDecided)
        #expect(missing.final == (false, "wanted 2 requests (vendor fcm, status 503); saw 1 of 3 requests"))
    }

    // MARK: --retried

    @Test func aResendAtExactlyTheRetryAfterHoldsAndOneMillisecondEarlyFails() throws {
        // Refused at 0 s, answered 2 ms later with retry-after 3: the resend may come at 3.002 s.
        let refusal = Self.record(1, at: 0, status: 429, reason: "TooManyRequests", retryAfter: 3)
        let exactly = RequestCondition.retried(afterStatus: nil, minWait: 0).judge([refusal, Self.record(2, at: 3.002)])
        guard case .holds(let line) = exactly else {
            Issue.record("\(exactly)")
            return
        }
        #expect(line.contains("#1 apns to aa11 refused 429 TooManyRequests"), "\(line)")
        #expect(line.contains("waited 3000 ms"), "\(line)")

        let early = RequestCondition.retried(afterStatus: nil, minWait: 0).judge([refusal, Self.record(2, at: 3.001)])
        guard case .failed(let failure) = early else {
            Issue.record("\(early)")
            return
        }
        #expect(failure.contains("#1 apns to aa11 refused 429 TooManyRequests at 2027-01-15T08:00:00.00"), "\(failure)")
        #expect(failure.contains("Z (retry-after 3)"), "\(failure)")
        #expect(failure.contains("sent again as #2 at 2027-01-15T08:00:03.001Z: waited 2999 ms, 1 ms sooner than the 3000 ms it had to wait"), "\(failure)")
    }

    @Test func theMinimumWaitCountsWhenItIsLongerThanTheRetryAfter() {
        let refusal = Self.record(1, at: 0, status: 503, retryAfter: 1)
        let condition = RequestCondition.retried(afterStatus: nil, minWait: 2.5)
        #expect(condition.judge([refusal, Self.record(2, at: 2.502)]).final.ok)
        #expect(!condition.judge([refusal, Self.record(2, at: 2.501)]).final.ok)
        // Without retry-after only the minimum counts; with neither, any resend does.
        let bare = Self.record(1, at: 0, status: 500)
        #expect(RequestCondition.retried(afterStatus: nil, minWait: 0).judge([bare, Self.record(2, at: 0.003)]).final.ok)
    }

    @Test func onlyTheSameNotificationCountsAsSentAgain() {
        let refusal = Self.record(1, at: 0, status: 503, key: "apns-id:1")
        let other = Self.record(2, at: 5, key: "apns-id:2")
        let verdict = RequestCondition.retried(afterStatus: nil, minWait: 0).judge([refusal, other])
        #expect(!verdict.isDecided)
        #expect(verdict.final == (false, "wanted a refused notification (status ≥ 400) sent again after max(retry-after, 0 s); saw 1 refused notification, none sent again"))
        let none = RequestCondition.retried(afterStatus: nil, minWait: 0).judge([other])
        #expect(none.final.line.hasSuffix("saw no refused notification among 1 request"))
    }

    @Test func afterStatusPicksTheRefusal() {
        let records = [Self.record(1, at: 0, status: 400, reason: "BadDeviceToken", key: "apns-id:1"),
                       Self.record(2, at: 0.5, key: "apns-id:1")]
        #expect(RequestCondition.retried(afterStatus: nil, minWait: 0).judge(records).final.ok)
        #expect(!RequestCondition.retried(afterStatus: 503, minWait: 0).judge(records).final.ok)
        #expect(RequestCondition.retried(afterStatus: 400, minWait: 0).judge(records).final.ok)
    }

    @Test func anEarlyResendFailsEvenWhenALaterRefusalWasWaitedFor() {
        let records = [
            Self.record(1, at: 0, status: 503, retryAfter: 1, key: "k1"), Self.record(2, at: 2, key: "k1"),
            Self.record(3, at: 3, status: 503, retryAfter: 1, key: "k2"), Self.record(4, at: 3.5, key: "k2"),
        ]
        guard case .failed(let line) = RequestCondition.retried(afterStatus: nil, minWait: 0).judge(records) else {
            Issue.record("an early resend fails")
            return
        }
        #expect(line.contains("#3 apns to aa11 refused 503"), "\(line)")
    }

    // MARK: --stopped

    @Test func stoppedFailsAtTheFirstRequestAfterUnregisteredAndHoldsOnlyAtTheTimeout() {
        let gone = Self.record(1, at: 0, status: 410, reason: "Unregistered", key: "k1")
        let condition = RequestCondition.stopped(token: "aa11")
        let quiet = condition.judge([gone, Self.record(2, at: 1, token: "bb22", key: "k2")])
        #expect(!quiet.isDecided)
        #expect(quiet.final.ok)
        let again = condition.judge([gone, Self.record(2, at: 1, key: "k3"), Self.record(3, at: 2, key: "k4")])
        guard case .failed(let line) = again else {
            Issue.record("\(again)")
            return
        }
        #expect(line.hasPrefix("wanted no request to aa11 after it was answered Unregistered at 2027-01-15T08:00:00.00"), "\(line)")
        #expect(line.hasSuffix("Z (#1); #2 POST /3/device/aa11 came at 2027-01-15T08:00:01.000Z (and 1 more)"), "\(line)")
        // FCM says UNREGISTERED.
        let fcm = Self.record(1, at: 0, vendor: .fcm, status: 404, reason: "UNREGISTERED")
        #expect(!condition.judge([fcm, Self.record(2, at: 1, vendor: .fcm)]).final.ok)
    }

    @Test func stoppedFailsWhenTheTokenWasNeverAnsweredUnregistered() {
        let verdict = RequestCondition.stopped(token: "aa11").judge([Self.record(1, at: 0)])
        #expect(!verdict.isDecided)
        #expect(verdict.final == (false, "wanted aa11 answered Unregistered and then left alone; it was never answered Unregistered (1 request to it)"))
    }

    // MARK: The watch

    @Test func theWatchCountsEachRecordOnceAndOnlyAfterSince() {
        var watch = RequestWatch(condition: .requests(count: 2, vendor: nil, status: nil), since: 1)
        watch.note([Self.record(1, at: 0), Self.record(2, at: 1)])
        watch.note([Self.record(2, at: 1)])
        #expect(!watch.verdict.final.ok)
        #expect(watch.timedOutLine(after: 0.5) == "timed out after 0.5 s; wanted 2 requests; saw 1 of 1 request")
        watch.note([Self.record(3, at: 2)])
        #expect(watch.verdict.final.ok)
    }
}
