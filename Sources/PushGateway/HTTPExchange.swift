import PushCore
import PushJSON

/// One header as it arrived: name lower-cased (HTTP/2 sends them so; HTTP/1.1 names are folded).
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
}

/// A whole request, as HTTP/2 (one stream) or HTTP/1.1 (one message) brought it.
public struct HTTPRequest: Sendable {
    public enum Version: String, Sendable { case http2 = "HTTP/2", http1_1 = "HTTP/1.1" }
    public var method: String
    /// The request target as sent (`:path` / request-line target), query included.
    public var path: String
    /// In arrival order; duplicates kept (APNs refuses some duplicates).
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    public var version: Version
    public var isTLS: Bool
    public init(method: String, path: String, headers: [HTTPHeader], body: [UInt8], version: Version, isTLS: Bool) {
        self.method = method; self.path = path; self.headers = headers; self.body = body
        self.version = version; self.isTLS = isTLS
    }
    /// Every value of header `name` (lower-case).
    public func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }
}

/// What a route makes of a request.
public enum GatewayDecision: Sendable {
    /// Answer now; nothing changes (a refusal, or a request that needs no change).
    case respond(HTTPResponse)
    /// Into the inbox as this socket-equivalent request; once the loop has committed it, the
    /// request's typed reply (what the socket would have sent as JSON) is turned into the HTTP
    /// answer by `answer`.
    case request(Request, answer: @Sendable (Reply) -> HTTPResponse)
    /// Several requests, handled in order as if they came one after another (Getui's batch push);
    /// once all are committed their replies, in order, go to `answer`.
    case requests([Request], answer: @Sendable ([Reply]) -> HTTPResponse)
}

/// What a route may consult (read-only) when it decides: the inbox's current state and the time.
public struct GatewayContext: Sendable {
    public var inbox: Inbox     // devices/keys live in the inbox state (gateway-apns adds them)
    public var now: Date
    public init(inbox: Inbox, now: Date) { self.inbox = inbox; self.now = now }
}

/// A set of routes (APNs; later JPush, Getui). The transport calls `decide` for every whole request.
public protocol GatewayRoutes: Sendable {
    func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision
}
