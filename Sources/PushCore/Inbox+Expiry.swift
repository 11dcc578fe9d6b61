import Foundation
import PushJSON

// MARK: - Time to live of held messages

extension Inbox {
    /// How long the push service keeps a pass-through message for an app that is not running:
    /// JPush `options.time_to_live` (seconds; JPush's default one day), Getui v2 `settings.ttl`
    /// (milliseconds), Getui's `offLineExpireTime` (milliseconds, with `offLine`). One day when
    /// the payload says nothing.
    public static func timeToLive(of payload: String) -> TimeInterval {
        vendorTimeToLive(of: payload) ?? 86_400
    }

    /// The time to live the payload's own vendor field gives, if any (see `timeToLive`).
    static func vendorTimeToLive(of payload: String) -> TimeInterval? {
        guard case .object(let object)? = try? JSON.parse(Array(payload.utf8)) else { return nil }
        func number(_ value: JSON?) -> Double? {
            if case .number(let number)? = value { return Double(number.text) }
            return nil
        }
        if case .object(let options)? = object["options"], let seconds = number(options["time_to_live"]), seconds >= 0 {
            return seconds
        }
        if case .object(let settings)? = object["settings"], let milliseconds = number(settings["ttl"]) {
            // Getui: -1 keeps nothing offline ("-1表示不设离线"): only a running app gets it.
            if milliseconds == -1 { return 0 }
            if milliseconds >= 0 { return milliseconds / 1000 }
        }
        if let milliseconds = number(object["offLineExpireTime"]), milliseconds >= 0 { return milliseconds / 1000 }
        return nil
    }

    /// Held messages whose time to live has run out at `date` leave the queue: listed as
    /// expired (read, never counted), never delivered late.
    mutating func expireHeld(at date: Date, into outcome: inout Outcome) {
        let expired = held.filter { Self.expiry(of: $0) <= date }
        guard !expired.isEmpty else { return }
        let ids = Set(expired.map(\.id))
        removeHeld(ids)
        outcome.write(.expire(expired.map(\.id)))
        outcome.publish(.messageDropped, [
            "reason": "expired", "ids": .array(expired.map { .number(JSONNumber($0.id)) }),
        ])
    }
}
