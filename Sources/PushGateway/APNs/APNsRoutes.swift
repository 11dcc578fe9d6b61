import Foundation
import PushCore
import PushJSON

/// The APNs provider API: `POST /3/device/{token}`, validated as Apple's
/// "Sending notification requests to APNs" asks and refused with the reasons and statuses of
/// "Handling error responses from APNs" (`APNsReason`). An accepted request becomes the same
/// push request the socket takes, under the topic's app, recorded with `via: apns`, its token
/// and its `apns-*` headers. A refusal changes nothing.
public struct APNsRoutes: GatewayRoutes {
    /// What an unknown token gets (`--devices`).
    public var devices: DevicePolicy
    /// Tokens already parsed and checked (a backend sends the same one for up to an hour).
    let tokens = ProviderTokenCache()

    public init(devices: DevicePolicy = .open) { self.devices = devices }

    /// The header an accepted push's answer names it by in the delivery log.
    public static let uniqueIdHeader = "apns-unique-id"
    /// The request path's prefix; the token follows it.
    public static let pathPrefix = "/3/device/"
    /// The headers Apple refuses to see twice (`DuplicateHeaders`). A list, not a set: each of
    /// a request's headers is looked up, and comparing a short name with seven, length first,
    /// costs less than hashing it.
    static let singleHeaders: [String] = [
        "authorization", "apns-id", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration",
        "apns-collapse-id",
    ]
    /// Whether a header of `request` that `isSingle` names comes more than once. Each is looked
    /// for among the headers before it: a request has a handful, and a set of the names seen
    /// cost an allocation and a hash a header (3 k instructions of a push).
    static func repeatsHeader(in request: HTTPRequest, where isSingle: (String) -> Bool) -> Bool {
        let headers = request.headers
        for index in headers.indices where isSingle(headers[index].name) {
            if headers[..<index].contains(where: { $0.name == headers[index].name }) { return true }
        }
        return false
    }
    /// The longest `apns-collapse-id`, in bytes.
    public static let maxCollapseIdBytes = 64
    /// A body that is not a JSON object: Apple documents no reason for it, so this one is
    /// pushdeck's (a device would show nothing; storing it would hide the backend's bug).
    public static let unreadablePayloadReason = "BadPayload"

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        if Self.isBroadcastPath(request.path) { return decideBroadcast(request, context: context) }
        // The request's own apns-id is answered back even when it is refused as no UUID (clients
        // such as aioapns match an error to its request by it); a new one when there is none.
        let given = request.value("apns-id").flatMap { Self.isEchoable($0) ? $0 : nil }
        let apnsId = given ?? RandomUUID.text()
        switch check(request, context: context) {
        case .refused(let refusal):
            return .respond(refusal.response(apnsId: apnsId))
        case .accepted(var push):
            // The decoder does not read `apns-id`: the push it decoded gets it as the message
            // keeps it.
            push.setHeader("apns-id", apnsId)
            return .request(.push(push)) { reply in
                guard reply.isOK else {
                    // The store failed (or the inbox refused what the route let through): Apple's 500.
                    return APNsRefusal(.internalServerError).response(apnsId: apnsId)
                }
                // Apple's "Handling notification responses from APNs": `apns-unique-id`, a UUID
                // the development environment sends with an accepted push (to look it up in the
                // Push Notifications Console's delivery log) — pushdeck is a development server.
                return HTTPResponse(status: 200, headers: [
                    HTTPHeader("apns-id", apnsId, unique: true), HTTPHeader(Self.uniqueIdHeader, RandomUUID.text(), unique: true),
                ])
            }
        }
    }

    /// A refusal of the transport in Apple's shape (`{"reason":…}` and `apns-id`, as "Handling
    /// error responses from APNs" gives them): a body too large is `413 PayloadTooLarge`, an
    /// unknown method `405 MethodNotAllowed`, a request not whole in time `400 IdleTimeout` (the
    /// one timeout Apple's table lists), no server behind the gateway `503 ServiceUnavailable`.
    /// Apple's table has no reason for oversized headers or bytes that are not HTTP (APNs'
    /// HTTP/2 servers end such a connection); those are pushdeck's, in Apple's shape:
    /// `431 HeadersTooLarge` and `400 MalformedRequest`.
    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse {
        let given = refusal.request.value("apns-id").flatMap { Self.isEchoable($0) ? $0 : nil }
        let apnsId = given ?? RandomUUID.text()
        let answer: APNsRefusal
        switch refusal.kind {
        case .bodyTooLarge: answer = APNsRefusal(.payloadTooLarge)
        case .headersTooLarge: answer = APNsRefusal(reason: Self.headersTooLargeReason, status: 431)
        case .badMethod: answer = APNsRefusal(.methodNotAllowed)
        case .malformed: answer = APNsRefusal(reason: Self.malformedReason, status: 400)
        case .timeout: answer = APNsRefusal(.idleTimeout)
        case .unavailable: answer = APNsRefusal(.serviceUnavailable)
        }
        // The broadcast API names its answers by `apns-request-id`.
        if Self.isBroadcastPath(refusal.request.path) { return Self.channelRefusal(answer, requestId: Self.requestId(refusal.request)) }
        return answer.response(apnsId: apnsId)
    }

    /// pushdeck's reasons for what Apple's table has none for (see `refuse`).
    public static let headersTooLargeReason = "HeadersTooLarge"
    public static let malformedReason = "MalformedRequest"

    // MARK: - Validation

    enum Outcome {
        /// The push request, decoded (`decoded`) from the body as the check parsed it: the
        /// inbox takes it as it is (its `apns-id` is added by `decide`).
        case accepted(PushRequest)
        case refused(APNsRefusal)
    }

    /// Every check of one request, in order: path, method, duplicates, provider token, headers,
    /// payload, then the device.
    func check(_ request: HTTPRequest, context: GatewayContext) -> Outcome {
        guard var rawToken = Self.token(inPath: request.path, known: request.prepared.apnsPush?.token) else {
            return .refused(APNsRefusal(.badPath))
        }
        guard !rawToken.withUTF8({ $0.contains(UInt8(ascii: "/")) }) else { return .refused(APNsRefusal(.badPath)) }
        guard request.method == "POST" else { return .refused(APNsRefusal(.methodNotAllowed)) }
        guard !rawToken.isEmpty else { return .refused(APNsRefusal(.missingDeviceToken)) }

        let headers = APNsHeaders(request.headers)
        if headers.repeated { return .refused(APNsRefusal(.duplicateHeaders)) }

        // Apple's MissingProviderToken: "the authorization header is missing or no provider token
        // is specified" (Handling notification responses from APNs) — so is a `bearer` with
        // nothing after it, or an empty value.
        guard let authorization = headers.authorization, !Self.namesNoToken(authorization) else {
            return .refused(APNsRefusal(.missingProviderToken))
        }
        guard let token = tokens.token(authorization) else {
            return .refused(APNsRefusal(.invalidProviderToken))
        }
        if let problem = tokens.problem(
            token, authorization: authorization, keys: context.inbox.apnsKeys, now: context.now,
            environment: APNsEnvironment.of(host: headers.host)
        ) {
            return .refused(APNsRefusal(problem))
        }

        guard Device.isHexToken(rawToken) else { return .refused(APNsRefusal(.badDeviceToken)) }
        if let id = headers.id, UUID(uuidString: id) == nil { return .refused(APNsRefusal(.badMessageId)) }
        guard let topic = headers.topic, !topic.isEmpty else { return .refused(APNsRefusal(.missingTopic)) }
        guard Self.isTopic(topic) else { return .refused(APNsRefusal(.badTopic)) }
        var pushType = APNsPushType.alert
        if let text = headers.pushType {
            guard let known = APNsPushType(rawValue: text) else { return .refused(APNsRefusal(.invalidPushType)) }
            pushType = known
        }
        if let refusal = Self.liveActivityTopicRefusal(topic: topic, pushType: pushType) { return .refused(refusal) }
        if let priority = headers.priority {
            guard ["10", "5", "1"].contains(priority) else { return .refused(APNsRefusal(.badPriority)) }
            // Apple: background pushes always use priority 5; "using priority 10 is an error".
            if pushType == .background && priority == "10" { return .refused(APNsRefusal(.badPriority)) }
        }
        if let expiration = headers.expiration {
            guard !expiration.isEmpty, expiration.utf8.allSatisfy({ (0x30...0x39).contains($0) }), Int64(expiration) != nil
            else { return .refused(APNsRefusal(.badExpirationDate)) }
        }
        if let collapseId = headers.collapseId, collapseId.utf8.count > Self.maxCollapseIdBytes {
            return .refused(APNsRefusal(.badCollapseId))
        }

        guard !request.body.isEmpty else { return .refused(APNsRefusal(.payloadEmpty)) }
        guard request.body.count <= pushType.payloadLimit else { return .refused(APNsRefusal(.payloadTooLarge)) }
        let deviceToken = Device.lowercasedHex(rawToken)
        let app = Self.app(ofTopic: topic, pushType: pushType)
        let read: PushRequest?
        if let prepared = request.prepared.apnsPush, prepared.token == deviceToken, prepared.app == app, prepared.pushType == pushType {
            read = prepared.push
        } else {
            read = Self.push(of: request, token: deviceToken, app: app, pushType: pushType)
        }
        guard let push = read else { return .refused(APNsRefusal(reason: Self.unreadablePayloadReason, status: 400)) }

        if let device = context.inbox.devices[deviceToken] {
            guard device.vendor == .apns else { return .refused(APNsRefusal(.badDeviceToken)) }
            guard device.app == app else { return .refused(APNsRefusal(.deviceTokenNotForTopic)) }
            // A Live Activity's tokens (push-to-start, an activity's own) take liveactivity
            // pushes on the `.push-type.liveactivity` topic only, and the app's token none.
            guard device.kind.isLiveActivity == (pushType == .liveactivity) else {
                return .refused(APNsRefusal(.deviceTokenNotForTopic))
            }
            if let unregisteredAt = device.unregisteredAt {
                return .refused(APNsRefusal(.unregistered, timestamp: Int64((unregisteredAt.timeIntervalSince1970 * 1000).rounded())))
            }
            // "Handling error responses from APNs": 410 `ExpiredToken`, "the device token has
            // expired" — an activity's push token lives as long as its activity, so once the
            // activity has ended and left the screen its token is expired.
            if device.kind == .activity, let id = context.inbox.activities.idByToken[deviceToken],
               context.inbox.activities.byId[id]?.state(at: context.now) == .dismissed {
                return .refused(APNsRefusal(.expiredToken))
            }
        } else if devices == .strict {
            return .refused(APNsRefusal(.badDeviceToken))
        }

        return .accepted(push)
    }

    /// What follows `/3/device/` in `path` (its query left out), or nil when the path does not
    /// start so. Dropped on the bytes: `dropFirst` on a String goes Character by Character, and
    /// comparing a `Substring`'s bytes with `starts(with:)` cost 2 000 instructions a request on
    /// this path (callgrind).
    ///
    /// `known`, when the token's bytes are its own: the token of the push already made of the
    /// request, so neither the check nor the request log makes one more string of the same 64
    /// digits (each a new allocation and a UTF-8 check).
    static func token(inPath path: String, known: String? = nil) -> String? {
        guard path.hasASCIIPrefix(pathPrefix) else { return nil }
        if let known, Self.path(path, namesToken: known) { return known }
        return String(Substring(HTTPRequest.withoutQuery(path).utf8.dropFirst(pathPrefix.utf8.count)))
    }

    /// Whether `path` is the device path of `token` (its query aside), compared as bytes.
    private static func path(_ path: String, namesToken token: String) -> Bool {
        let start = pathPrefix.utf8.count
        return path.utf8.withContiguousStorageIfAvailable { path in
            token.utf8.withContiguousStorageIfAvailable { token in
                let end = start + token.count
                guard path.count == end || (path.count > end && path[end] == UInt8(ascii: "?")),
                      let pathBytes = path.baseAddress, let tokenBytes = token.baseAddress
                else { return false }
                return memcmp(pathBytes + start, tokenBytes, token.count) == 0
            } ?? false
        } ?? false
    }

    /// Apple's "Sending notification requests to APNs": a `liveactivity` push's `apns-topic` is
    /// the bundle id with `.push-type.liveactivity`. Without it the topic is not one a Live
    /// Activity push may go to (`TopicDisallowed`); that topic with another push type is a push
    /// type the topic does not take (`InvalidPushType`).
    static func liveActivityTopicRefusal(topic: String, pushType: APNsPushType) -> APNsRefusal? {
        guard let suffix = APNsPushType.liveactivity.topicSuffix else { return nil }
        let named = topic.hasSuffix(suffix) && topic.count > suffix.count
        if pushType == .liveactivity && !named { return APNsRefusal(.topicDisallowed) }
        if pushType != .liveactivity && named { return APNsRefusal(.invalidPushType) }
        return nil
    }

    /// A header value safe to answer back: printable ASCII, at most 128 bytes.
    static func isEchoable(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 128 && value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// A topic is a bundle id, perhaps with a push type's suffix: letters, digits, `.`, `-`, `_`.
    /// Whether an `authorization` value carries no token: empty, or the `bearer` scheme alone
    /// (any case, whitespace around it).
    /// Read on the UTF-8 bytes: splitting the whole header (a JWT of 150 bytes and more) by
    /// Characters was an eighth of an APNs push (callgrind on the release server).
    static func namesNoToken(_ authorization: String) -> Bool {
        let bytes = authorization.utf8
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }) else { return true }
        let end = bytes[start...].firstIndex(where: isBlank) ?? bytes.endIndex
        // A second word (a token after the scheme, or anything else) is a token.
        guard bytes[end...].allSatisfy(isBlank) else { return false }
        // `bearer` in any case: ASCII letters fold to lower case by their 0x20 bit.
        return bytes[start..<end].elementsEqual("bearer".utf8) { $0 | 0x20 == $1 }
    }

    static func isTopic(_ topic: String) -> Bool {
        topic.utf8.count <= 255 && topic.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// The payload's part of `check`: the push the request hands the inbox, with one parse and
    /// one decode of its body; nil when the payload is unreadable. APNs does not read a Live
    /// Activity's ActivityKit content (the device judges it), so such a payload need only be a
    /// JSON object.
    static func push(of request: HTTPRequest, token: String, app: String, pushType: APNsPushType) -> PushRequest? {
        var kept: [String: String] = [:]
        // Sized once for every header: grown as apns- headers came, it was a reallocation each.
        kept.reserveCapacity(request.headers.count)
        // The three the push reads are taken as they pass (the last of a name, as the
        // dictionary keeps it), not looked up again by hashing their names.
        var collapseId: String?, pushTypeText: String?, priority: String?
        for header in request.headers where header.name.hasASCIIPrefix("apns-") {
            kept[header.name] = header.value
            switch header.name {
            case "apns-collapse-id": collapseId = header.value
            case "apns-push-type": pushTypeText = header.value
            case "apns-priority": priority = header.value
            default: break
            }
        }
        guard let tape = try? JSONTape.parse(request.body) else { return nil }
        var push = PushRequest(
            payloadText: tape.text, app: app, channel: .apns, parsed: tape.root, collapseId: collapseId, pushType: pushTypeText,
            priority: priority.flatMap { Int($0) }, via: .apns, token: token, headers: kept)
        if pushType == .liveactivity {
            guard tape.root.kind == .object else { return nil }
        } else {
            guard let decoded = try? PushDecoder(maxPayloadBytes: pushType.payloadLimit).decode(push) else { return nil }
            push.decoded = decoded
        }
        return push
    }

    /// Takes ahead, from the request alone, what deciding and logging a push to a device token
    /// would compute: its payload's push (`push(of:)`, for the app and push type its headers
    /// name) and, without an apns-id to key it, its payload's digest. A request its headers
    /// make `check` refuse first is left as it is.
    public func prepare(_ request: inout HTTPRequest) {
        guard let rawToken = Self.token(inPath: request.path) else { return }
        let digest = request.value("apns-id") == nil ? RequestSummary.digest(request.body) : nil
        request.prepared = PreparedRequest(bodyDigest: digest, apnsPush: Self.preparedPush(of: request, rawToken: rawToken))
    }

    /// `prepare`'s push: nil when the headers make `check` refuse the request first.
    private static func preparedPush(of request: HTTPRequest, rawToken: String) -> PreparedRequest.APNsPush? {
        guard let topic = request.value("apns-topic"), !topic.isEmpty, !request.body.isEmpty else { return nil }
        var pushType = APNsPushType.alert
        if let text = request.value("apns-push-type") {
            guard let known = APNsPushType(rawValue: text) else { return nil }
            pushType = known
        }
        guard request.body.count <= pushType.payloadLimit else { return nil }
        let token = Device.lowercasedHex(rawToken)
        let app = app(ofTopic: topic, pushType: pushType)
        return (token, app, pushType, push(of: request, token: token, app: app, pushType: pushType))
    }

    /// The app (bundle id) a topic stands for: the push type's suffix taken off.
    public static func app(ofTopic topic: String, pushType: APNsPushType) -> String {
        if let suffix = pushType.topicSuffix, topic.hasSuffix(suffix), topic.count > suffix.count {
            return String(topic.dropLast(suffix.count))
        }
        return topic
    }
}

/// An APNs error answer: a reason, its status, and for `Unregistered` the time (ms) the token
/// stopped being valid.
public struct APNsRefusal: Sendable, Equatable {
    public var reason: String
    public var status: Int
    public var timestamp: Int64?

    public init(_ reason: APNsReason, timestamp: Int64? = nil) {
        self.init(reason: reason.rawValue, status: reason.status, timestamp: timestamp)
    }

    public init(reason: String, status: Int, timestamp: Int64? = nil) {
        self.reason = reason
        self.status = status
        self.timestamp = timestamp
    }

    /// The HTTP answer: status, `apns-id`, and the `{"reason":…}` body.
    public func response(apnsId: String) -> HTTPResponse {
        var body: JSONObject = ["reason": .string(reason)]
        if let timestamp { body["timestamp"] = .number(JSONNumber(timestamp)) }
        return HTTPResponse(
            status: status,
            headers: [HTTPHeader("apns-id", apnsId, unique: true), HTTPHeader("content-type", "application/json")],
            body: Array(JSON.object(body).compactText.utf8))
    }
}

/// The headers Apple's checks of a push read, taken in one pass over the request's headers
/// (rather than a pass for each of ten names, and one more for the duplicates), and whether one
/// that must come once came again. A header's first value is the one read, as
/// `HTTPRequest.value` reads it.
struct APNsHeaders {
    var authorization: String?
    var host: String?
    var id: String?
    var topic: String?
    var pushType: String?
    var priority: String?
    var expiration: String?
    var collapseId: String?
    /// One of `APNsRoutes.singleHeaders` came more than once.
    var repeated = false

    init(_ headers: [HTTPHeader]) {
        for header in headers {
            let name = header.name
            // By length first: a name of another length is never compared.
            switch name.utf8.count {
            case 4 where name == "host": if host == nil { host = header.value }
            case 7 where name == "apns-id": Self.take(header.value, into: &id, &repeated)
            case 10 where name == "apns-topic": Self.take(header.value, into: &topic, &repeated)
            case 13 where name == "authorization": Self.take(header.value, into: &authorization, &repeated)
            case 13 where name == "apns-priority": Self.take(header.value, into: &priority, &repeated)
            case 14 where name == "apns-push-type": Self.take(header.value, into: &pushType, &repeated)
            case 15 where name == "apns-expiration": Self.take(header.value, into: &expiration, &repeated)
            case 16 where name == "apns-collapse-id": Self.take(header.value, into: &collapseId, &repeated)
            default: break
            }
        }
    }

    private static func take(_ value: String, into field: inout String?, _ repeated: inout Bool) {
        if field == nil { field = value } else { repeated = true }
    }
}
