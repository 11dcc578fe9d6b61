import Foundation

/// The Getui `request_id`s pushed within the last day, per appId: Getui refuses one used
/// before ("request_id cannot be repeat.", its 20000 table) and keeps them a day. The reducer
/// records an id with the push that used it (`StoreChange.getuiRequestId`, the same transaction),
/// so the store holds them across a restart and a failed commit forgets the id with the push.
///
/// Ids are recorded in time order, so the ones older than a day are at the front of `order` and
/// are dropped from there as new ones come: O(1) amortised per id, nothing copied.
public struct GetuiRequestIds: Sendable {
    /// How long an id stays a repeat: a day.
    public static let window: TimeInterval = 86_400
    /// The most ids remembered (in memory and loaded at start-up); past it the oldest is forgotten.
    public static let capacity = 100_000

    struct Key: Hashable, Sendable {
        var app: String
        var requestId: String
    }

    /// When each id was used.
    private var seen: [Key: Date] = [:]
    /// The ids as recorded, oldest first, consumed from `head` (an id recorded again appears
    /// twice: its older entry is skipped when its time comes).
    private var order: [(key: Key, at: Date)] = []
    private var head = 0

    public init() {}

    /// How many ids are remembered.
    public var count: Int { seen.count }

    /// Whether `requestId` of `app` was used within the day before `now`.
    public func contains(app: String, requestId: String, now: Date) -> Bool {
        guard let at = seen[Key(app: app, requestId: requestId)] else { return false }
        return now.timeIntervalSince(at) < Self.window
    }

    /// Notes that `requestId` of `app` was used at `at`, forgetting the ids a day older than it.
    public mutating func record(app: String, requestId: String, at: Date) {
        let key = Key(app: app, requestId: requestId)
        seen[key] = at
        order.append((key, at))
        while head < order.count, order[head].at.timeIntervalSince(at) <= -Self.window || seen.count > Self.capacity {
            let oldest = order[head]
            // Only the id's newest entry forgets it.
            if seen[oldest.key] == oldest.at { seen[oldest.key] = nil }
            head += 1
        }
        if head >= 1024 && head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}

extension GetuiRequestIds: Equatable {
    /// The same ids with the same times, however they are laid out.
    public static func == (left: GetuiRequestIds, right: GetuiRequestIds) -> Bool { left.seen == right.seen }
}
