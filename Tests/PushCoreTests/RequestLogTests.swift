import Foundation
import PushCore
import PushJSON
import Testing

/// The provider request log: its record on the wire (written and read back beside each other),
/// the bounded log, the `requests` op and reply, and reset.
@Suite struct RequestLogTests {
    static let start = Date(timeIntervalSince1970: 1_764_547_200.125)

    static func record(seq: Int = 1, vendor: Via = .apns, status: Int = 200, latency: Double = 0.0125) -> ProviderRequestRecord {
        ProviderRequestRecord(
            seq: seq, receivedAt: start, answeredAt: start.addingTimeInterval(latency), vendor: vendor, method: "POST",
            path: "/3/device/abcd?x=1", tokens: ["abcd"], app: "com.example.shop", status: status,
            reason: status == 200 ? nil : "TooManyRequests", retryAfter: status == 429 ? 30 : nil,
            ids: ["apns-id": "123e4567-e89b-12d3-a456-426614174000"], notificationKey: "apns-id:123e4567-e89b-12d3-a456-426614174000",
            fault: status == 200 ? nil : 2)
    }

    @Test func recordWireKeepsTheContractOrderAndOmitsNulls() {
        let refused = Self.record(status: 429)
        #expect(refused.wireJSON.compactText == #"{"seq":1,"time":"2025-12-01T00:00:00.125Z","vendor":"apns","method":"POST","path":"/3/device/abcd?x=1","tokens":["abcd"],"app":"com.example.shop","status":429,"reason":"TooManyRequests","retryAfter":30,"latencyMs":12.5,"ids":{"apns-id":"123e4567-e89b-12d3-a456-426614174000"},"notificationKey":"apns-id:123e4567-e89b-12d3-a456-426614174000","fault":2}"#)
        var bare = ProviderRequestRecord(receivedAt: Self.start, answeredAt: Self.start, vendor: .getui, method: "POST", path: "/v2/x/auth", status: 200)
        bare.seq = 3
        #expect(bare.wireJSON.compactText == #"{"seq":3,"time":"2025-12-01T00:00:00.125Z","vendor":"getui","method":"POST","path":"/v2/x/auth","tokens":[],"status":200,"latencyMs":0,"ids":{}}"#)
    }

    @Test(arguments: [200, 429, 500])
    func recordReadsBackAsWritten(status: Int) throws {
        let written = Self.record(status: status, latency: 0.003_456)
        let read = try ProviderRequestRecord(wire: written.wireObject)
        #expect(read == written)
        #expect(abs(read.latencyMs - 3.456) < 1e-3)
    }

    @Test func recordThatIsNotOneIsAClearError() {
        var object = Self.record().wireObject
        object["vendor"] = "pigeon"
        #expect(throws: WireError("a request record's \"vendor\" must be apns, jpush, getui or fcm")) { try ProviderRequestRecord(wire: object) }
        object = Self.record().wireObject
        object["status"] = "ok"
        #expect(throws: WireError("a request record's \"status\" must be an integer or absent")) { try ProviderRequestRecord(wire: object) }
    }

    @Test func logKeepsTheNewestAndListsInArrivalOrder() {
        var log = RequestLog(capacity: 3)
        for vendor in [Via.apns, .jpush, .apns, .fcm, .apns] {
            let seq = log.arrive()
            _ = log.append(Self.record(seq: seq, vendor: vendor))
        }
        #expect(log.count == 3)
        #expect(log.select(RequestLogQuery()).map(\.seq) == [3, 4, 5])
        #expect(log.select(RequestLogQuery(vendor: .apns)).map(\.seq) == [3, 5])
        #expect(log.select(RequestLogQuery(since: 4)).map(\.seq) == [5])
        // A request answered after a later one is listed by its seq.
        let late = log.arrive()
        let early = log.arrive()
        _ = log.append(Self.record(seq: early))
        _ = log.append(Self.record(seq: late))
        #expect(log.select(RequestLogQuery(since: 4)).map(\.seq) == [5, 6, 7])
        log.clear()
        #expect(log.count == 0 && log.arrive() == 1)
    }

    @Test func requestsOpDecodesEncodesAndRefusesBadFields() throws {
        let request = try Request.decode(frame: Array(#"{"op":"requests","vendor":"jpush","since":4}"#.utf8))
        #expect(request == .requests(RequestLogQuery(vendor: .jpush, since: 4)))
        #expect(try Request.decode(frame: request.encode()) == request)
        #expect(try Request.decode(frame: Array(#"{"op":"requests"}"#.utf8)) == .requests(RequestLogQuery()))
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"requests","vendor":"socket"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"requests","since":-1}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"requests","limit":3}"#.utf8)) }
    }

    @Test func requestsReplyReadsBack() throws {
        let reply = Reply.requests([Self.record(seq: 1), Self.record(seq: 2, vendor: .fcm, status: 429)])
        #expect(try Reply(wire: reply.wireObject) == reply)
        #expect(try Reply(wire: Reply.requests([]).wireObject) == .requests([]))
    }

    /// A host nobody listens to (no subscriber, no team bus) gets no event to publish, and the
    /// record is logged all the same.
    @Test func unannouncedRecordsAreLoggedWithoutAnEvent() {
        var inbox = Inbox()
        let logged = Self.record(seq: inbox.requestLog.arrive())
        #expect(Engine.logProviderRequest(logged, inbox: &inbox, announce: false).isEmpty)
        #expect(inbox.requestLog.records == [logged])
    }

    @Test func engineAnswersTheLogPublishesEachRecordAndResetEmptiesIt() {
        var inbox = Inbox()
        let seq = inbox.requestLog.arrive()
        let logged = Self.record(seq: seq)
        #expect(Engine.logProviderRequest(logged, inbox: &inbox) == [.publish(.request(logged))])
        #expect(BusEvent.request(logged).json.objectValue?["topic"] == "request")
        let store = EmptyReading()
        let asked = Engine.handle(.requests(RequestLogQuery()), inbox: &inbox, store: store, now: .zero, wallNow: Self.start)
        #expect(asked.reply == .requests([logged]))
        _ = Engine.handle(.reset(app: "com.example.other", all: false), inbox: &inbox, store: store, now: .zero, wallNow: Self.start)
        #expect(inbox.requestLog.count == 1)
        _ = Engine.handle(.reset(app: nil, all: false), inbox: &inbox, store: store, now: .zero, wallNow: Self.start)
        #expect(inbox.requestLog.count == 0)
        #expect(inbox.requestLog.arrive() == 1)
    }
}
