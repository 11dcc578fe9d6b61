import Foundation
import PushJSON

/// One provider request as the gateway answered it: a whole request, or one the transport
/// refused before it was whole. The request log keeps these in arrival order.
///
/// What the request was (its arrival, vendor, method, path, tokens, app and notification key)
/// is set when it arrives and only read after: it is kept once, in a box the record's copies
/// share (`SharedFields`). A record is copied from the decision to the closure awaiting the
/// answer, to the answered record and into the log; each copy of its dozen fields was a retain
/// and a release of each of their strings (callgrind: 36 of the 666 atomic reference counts of
/// an APNs push on the loop).
public struct ProviderRequestRecord: Sendable, Equatable {
    @usableFromInline
    struct Arrival: Sendable, Equatable {
        @usableFromInline var receivedAt: Date
        @usableFromInline var vendor: Via
        @usableFromInline var method: String
        @usableFromInline var path: String
        @usableFromInline var tokens: [String]
        @usableFromInline var app: String?
        @usableFromInline var notificationKey: String?
    }

    @usableFromInline var box: SharedFields<Arrival>

    /// The arrival's fields to write to: the box itself when no other record shares it, else a copy.
    @inlinable var arrival: Arrival {
        get { box.fields }
        _modify {
            SharedFields.unshare(&box)
            yield &box.fields
        }
    }

    /// Arrival order, from 1; it starts again at 1 after a reset.
    public var seq: Int
    /// When the whole request had arrived (the wall clock).
    @inlinable public var receivedAt: Date {
        get { box.fields.receivedAt }
        _modify { yield &arrival.receivedAt }
    }
    /// When its answer was handed to the HTTP session.
    public var answeredAt: Date
    @inlinable public var vendor: Via {
        get { box.fields.vendor }
        _modify { yield &arrival.vendor }
    }
    @inlinable public var method: String {
        get { box.fields.method }
        _modify { yield &arrival.method }
    }
    /// The request target as sent, query included.
    @inlinable public var path: String {
        get { box.fields.path }
        _modify { yield &arrival.path }
    }
    /// The device tokens it addressed (none for an auth, topic or broadcast request).
    @inlinable public var tokens: [String] {
        get { box.fields.tokens }
        _modify { yield &arrival.tokens }
    }
    @inlinable public var app: String? {
        get { box.fields.app }
        _modify { yield &arrival.app }
    }
    public var status: Int
    /// Nil on success; else APNs' `reason`, JPush's `error.code` as text, Getui's `code`/`msg`,
    /// FCM's `errorCode` (else the gRPC `status`).
    public var reason: String?
    /// Seconds, when the answer carried `retry-after`.
    public var retryAfter: Int?
    /// The ids the request carried or the answer assigned: `apns-id`, `sendno`, `msg_id`, `request_id`, `name`.
    public var ids: [String: String]
    /// What makes two requests "the same notification" for the vendor (nil for a request that
    /// is no push): APNs the apns-id when the request carried one, else the token and a digest
    /// of the payload bytes; JPush `options.sendno` when given, else a digest of the body;
    /// Getui the `request_id`; FCM the target and a digest of the message body.
    @inlinable public var notificationKey: String? {
        get { box.fields.notificationKey }
        _modify { yield &arrival.notificationKey }
    }
    /// The id of the fault that answered it, if one did.
    public var fault: Int?

    public init(
        seq: Int = 0, receivedAt: Date, answeredAt: Date, vendor: Via, method: String, path: String, tokens: [String] = [],
        app: String? = nil, status: Int, reason: String? = nil, retryAfter: Int? = nil, ids: [String: String] = [:],
        notificationKey: String? = nil, fault: Int? = nil
    ) {
        box = SharedFields(Arrival(
            receivedAt: receivedAt, vendor: vendor, method: method, path: path, tokens: tokens, app: app,
            notificationKey: notificationKey))
        self.seq = seq
        self.answeredAt = answeredAt
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
        self.ids = ids
        self.fault = fault
    }

    public static func == (left: ProviderRequestRecord, right: ProviderRequestRecord) -> Bool {
        left.seq == right.seq && left.answeredAt == right.answeredAt && left.status == right.status && left.reason == right.reason
            && left.retryAfter == right.retryAfter && left.ids == right.ids && left.fault == right.fault
            && SharedFields.same(left.box, right.box)
    }

    /// From arrival to answer, in milliseconds.
    public var latencyMs: Double { answeredAt.timeIntervalSince(receivedAt) * 1000 }
}

// MARK: - On the wire

extension ProviderRequestRecord {
    /// The record as the wire shows it (the `requests` reply, the bus's `request` event, the
    /// control API): `seq, time, vendor, method, path, tokens, app, status, reason, retryAfter,
    /// latencyMs, ids, notificationKey, fault` in that order, nulls left out. `time` is
    /// `receivedAt` in RFC 3339 with milliseconds; `latencyMs` keeps microseconds.
    public var wireObject: JSONObject {
        var members: [(key: String, value: JSON)] = [
            ("seq", .number(JSONNumber(seq))), ("time", .string(RFC3339.string(from: receivedAt))),
            ("vendor", .string(vendor.rawValue)), ("method", .string(method)), ("path", .string(path)),
            ("tokens", .array(tokens.map { .string($0) })),
        ]
        members.reserveCapacity(14)
        if let app { members.append(("app", .string(app))) }
        members.append(("status", .number(JSONNumber(status))))
        if let reason { members.append(("reason", .string(reason))) }
        if let retryAfter { members.append(("retryAfter", .number(JSONNumber(retryAfter)))) }
        let micros = (latencyMs * 1000).rounded()
        members.append(("latencyMs", .number(JSONNumber(text: Self.milliseconds(micros)))))
        members.append(("ids", .object(JSONObject(ids.sorted { $0.key < $1.key }.map { (key: $0.key, value: .string($0.value)) }))))
        if let notificationKey { members.append(("notificationKey", .string(notificationKey))) }
        if let fault { members.append(("fault", .number(JSONNumber(fault)))) }
        return JSONObject(members)
    }

    public var wireJSON: JSON { .object(wireObject) }

    /// Whole microseconds as a millisecond number with up to three decimals (`12.345`, `0.5`, `3`).
    private static func milliseconds(_ micros: Double) -> String {
        let whole = Int64(max(0, micros))
        let fraction = whole % 1000
        guard fraction != 0 else { return String(whole / 1000) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole / 1000).\(digits)"
    }

    /// Reads a record back as `wireObject` writes it: `answeredAt` is `time` + `latencyMs`
    /// (to the microsecond), `time` itself to the millisecond.
    public init(wire object: JSONObject) throws(WireError) {
        func string(_ key: String) throws(WireError) -> String {
            guard let value = object[key]?.stringValue else { throw WireError("a request record's \"\(key)\" must be a string") }
            return value
        }
        func optionalString(_ key: String) throws(WireError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case .some: throw WireError("a request record's \"\(key)\" must be a string or absent")
            }
        }
        func optionalInt(_ key: String) throws(WireError) -> Int? {
            switch object[key] {
            case nil, .null?: return nil
            case .number(let number)? where number.int != nil: return number.int
            case .some: throw WireError("a request record's \"\(key)\" must be an integer or absent")
            }
        }
        guard let seq = try optionalInt("seq") else { throw WireError("a request record needs \"seq\": an integer") }
        guard let time = RFC3339.date(from: try string("time")) else {
            throw WireError("a request record's \"time\" must be an RFC 3339 time")
        }
        guard let vendor = Via(rawValue: try string("vendor")) else {
            throw WireError("a request record's \"vendor\" must be apns, jpush, getui or fcm")
        }
        guard let status = try optionalInt("status") else { throw WireError("a request record needs \"status\": an integer") }
        guard let latency = object["latencyMs"]?.numberValue?.double, latency.isFinite else {
            throw WireError("a request record needs \"latencyMs\": a number")
        }
        guard case .array(let tokenValues)? = object["tokens"] else { throw WireError("a request record needs \"tokens\": an array") }
        var tokens: [String] = []
        for value in tokenValues {
            guard let token = value.stringValue else { throw WireError("a request record's \"tokens\" must hold strings") }
            tokens.append(token)
        }
        var ids: [String: String] = [:]
        if case .object(let members)? = object["ids"] {
            for (key, value) in members.members {
                guard let text = value.stringValue else { throw WireError("a request record's \"ids\" must map names to strings") }
                ids[key] = text
            }
        }
        self.init(
            seq: seq, receivedAt: time, answeredAt: time.addingTimeInterval(latency / 1000), vendor: vendor,
            method: try string("method"), path: try string("path"), tokens: tokens, app: try optionalString("app"), status: status,
            reason: try optionalString("reason"), retryAfter: try optionalInt("retryAfter"), ids: ids,
            notificationKey: try optionalString("notificationKey"), fault: try optionalInt("fault"))
    }
}

/// What the request log is asked: of one vendor (every vendor when nil), the records after
/// `since` (a `seq`; 0 for all of them).
public struct RequestLogQuery: Sendable, Equatable {
    public var vendor: Via?
    public var since: Int
    public init(vendor: Via? = nil, since: Int = 0) {
        self.vendor = vendor
        self.since = since
    }
}

/// The provider requests since the last reset, newest `capacity` kept, oldest first. Engine
/// state, beside the inbox, in memory only: a restart starts an empty log. Kept packed
/// (`PackedRequestRecords`: a full log of pushes is about 200 bytes a record); a record handed
/// out is built from its bytes as it is read, equal to the one appended.
public struct RequestLog: Sendable, Equatable {
    /// The most records kept; past it the oldest go.
    public static let capacity = 100_000
    private var packed: PackedRequestRecords
    /// The seq the next arriving request gets.
    public private(set) var nextSeq = 1
    public let capacity: Int

    public init(capacity: Int = RequestLog.capacity) {
        self.capacity = max(1, capacity)
        packed = PackedRequestRecords(capacity: self.capacity)
    }

    /// The seq of a request that has just arrived (its record is logged once it is answered).
    public mutating func arrive() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Logs an answered request (its `seq` from `arrive`; 0 takes the next one now).
    public mutating func append(_ record: consuming ProviderRequestRecord) -> ProviderRequestRecord {
        if record.seq <= 0 { record.seq = arrive() }
        packed.append(record)
        return record
    }

    public var count: Int { packed.count }

    /// Every record kept, in the order they were logged (each built from its bytes: a copy).
    public var records: [ProviderRequestRecord] { (0..<packed.count).map { packed.record(at: $0) } }

    /// The record `back` places before the newest (0: the newest one), or nil past the oldest.
    public func record(back: Int) -> ProviderRequestRecord? {
        guard back >= 0, back < packed.count else { return nil }
        return packed.record(at: packed.count - 1 - back)
    }

    /// The records `query` asks for, in arrival order (a record answered late is listed by its seq).
    public func select(_ query: RequestLogQuery) -> [ProviderRequestRecord] {
        var picked: [ProviderRequestRecord] = []
        for index in 0..<packed.count where packed.seq(at: index) > query.since {
            if query.vendor == nil || packed.vendor(at: index) == query.vendor { picked.append(packed.record(at: index)) }
        }
        // Answers may come in another order than their requests (a delayed answer).
        if zip(picked, picked.dropFirst()).contains(where: { $0.seq > $1.seq }) { picked.sort { $0.seq < $1.seq } }
        return picked
    }

    /// Empties the log; seqs start again at 1.
    public mutating func clear() {
        packed.removeAll()
        nextSeq = 1
    }

    /// The same records in the same order, the same next seq and capacity (however each keeps them).
    public static func == (lhs: RequestLog, rhs: RequestLog) -> Bool {
        guard lhs.capacity == rhs.capacity, lhs.nextSeq == rhs.nextSeq, lhs.count == rhs.count else { return false }
        return (0..<lhs.count).allSatisfy { lhs.packed.record(at: $0) == rhs.packed.record(at: $0) }
    }

    /// Where the packed records are read without building whole records (`requests(of:)`).
    var reading: PackedRequestRecords { packed }
}

extension Via {
    /// The vendors whose APIs the gateway serves (the front doors with a request log).
    public static let providers: [Via] = [.apns, .jpush, .getui, .fcm]
}
