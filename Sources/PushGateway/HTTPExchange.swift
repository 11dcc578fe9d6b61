import Foundation
import PushCore
import PushJSON

/// One header as it arrived: name lower-cased (HTTP/2 sends them so; HTTP/1.1 names are folded).
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    /// Whether the value names this answer alone (an `apns-id`, an `apns-unique-id`). HTTP/2
    /// then sends it as a literal never indexed (RFC 7541 §6.2.3) instead of adding it to the
    /// connection's compression table, where it would never be used again and would push out
    /// the fields that do recur: that churn was 3 900 of the 123 300 instructions the gateway's
    /// loop spent on an APNs push. Not part of equality — a client reads the same field.
    public var isUnique: Bool

    public init(_ name: String, _ value: String, unique: Bool = false) {
        self.name = name
        self.value = value
        self.isUnique = unique
    }

    public static func == (left: HTTPHeader, right: HTTPHeader) -> Bool {
        left.name == right.name && left.value == right.value
    }

    /// Whether this is header `name` (lower-case). The lengths first: most names a lookup passes
    /// differ in length, and String's own comparison of two unequal strings is a call into the
    /// runtime (callgrind: an APNs push, ten lookups, spent half as much in those comparisons).
    @inline(__always) func named(_ name: String) -> Bool {
        self.name.utf8.count == name.utf8.count && self.name == name
    }
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
    /// The peer is a loopback address (its session says, from the connection's peer).
    public var fromLoopback: Bool
    /// The HTTP/2 stream it came on (0 for HTTP/1.1).
    public var streamID: Int32 = 0
    /// What its routes took ahead of deciding it, while the loop would only have waited
    /// (`GatewayRoutes.prepare`); empty: everything is taken when it is needed.
    public var prepared = PreparedRequest()
    public init(
        method: String, path: String, headers: [HTTPHeader], body: [UInt8], version: Version, isTLS: Bool, fromLoopback: Bool = false
    ) {
        self.method = method; self.path = path; self.headers = headers; self.body = body
        self.version = version; self.isTLS = isTLS; self.fromLoopback = fromLoopback
    }
    /// Every value of header `name` (lower-case).
    public func values(_ name: String) -> [String] { headers.filter { $0.named(name) }.map(\.value) }
    /// The first value of header `name` (lower-case), or nil: `values(name).first` without the arrays.
    public func value(_ name: String) -> String? { headers.first { $0.named(name) }?.value }
}

/// What a request's routes take ahead of deciding it, from the request alone
/// (`GatewayRoutes.prepare`): each part is what deciding or summarizing it would compute, the same.
///
/// What was taken is kept in one box: a request is copied several times on its way (into the
/// read-ahead queue, the exchange, the answer's closure), and a copy of a decoded push would
/// retain each of its strings.
public struct PreparedRequest: Sendable, Equatable {
    typealias APNsPush = (token: String, app: String, pushType: APNsPushType, push: PushRequest?)
    private final class Taken: Sendable {
        let bodyDigest: String?
        let apnsPush: APNsPush?
        init(bodyDigest: String?, apnsPush: APNsPush?) { self.bodyDigest = bodyDigest; self.apnsPush = apnsPush }
    }
    private var taken: Taken?

    /// The body's digest (`RequestSummary.digest`).
    public var bodyDigest: String? {
        get { taken?.bodyDigest }
        set { taken = Taken(bodyDigest: newValue, apnsPush: apnsPush) }
    }
    /// APNs: the push `check` makes of the payload (nil: unreadable), for the token, app and
    /// push type it was made for.
    var apnsPush: APNsPush? {
        get { taken?.apnsPush }
        set { taken = Taken(bodyDigest: bodyDigest, apnsPush: newValue) }
    }
    public init() {}

    /// Both parts at once, in one box.
    init(bodyDigest: String?, apnsPush: APNsPush?) {
        if bodyDigest != nil || apnsPush != nil { taken = Taken(bodyDigest: bodyDigest, apnsPush: apnsPush) }
    }

    /// Always equal: what was taken ahead is derived from the request, so two requests are
    /// equal for what they are, not for what was computed of them.
    public static func == (_: PreparedRequest, _: PreparedRequest) -> Bool { true }
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
    /// The control API's long-poll: answered by the sink once the condition the query names
    /// holds after a commit, or at its timeout (`GatewaySink.expect`).
    case expect([QueryItem])
    /// Several requests, handled in order as if they came one after another (Getui's batch push);
    /// once all are committed their replies, in order, go to `answer`.
    case requests([Request], answer: @Sendable ([Reply]) -> HTTPResponse)
}

/// What a route may consult (read-only) when it decides: the parts of the inbox's current state
/// it reads, and the time.
public struct GatewayContext: Sendable {
    public var inbox: InboxView
    public var now: Date
    public init(inbox: InboxView, now: Date) {
        self.inbox = inbox
        self.now = now
    }
    public init(inbox: borrowing Inbox, now: Date) {
        self.init(inbox: InboxView(inbox), now: now)
    }
}

/// What the transport refused before any route could see a whole request: the HTTP sessions
/// say what went wrong, the vendor whose path it was says how (status, headers, body). With the
/// request as far as it came — the method, path and headers may be partial or empty (garbage has
/// no path; a request line past the header limit is cut off) and the body is never kept.
public struct HTTPRefusal: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The body is longer than the gateway takes (`GatewayLimits.maxBodyBytes`).
        case bodyTooLarge(limit: Int)
        /// The request line or pseudo-headers and headers are longer than it takes (`maxHeaderBytes`).
        case headersTooLarge(limit: Int)
        /// A method the HTTP/1.1 parser does not know (`BREW /3/device/…`).
        case badMethod
        /// Not HTTP: the parser's name for what it found wrong (`HPE_INVALID_VERSION`, …).
        case malformed(String)
        /// Not whole within `requestTimeout` milliseconds of its first byte.
        case timeout(milliseconds: Int64)
        /// The gateway has nothing to hand requests to (its server is not attached).
        case unavailable
    }

    public var kind: Kind
    public var request: HTTPRequest
    /// Why, when the gateway knows better than its kind's words (the team bus is not connected).
    public var why: String?

    public init(_ kind: Kind, request: HTTPRequest, why: String? = nil) {
        self.kind = kind
        self.request = request
        self.why = why
    }

    /// The request's path without its query (empty when none came).
    public var path: String { request.pathOnly }

    /// What pushdeck says went wrong, for the vendor's message field.
    public var detail: String {
        if let why { return why }
        return switch kind {
        case .bodyTooLarge(let limit): "the body is longer than \(limit) bytes"
        case .headersTooLarge(let limit): "the request line and headers are longer than \(limit) bytes"
        case .badMethod: "the method is not one HTTP/1.1 knows"
        case .malformed(let name): "the request is not well-formed HTTP (\(name))"
        case .timeout(let milliseconds): "the request was not whole within \(milliseconds) ms of its first byte"
        case .unavailable: "the gateway is not attached to a running pushdeck"
        }
    }

    /// The HTTP status RFC 9110 gives the refusal, for routes whose vendor documents none.
    public var status: Int {
        switch kind {
        case .bodyTooLarge: 413
        case .headersTooLarge: 431  // RFC 6585 §5
        case .badMethod: 501  // RFC 9110 §9.1: a method the server does not recognize
        case .malformed: 400
        case .timeout: 408
        case .unavailable: 503
        }
    }
}

extension HTTPRefusal {
    /// The refusal's status alone, no body: for sessions with no routes (fuzz targets, tests).
    public static func plainResponse(_ refusal: HTTPRefusal) -> HTTPResponse { HTTPResponse(status: refusal.status) }
}

extension HTTPRequest: Equatable {}

/// One `name=value` of a request's query, percent-decoded (RFC 3986 §3.4; `+` is a space, as
/// HTML forms send it).
public struct QueryItem: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
}

extension HTTPRequest {
    /// The path without its query.
    public var pathOnly: String { String(Self.withoutQuery(path)) }

    /// `path` up to its query's `?` (RFC 3986 §3.4: the first `?` starts the query), found on
    /// the UTF-8 bytes: splitting by Characters walked every grapheme of the path, ~4 k
    /// instructions a call and several calls a request (callgrind on the release server), and
    /// stepping through `utf8`'s indices still cost 2 k; a native string's bytes are searched
    /// as a buffer.
    public static func withoutQuery(_ path: String) -> Substring {
        let utf8 = path.utf8
        let offset = utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: UInt8(ascii: "?")) }
            ?? utf8.firstIndex(of: UInt8(ascii: "?")).map { utf8.distance(from: utf8.startIndex, to: $0) }
        guard let offset else { return Substring(path) }
        return Substring(utf8[..<utf8.index(utf8.startIndex, offsetBy: offset)])
    }

    /// The query's items in order; nil when one is not percent-encoded well.
    public var queryItems: [QueryItem]? {
        guard let mark = path.firstIndex(of: "?") else { return [] }
        var items: [QueryItem] = []
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decoded(parts[0]), let value = parts.count > 1 ? decoded(parts[1]) : "" else { return nil }
            items.append(QueryItem(name, value))
        }
        return items
    }
}

extension GatewayRoutes {
    public func target(of request: HTTPRequest) -> (tokens: [String], app: String?) {
        let summary = summarize(request, decision: nil)
        return (summary.tokens, summary.app)
    }
}

/// A set of routes: one vendor's API (APNs, JPush, Getui, …), or the table of them all
/// (`ProviderRoutes`). The transport calls `decide` for every whole request, and `refuse` for
/// what it refused before a request was whole: each vendor answers both in its own shape.
public protocol GatewayRoutes: Sendable {
    func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision
    /// The vendor's answer to a refusal of the transport: its status, headers and body.
    func refuse(_ refusal: HTTPRefusal) -> HTTPResponse
    /// What `request` was, for the request log and for matching faults: read from what
    /// `decision` (its `decide`) already decoded, so the push path decodes nothing twice; from
    /// the request alone when there is no decision (a refusal of the transport, a fault).
    func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary
    /// What the vendor's answer to a request to `path` said: its reason (nil on success), the ids
    /// it assigned (an answer is read by itself: its request is not kept until it comes).
    func summarize(answer response: HTTPResponse, path: String) -> AnswerSummary
    /// The vendor whose request a path is (cheap: no summary).
    func vendor(of path: String) -> Via
    /// The tokens and app a request names, for matching faults: as `summarize` without a
    /// decision finds them, without what only the log needs.
    func target(of request: HTTPRequest) -> (tokens: [String], app: String?)
    /// An injected refusal (a fault's `status`), written by the vendor's own refusal writer.
    func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse
    /// Whether a request to `path` is a provider's (logged, and faults may answer it); pushdeck's
    /// own control API is not.
    func isProviderRequest(_ path: String) -> Bool
    /// Takes ahead what deciding and summarizing the request will need and the request alone
    /// gives (a payload's decode, the body's digest), into `request.prepared`: the gateway does
    /// it while the loop waits for a commit and can do nothing else with the request.
    func prepare(_ request: inout HTTPRequest)
    /// The routes that answer every request to `path`: these, or for a table of vendors
    /// (`ProviderRoutes`) the vendor's own, which each of its methods would look up again. A
    /// provider request's exchange takes them once (`ProviderExchange`).
    func routes(for path: String) -> any GatewayRoutes
}

extension GatewayRoutes {
    public func isProviderRequest(_ path: String) -> Bool { true }
    public func prepare(_ request: inout HTTPRequest) {}
    public func routes(for path: String) -> any GatewayRoutes { self }
}
