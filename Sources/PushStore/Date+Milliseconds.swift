import Foundation

extension Date {
    /// The date the store keeps for `milliseconds` since 1970-01-01 UTC.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Milliseconds since 1970-01-01 UTC, rounded: how the store keeps `receivedAt`.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
