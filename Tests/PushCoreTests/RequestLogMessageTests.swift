import Foundation
import PushCore
import Testing

/// A message's provider requests from the request log: the one that carried it, and the
/// backend's other attempts at the same notification by its vendor's rule.
@Suite struct RequestLogMessageTests {
    static let start = Date(timeIntervalSince1970: 1_764_496_800)
    static let token = String(repeating: "ab", count: 32)

    static func record(
        _ vendor: Via, status: Int, key: String?, ids: [String: String] = [:], tokens: [String] = [token], fault: Int? = nil,
        at seconds: Double
    ) -> ProviderRequestRecord {
        let time = start.addingTimeInterval(seconds)
        return ProviderRequestRecord(
            receivedAt: time, answeredAt: time, vendor: vendor, method: "POST", path: "/3/device/\(token)", tokens: tokens,
            status: status, ids: ids, notificationKey: key, fault: fault)
    }

    static func message(_ via: Via, headers: [String: String] = [:], fcm: FCMFacts? = nil) -> Message {
        var message = Message(id: 1, app: "com.example.shop", channel: .apns, receivedAt: start, payload: "{}", via: via, token: token,
                              apnsHeaders: headers)
        message.fcm = fcm
        return message
    }

    @Test func anAPNsMessageHasItsFaultedAttemptsAndTheRequestThatCarriedIt() {
        var log = RequestLog()
        let id = "123E4567-E89B-12D3-A456-426614174000"
        _ = log.append(Self.record(.apns, status: 500, key: "apns-id:\(id.lowercased())", ids: ["apns-id": id], fault: 1, at: 0))
        _ = log.append(Self.record(.apns, status: 200, key: "token:other:1", ids: ["apns-id": "another"], at: 0.5))
        _ = log.append(Self.record(.apns, status: 0, key: "apns-id:\(id.lowercased())", ids: ["apns-id": id], fault: 2, at: 1))
        _ = log.append(Self.record(.apns, status: 200, key: "apns-id:\(id.lowercased())", ids: ["apns-id": id], at: 2))
        let message = Self.message(.apns, headers: ["apns-id": id.lowercased()])
        #expect(log.requests(of: message).map(\.seq) == [1, 3, 4])
        #expect(log.requests(of: message).map(\.fault) == [1, 2, nil])
        // Only a 2xx answer carries a message: a refusal alone shows nothing.
        var refusedOnly = RequestLog()
        _ = refusedOnly.append(Self.record(.apns, status: 500, key: "apns-id:x", ids: ["apns-id": "x"], at: 0))
        #expect(refusedOnly.requests(of: Self.message(.apns, headers: ["apns-id": "x"])).isEmpty)
    }

    @Test func eachVendorCarriesAMessageByItsOwnId() {
        var log = RequestLog()
        _ = log.append(Self.record(.jpush, status: 503, key: "sendno:7", ids: ["sendno": "7"], fault: 1, at: 0))
        _ = log.append(Self.record(.jpush, status: 200, key: "sendno:7", ids: ["sendno": "7", "msg_id": "18100"], at: 1))
        _ = log.append(Self.record(.getui, status: 200, key: "request_id:r-1,r-2", ids: ["request_id": "r-1,r-2"], at: 2))
        _ = log.append(Self.record(.fcm, status: 503, key: "token:t:9", fault: 3, at: 3))
        _ = log.append(Self.record(.fcm, status: 200, key: "token:t:9", ids: ["name": "projects/p/messages/5"], at: 4))
        #expect(log.requests(of: Self.message(.jpush, headers: ["msg_id": "18100"])).map(\.seq) == [1, 2])
        #expect(log.requests(of: Self.message(.getui, headers: ["request_id": "r-2"])).map(\.seq) == [3])
        let fcm = FCMFacts(project: "p", messageName: "projects/p/messages/5", platform: .android)
        #expect(log.requests(of: Self.message(.fcm, fcm: fcm)).map(\.seq) == [4, 5])
        // Another vendor's request with the same id is not this message's.
        #expect(log.requests(of: Self.message(.apns, headers: ["apns-id": "18100"])).isEmpty)
        #expect(log.requests(of: Self.message(.socket)).isEmpty)
    }

    @Test func aWrappedLogLooksOnlyAtItsNewestRecords() {
        var log = RequestLog(capacity: 3)
        for index in 0..<5 {
            _ = log.append(Self.record(.apns, status: index == 4 ? 200 : 429, key: "apns-id:a", ids: ["apns-id": "a"], at: Double(index)))
        }
        let message = Self.message(.apns, headers: ["apns-id": "a"])
        #expect(log.record(back: 0)?.seq == 5 && log.record(back: 2)?.seq == 3 && log.record(back: 3) == nil)
        #expect(log.requests(of: message).map(\.seq) == [3, 4, 5])
        #expect(log.requests(of: message, window: 1).map(\.seq) == [5])
    }
}
