/// A request on the wire (DESIGN §3), decoded and validated.
public enum Request: Sendable, Equatable {
    case push(PushRequest)
    case read(ReadTarget)
    case delete([Int64])
    case badge(app: String?, change: BadgeChange?, sync: Bool?)
    case mode(PushMode?)
    case app(AppState?)
    case list(ListQuery)
    case subscribe([Topic])
    case ping
}

/// A `push` request, or an object without `op`.
public struct PushRequest: Sendable, Equatable {
    /// The payload's text exactly as it arrived.
    public var payloadText: String
    public var app: String?
    public var channel: Channel?
    public var offline: Bool
    public init(payloadText: String, app: String? = nil, channel: Channel? = nil, offline: Bool = false) {
        self.payloadText = payloadText
        self.app = app
        self.channel = channel
        self.offline = offline
    }
}

public enum ReadTarget: Sendable, Equatable {
    case ids([Int64])
    case all(app: String?)
}

/// A `list` request: newest first, a page of at most `limit`, older than `before` when given.
public struct ListQuery: Sendable, Equatable {
    public var limit: Int
    public var unread: Bool
    public var before: Int64?
    public var app: String?
    public init(limit: Int = 50, unread: Bool = false, before: Int64? = nil, app: String? = nil) {
        self.limit = limit
        self.unread = unread
        self.before = before
        self.app = app
    }
}

/// A request that could not be decoded; `message` says what, where, and what is accepted.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Request {
    /// Decodes one framed object. STUB — to be written (issue 2).
    public static func decode(frame: [UInt8]) throws(WireError) -> Request {
        throw WireError("not implemented")
    }
}
