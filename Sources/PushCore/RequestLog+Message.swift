import Foundation

extension ProviderRequestRecord {
    /// True when this record is a request that carried `message` to the inbox: the message's
    /// vendor, answered 2xx, with the id the vendor gave the message — APNs the `apns-id` (the
    /// request's, or the one the answer assigned), FCM the message `name` the answer gave, JPush
    /// the `msg_id` of the answer, Getui the `request_id` (one of a batch's).
    public func carried(_ message: Message) -> Bool {
        Self.carried(message, vendor: vendor, status: status, ids: ids)
    }

    /// `carried(_:)` of a record with this vendor, status and ids.
    static func carried(_ message: Message, vendor: Via, status: Int, ids: [String: String]) -> Bool {
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
        // Read on the packed records: the vendor and status first, the ids only of a record
        // that could have carried it, the key without building it; whole records only for the
        // answer (the detail view asks this every turn the log changes).
        let packed = reading
        let looked = min(count, max(0, window))
        let newest = packed.count - 1
        var carrier: ProviderRequestRecord?
        for index in stride(from: newest, to: newest - looked, by: -1) {
            guard packed.vendor(at: index) == message.via else { continue }
            let status = packed.status(at: index)
            guard (200..<300).contains(status) else { continue }
            if ProviderRequestRecord.carried(message, vendor: message.via, status: status, ids: packed.ids(at: index)) {
                carrier = packed.record(at: index)
                break
            }
        }
        guard let carrier else { return [] }
        guard let key = carrier.notificationKey else { return [carrier] }
        var same: [ProviderRequestRecord] = []
        for index in stride(from: newest, to: newest - looked, by: -1) {
            if packed.seq(at: index) == carrier.seq
                || (packed.vendor(at: index) == carrier.vendor && packed.notificationKey(at: index, is: key))
            {
                same.append(packed.record(at: index))
            }
        }
        return same.sorted { $0.seq < $1.seq }
    }
}
