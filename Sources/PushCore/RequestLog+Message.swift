import Foundation

extension ProviderRequestRecord {
    /// True when this record is a request that carried `message` to the inbox: the message's
    /// vendor, answered 2xx, with the id the vendor gave the message — APNs the `apns-id` (the
    /// request's, or the one the answer assigned), FCM the message `name` the answer gave, JPush
    /// the `msg_id` of the answer, Getui the `request_id` (one of a batch's).
    public func carried(_ message: Message) -> Bool {
        guard vendor == message.via, (200..<300).contains(status) else { return false }
        switch message.via {
        case .apns:
            guard let id = message.apnsHeaders["apns-id"], let logged = ids["apns-id"] else { return false }
            return id.lowercased() == logged.lowercased()
        case .fcm:
            guard let name = message.fcm?.messageName, !name.isEmpty else { return false }
            return ids["name"] == name
        case .jpush:
            guard let id = message.apnsHeaders["msg_id"] else { return false }
            return ids["msg_id"] == id
        case .getui:
            guard let id = message.apnsHeaders["request_id"], let logged = ids["request_id"] else { return false }
            return logged.split(separator: ",").contains { $0 == id }
        default:
            return false
        }
    }
}

extension RequestLog {
    /// The most records `requests(of:)` looks back over: the detail view asks every turn.
    public static let messageWindow = 10_000

    /// The provider requests of `message`, oldest first: the one that carried it, and every
    /// other request for the same notification by its vendor's rule (`notificationKey`: the
    /// faulted and refused attempts before it, a resend after) — what the backend's retries of
    /// it were. Among the newest `window` records; none when no request there carried it.
    public func requests(of message: Message, window: Int = RequestLog.messageWindow) -> [ProviderRequestRecord] {
        guard message.via != .socket else { return [] }
        let looked = min(count, max(0, window))
        var carrier: ProviderRequestRecord?
        for back in 0..<looked {
            guard let record = record(back: back) else { break }
            if record.carried(message) {
                carrier = record
                break
            }
        }
        guard let carrier else { return [] }
        guard let key = carrier.notificationKey else { return [carrier] }
        var same: [ProviderRequestRecord] = []
        for back in 0..<looked {
            guard let record = record(back: back) else { break }
            if record.seq == carrier.seq || (record.vendor == carrier.vendor && record.notificationKey == key) { same.append(record) }
        }
        return same.sorted { $0.seq < $1.seq }
    }
}
