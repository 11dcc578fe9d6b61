import Foundation
import PushJSON

// MARK: - Time to live of held messages

extension Inbox {
    /// Held messages whose time to live has run out at `date` leave the queue: listed as
    /// expired (read, never counted), never delivered late.
    mutating func expireHeld(at date: Date, into outcome: inout Outcome) {
        let expired = held.filter { (heldExpiry[$0.id] ?? Self.expiry(of: $0)) <= date }
        guard !expired.isEmpty else { return }
        let ids = Set(expired.map(\.id))
        removeHeld(ids)
        outcome.write(.expire(expired.map(\.id)))
        outcome.publish(.messageDropped, [
            "reason": "expired", "ids": .array(expired.map { .number(JSONNumber($0.id)) }),
        ])
    }
}
