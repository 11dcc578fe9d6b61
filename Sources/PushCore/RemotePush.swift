import Foundation
import PushJSON

/// A push for a device token registered on another pushdeck of the team bus: what the sender
/// keeps in its outbox until the owner's receipt comes, and what it publishes (QoS 1) to
/// `pushdeck/v1/devices/{token}/push`. Its `id` is the UUID the sender assigned when it accepted
/// the push; the owner counts a push once by it, so publishing it again is always safe.
public struct RemotePush: Sendable, Equatable {
    public var id: String
    public var token: String
    /// The payload's text exactly as it arrived at the sender.
    public var payloadText: String
    public var app: String?
    public var channel: Channel?
    public var collapseId: String?
    public var pushType: String?
    public var priority: Int?
    /// The front door it came in by at the sender (`apns`, `socket`, …).
    public var via: Via
    /// The request's vendor headers, as the message keeps them.
    public var headers: [String: String]
    /// When the sender accepted it, and when it stops republishing it (its expiration or time to
    /// live; a day when the request names none).
    public var acceptedAt: Date
    public var expiresAt: Date

    /// How long an outbox entry is republished when the request names no expiration, and at most.
    public static let defaultLifetime: TimeInterval = 86_400

    public init(
        id: String, token: String, payloadText: String, app: String?, channel: Channel?, collapseId: String?,
        pushType: String?, priority: Int?, via: Via, headers: [String: String], acceptedAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.token = token
        self.payloadText = payloadText
        self.app = app
        self.channel = channel
        self.collapseId = collapseId
        self.pushType = pushType
        self.priority = priority
        self.via = via
        self.headers = headers
        self.acceptedAt = acceptedAt
        self.expiresAt = expiresAt
    }

    /// The request accepted at `now` as a remote push with a new id, time-ordered (UUID version
    /// 7): the sender's outbox and the owner's record of the ids it took are keyed by it, and
    /// ids in the order of acceptance add their rows at the end of those tables, a few pushes to
    /// a page, instead of a page written somewhere in each for every push. Its lifetime: APNs'
    /// `apns-expiration` (a UNIX epoch in seconds; 0 means "try once", so an hour of retries
    /// here), else the decoded time to live (JPush `time_to_live`, Getui `settings.ttl`), else a day.
    public init(_ request: PushRequest, token: String, timeToLive: TimeInterval?, now: Date) {
        var expires = now.addingTimeInterval(Self.defaultLifetime)
        if let text = request.headers["apns-expiration"], let epoch = Double(text) {
            expires = epoch > 0 ? Date(timeIntervalSince1970: epoch) : now.addingTimeInterval(3600)
        } else if let timeToLive, timeToLive > 0 {
            expires = now.addingTimeInterval(timeToLive)
        }
        // Never past a day: the owner remembers the ids it took for a day (`Inbox.busPushIds`),
        // so a push published again later could be counted twice.
        expires = min(expires, now.addingTimeInterval(Self.defaultLifetime))
        self.init(
            id: RandomUUID.timeOrdered(millisecondsSince1970: Int64((now.timeIntervalSince1970 * 1000).rounded(.down))), token: token, payloadText: request.payloadText, app: request.app,
            channel: request.channel, collapseId: request.collapseId, pushType: request.pushType, priority: request.priority,
            via: request.via, headers: request.headers, acceptedAt: now, expiresAt: expires)
    }

    /// The topic it is published to.
    public var topic: String { Self.topic(token: token) }
    public static func topic(token: String) -> String { "pushdeck/v1/devices/\(token)/push" }

    // MARK: - On the wire

    /// The published message: the push, its source and its id (`sender`: the instance id).
    public func wireJSON(sender: String) -> JSON {
        var headerMembers: [(key: String, value: JSON)] = []
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { headerMembers.append((name, .string(value))) }
        return .object(JSONObject([
            ("id", .string(id)), ("sender", .string(sender)), ("via", .string(via.rawValue)), ("token", .string(token)),
            ("app", .string(orNull: app)), ("channel", .string(orNull: channel?.rawValue)),
            ("collapseId", .string(orNull: collapseId)), ("pushType", .string(orNull: pushType)),
            ("priority", priority.map { .number(JSONNumber($0)) } ?? .null),
            ("headers", .object(JSONObject(headerMembers))),
            ("acceptedAt", .number(JSONNumber(Int64((acceptedAt.timeIntervalSince1970 * 1000).rounded())))),
            ("expiresAt", .number(JSONNumber(Int64((expiresAt.timeIntervalSince1970 * 1000).rounded())))),
            ("payload", .string(payloadText)),
        ]))
    }

    /// The largest published push taken: the socket's own largest request (`--max-request`'s
    /// default), so a push by the bus meets the limits a push by the socket meets.
    public static let maxWireBytes = 64 * 1024

    /// Reads a published push (untrusted bytes from the broker): its size first, then every
    /// field's type; `topicToken` is the token of the topic it came on, which it must name.
    public static func decode(wire bytes: [UInt8], topicToken: String, maxBytes: Int = maxWireBytes) throws(WireError) -> (push: RemotePush, sender: String) {
        guard bytes.count <= maxBytes else {
            throw WireError("a push of \(bytes.count) bytes is larger than the \(maxBytes)-byte limit")
        }
        // Read in place (`JSONTape`: the same validation and refusals as `JSON.parse`, no tree):
        // building the push's tree of small allocations only to read its fields was most of its
        // decoding, a twentieth of an owner's CPU time a push.
        let object: JSONView
        do {
            object = try JSONTape.parse(bytes).root
        } catch {
            throw WireError(error.wireMessage(subject: "push", bytes: bytes))
        }
        guard object.kind == .object else { throw WireError("a push must be a JSON object; got \(object.kindName)") }
        func text(_ key: String) throws(WireError) -> String {
            guard let value = object[key]?.string, !value.isEmpty else { throw WireError("a push needs \(key) as a string") }
            return value
        }
        func optionalText(_ key: String) throws(WireError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let text = value.string else { throw WireError("\(key) must be a string; got \(value.kindName)") }
            return text
        }
        let id = try text("id")
        guard RandomUUID.isWellFormed(id) else { throw WireError("id must be a UUID; got '\(id.prefix(64))'") }
        let sender = try text("sender")
        guard BusIdentity.isValid(sender) else { throw WireError("sender is not an instance id: '\(sender.prefix(64))'") }
        let token = try text("token")
        guard token == topicToken else { throw WireError("the push names token \(token.prefix(200)), not its topic's") }
        let viaText = try text("via")
        guard let via = Via(rawValue: viaText) else { throw WireError("via is not a front door: '\(viaText.prefix(64))'") }
        var channel: Channel?
        if let name = try optionalText("channel") {
            guard let known = Channel(rawValue: name) else { throw WireError("channel is not one of apns, transparent, android") }
            channel = known
        }
        var priority: Int?
        if let value = object["priority"], !value.isNull {
            guard let number = value.number?.int else { throw WireError("priority must be a number") }
            priority = number
        }
        var headers: [String: String] = [:]
        if let value = object["headers"], !value.isNull {
            guard value.kind == .object else { throw WireError("headers must be an object") }
            for member in value.members {
                guard let text = member.value.string else { throw WireError("header \(member.name.prefix(64)) must be a string") }
                headers[member.name] = text
            }
        }
        func milliseconds(_ key: String) throws(WireError) -> Date {
            guard let value = object[key]?.number?.int else { throw WireError("a push needs \(key) in milliseconds") }
            return Date(timeIntervalSince1970: Double(value) / 1000)
        }
        let push = RemotePush(
            id: id.lowercased(), token: token, payloadText: try text("payload"), app: try optionalText("app"), channel: channel,
            collapseId: try optionalText("collapseId"), pushType: try optionalText("pushType"), priority: priority, via: via,
            headers: headers, acceptedAt: try milliseconds("acceptedAt"), expiresAt: try milliseconds("expiresAt"))
        return (push, sender)
    }

    /// The request the owner's engine takes: by the bus (`via: mqtt`) to this token, with the
    /// source (front door and sending instance) kept among the message's headers, and the id
    /// and sender the engine counts it once by.
    public func request(sender: String) -> PushRequest {
        var headers = self.headers
        headers[Self.senderHeader] = sender
        headers[Self.frontDoorHeader] = via.rawValue
        var request = PushRequest(
            payloadText: payloadText, app: app, channel: channel, collapseId: collapseId, pushType: pushType, priority: priority,
            via: .mqtt, token: token, headers: headers)
        request.bus = BusOrigin(id: id, sender: sender)
        return request
    }

    /// The sender an outbox row is stored with (the instance id is the bus's, added as it publishes).
    public static let storedSender = "outbox"

    /// The headers a message by the bus records its source under.
    public static let senderHeader = "pushdeck-sender"
    public static let frontDoorHeader = "pushdeck-via"
    /// The header a watch-all instance (`--watch-all`) tags a push another instance took with:
    /// that instance's id.
    public static let instanceHeader = "pushdeck-instance"
}

/// Where a push by the bus came from: its id and the instance that sent it.
public struct BusOrigin: Sendable, Equatable {
    public var id: String
    public var sender: String
    public init(id: String, sender: String) {
        self.id = id
        self.sender = sender
    }
}

/// An instance id (`--mqtt-id`): letters, digits, `.`, `-`, `_`, `@` — it is a topic level, where
/// `/`, `+` and `#` would mean other topics.
public enum BusIdentity {
    public static let maxLength = 128
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxLength
            && id.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || ".-_@".unicodeScalars.contains(scalar))
            }
    }
}

/// What a receipt says became of a push by the bus on its owner.
public struct BusReceipt: Sendable, Equatable {
    public enum Fate: String, Sendable, Equatable {
        case stored, dropped, refused
    }
    public var push: String
    public var fate: Fate
    public var reason: String?

    public init(push: String, fate: Fate, reason: String?) {
        self.push = push
        self.fate = fate
        self.reason = reason
    }

    /// The owner's reply to the push as a receipt: kept (delivered, held, stored for an offline
    /// device), dropped (and why), or refused with the reason.
    public init(push: String, reply: Reply) {
        if let pushReply = reply.pushReply {
            if case .dropped(let drop) = pushReply.fate {
                self.init(push: push, fate: .dropped, reason: drop.rawValue)
            } else {
                self.init(push: push, fate: .stored, reason: nil)
            }
        } else if case .activityPush = reply {
            self.init(push: push, fate: .stored, reason: nil)
        } else {
            self.init(push: push, fate: .refused, reason: reply.errorMessage ?? "refused")
        }
    }

    public static func topic(sender: String) -> String { "pushdeck/v1/instances/\(sender)/receipts" }

    public var wireJSON: JSON {
        .object(JSONObject([("push", .string(push)), ("fate", .string(fate.rawValue)), ("reason", .string(orNull: reason))]))
    }

    public static func decode(wire bytes: [UInt8]) throws(WireError) -> BusReceipt {
        try decode(line: bytes[...])
    }

    /// Reads a message of the receipts topic: one receipt (the form every sender takes), or
    /// several, one a line (the form an owner sends only to a sender whose state lists
    /// `receipts` among its `batches`). Each line is read as a receipt alone; one that is not
    /// does not spoil the others, and counts in `malformed`.
    public static func decode(lines bytes: [UInt8]) -> (receipts: [BusReceipt], malformed: Int) {
        var receipts: [BusReceipt] = []
        var malformed = 0
        for line in BusLines.split(bytes) {
            if let receipt = try? decode(line: line) {
                receipts.append(receipt)
            } else {
                malformed += 1
            }
        }
        return (receipts, malformed)
    }

    static func decode(line bytes: ArraySlice<UInt8>) throws(WireError) -> BusReceipt {
        guard bytes.count <= 64 * 1024 else { throw WireError("a receipt of \(bytes.count) bytes is too large") }
        // Read in place, as a push is (`RemotePush.decode`).
        guard let object = try? JSONTape.parse(Array(bytes)).root, object.kind == .object else { throw WireError("a receipt must be a JSON object") }
        guard let push = object["push"]?.string, RandomUUID.isWellFormed(push) else { throw WireError("a receipt needs push as a UUID") }
        guard let fateText = object["fate"]?.string, let fate = Fate(rawValue: fateText) else {
            throw WireError("a receipt needs fate: stored, dropped or refused")
        }
        return BusReceipt(push: push.lowercased(), fate: fate, reason: object["reason"]?.string)
    }
}

/// Several messages of one topic in one MQTT message, one a line, for the topics whose readers
/// say they take them so (`batches` in their state): a turn's receipts to one sender, a turn's
/// events. Each line is the message as it would be sent alone — compact JSON has no newline —
/// so one line is exactly the single form, and a message of several lines reads as `watch`'s
/// output does. Each MQTT message costs every process it passes through (the sender, the broker,
/// each reader) its packets and their system calls, whatever its size.
public enum BusLines {
    /// What an instance lists in its state's `batches` when it takes several receipts in one
    /// message, and several events.
    public static let receipts = "receipts"
    public static let events = "events"

    /// The largest message made by `join` (a line longer than this is a message of its own):
    /// half the 64 KiB every reader takes.
    public static let maxMessageBytes = 32 * 1024

    /// `lines` as messages of one line or several, in order, each at most `maxBytes` unless a
    /// line alone is longer.
    public static func join(_ lines: [[UInt8]], maxBytes: Int = maxMessageBytes) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var current: [UInt8] = []
        for line in lines {
            if !current.isEmpty && current.count + 1 + line.count > maxBytes {
                messages.append(current)
                current = []
            }
            if !current.isEmpty { current.append(0x0A) }
            current.append(contentsOf: line)
        }
        if !current.isEmpty { messages.append(current) }
        return messages
    }

    /// The lines of a message, empty ones (and a trailing newline) skipped.
    public static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
    }
}

/// What the engine knows of the host's team bus: none (no `--mqtt`), connected, or not now (and
/// the state to say why).
public enum BusLink: Sendable, Equatable {
    case none
    case connected
    case disconnected(String)
}
