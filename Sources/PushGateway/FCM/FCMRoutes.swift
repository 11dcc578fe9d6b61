import Foundation
import PushCore
import PushJSON

/// FCM HTTP v1 on the gateway port, so firebase-admin and other v1 clients reach pushdeck with
/// only the endpoint (and the key file's `token_uri`) changed: Google's OAuth token endpoint for
/// service accounts (`POST /token`), and the FCM API under `/v1/projects/{project}/`.
public struct FCMRoutes: GatewayRoutes {
    public var devices: DevicePolicy
    public let tokens: FCMAccessTokens

    public static let tokenPath = "/token"
    public static let projectsPrefix = "/v1/projects/"
    /// The Instance ID server API's topic management (firebase-admin's `*_legacy` calls, older SDKs).
    public static let iidPrefix = "/iid/"
    /// The JWT bearer grant (RFC 7523 §2.1), the only grant a service account uses.
    public static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    public init(devices: DevicePolicy = .open, tokens: FCMAccessTokens = FCMAccessTokens()) {
        self.devices = devices
        self.tokens = tokens
    }

    /// Whether `path` (query included) is one of FCM's: the path before its query is `/token`,
    /// or begins with `projectsPrefix` or `iidPrefix` as `hasPrefix` says (by Characters).
    /// Asked several times a request, of every vendor's paths, so read on the UTF-8 bytes: a
    /// substring's `hasPrefix` walks graphemes, and was 4 % of an FCM send and 3 % of an APNs push.
    /// These names are ASCII letters, digits and `/`, which no other scalars are canonically
    /// equivalent to, so the bytes decide — but for a prefix followed by a non-ASCII scalar, which
    /// may join its `/` into one Character (every scalar that joins the one before it is beyond
    /// ASCII): that is left to `hasPrefix`.
    public static func serves(_ path: String) -> Bool {
        var text = path
        let decided = text.withUTF8 { utf8 -> Bool? in
            let bare = UnsafeBufferPointer(rebasing: utf8[..<(utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.count)])
            if bare.elementsEqual(tokenPath.utf8) { return true }
            for prefix in prefixes where bare.count >= prefix.count && bare[..<prefix.count].elementsEqual(prefix) {
                return bare.count == prefix.count || bare[prefix.count] < 0x80 ? true : nil
            }
            return false
        }
        if let decided { return decided }
        let bare = HTTPRequest.withoutQuery(path)
        return bare.hasPrefix(projectsPrefix) || bare.hasPrefix(iidPrefix)
    }

    private static let prefixes = [Array(projectsPrefix.utf8), Array(iidPrefix.utf8)]

    /// `projectsPrefix` as static text, for comparing with bytes.
    static let sendPathPrefix: StaticString = "/v1/projects/"

    /// The project of a `messages:send` request's path, `/v1/projects/{project}/messages:send`
    /// (its query aside), read on the bytes; nil for any other path. A path with a byte beyond
    /// ASCII is nil too and left to the reading by Characters, where a scalar that joins a `/`
    /// into one Character keeps it from being a separator; in ASCII a byte is a Character (but
    /// CR LF, which neither `/` nor the names here are part of). Asked twice a send (the
    /// decision and the log's summary), where splitting a substring by Characters was ~8 k
    /// instructions each (callgrind on the release server).
    static func sendProject(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes -> String? in
            let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            let projects = sendPathPrefix
            let prefix = projects.utf8CodeUnitCount
            let method: StaticString = "/messages:send"
            let methodStart = end - method.utf8CodeUnitCount
            guard methodStart >= prefix else { return nil }
            for index in 0..<end where bytes[index] >= 0x80 { return nil }
            guard UnsafeBufferPointer(rebasing: bytes[..<prefix]).elementsEqual(UnsafeBufferPointer(start: projects.utf8Start, count: prefix)),
                  UnsafeBufferPointer(rebasing: bytes[methodStart..<end]).elementsEqual(UnsafeBufferPointer(start: method.utf8Start, count: method.utf8CodeUnitCount))
            else { return nil }
            let project = UnsafeBufferPointer(rebasing: bytes[prefix..<methodStart])
            guard !project.contains(UInt8(ascii: "/")) else { return nil }
            return String(decoding: project, as: UTF8.self)
        }
    }

    /// The transport's refusals as Google's front end answers them, in Google's error shape: a
    /// body past the limit is `400 INVALID_ARGUMENT` "Request payload size exceeds the limit"
    /// (Google APIs answer an oversized request so), a method it does not know `404 "Method not
    /// found."` as for any path FCM does not serve, a request not whole in time `408
    /// DEADLINE_EXCEEDED`, no server behind the gateway FCM's `503 UNAVAILABLE`.
    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse {
        switch refusal.kind {
        case .bodyTooLarge(let limit):
            FCMAPIError(status: 400, grpcStatus: "INVALID_ARGUMENT", message: "Request payload size exceeds the limit: \(limit) bytes.").response
        case .headersTooLarge, .malformed:
            FCMAPIError(status: 400, grpcStatus: "INVALID_ARGUMENT", message: "Request contains an invalid argument. (\(refusal.detail))").response
        case .badMethod: FCMAPIError.methodNotFound.response
        case .timeout: FCMAPIError(status: 408, grpcStatus: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete.").response
        case .unavailable: FCMAPIError(.unavailable).response
        }
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        if let project = Self.sendProject(request.path) {
            guard request.method == "POST" else { return .respond(FCMAPIError.methodNotFound.response) }
            if let refusal = authorize(request, project: project, context: context) { return .respond(refusal.response) }
            return send(request, project: project, context: context)
        }
        let path = request.pathOnly
        if path == Self.tokenPath {
            guard request.method == "POST" else { return .respond(FCMAPIError.methodNotFound.response) }
            return .respond(token(request, context: context))
        }
        if path.hasPrefix(Self.iidPrefix) { return iid(request, path: path, context: context) }
        // /v1/projects/{project}/{rest}
        let rest = path.dropFirst(Self.projectsPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return .respond(FCMAPIError.methodNotFound.response) }
        let project = String(rest[..<slash])
        let method = rest[rest.index(after: slash)...]
        if method == "messages:send" {
            guard request.method == "POST" else { return .respond(FCMAPIError.methodNotFound.response) }
            if let refusal = authorize(request, project: project, context: context) { return .respond(refusal.response) }
            return send(request, project: project, context: context)
        }
        // registrations/{token}/topicSubscriptions[/{topic}]
        let parts = method.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.count <= 4, parts[0] == "registrations", parts[2] == "topicSubscriptions" else {
            return .respond(FCMAPIError.methodNotFound.response)
        }
        let token = parts[1].removingPercentEncoding ?? String(parts[1])
        let query = Self.query(request.path)
        let subscribe: Bool
        let topic: String
        switch (request.method, parts.count) {
        case ("POST", 3):
            subscribe = true
            topic = query["topic_name"] ?? ""
        case ("DELETE", 4):
            subscribe = false
            topic = parts[3].removingPercentEncoding ?? String(parts[3])
        default:
            return .respond(FCMAPIError.methodNotFound.response)
        }
        if let refusal = authorize(request, project: project, context: context) { return .respond(refusal.response) }
        return subscription(token: token, topic: topic, subscribe: subscribe, project: project, context: context)
    }

    // MARK: - Authorization

    /// Why a request's `authorization` is refused, or nil. It must be `Bearer` an access token
    /// `/token` issued and still within its hour, for this project when FCM keys are registered;
    /// with none, any well-formed bearer is taken (an expired one `/token` issued is still refused).
    func authorize(_ request: HTTPRequest, project: String?, context: GatewayContext) -> FCMAPIError? {
        guard let header = request.value("authorization") else { return .credentialsMissing }
        guard let token = Self.bearerToken(header) else { return .invalidCredentials(expired: false) }
        let registered = context.inbox.providerKeys.values.contains { $0.vendor == .fcm }
        guard let issued = tokens.lookup(token, now: context.now) else {
            return registered ? .invalidCredentials(expired: false) : nil
        }
        guard issued.live else { return .invalidCredentials(expired: true) }
        if registered, let project, !issued.project.isEmpty, issued.project != project { return .permissionDenied(project: project) }
        return nil
    }

    /// The token of `Bearer TOKEN` (RFC 6750 §2.1: the scheme in any case, then the token),
    /// trimmed of whitespace; nil when the header is not one token after `Bearer`. Read on the
    /// contiguous bytes when the token's part is ASCII (spaces and tabs its whitespace): walking
    /// a string's UTF-8 view index by index, and Foundation's trimming before that, were a
    /// tenth of an FCM send's own work (callgrind on the release server). Beyond ASCII, Unicode
    /// whitespace is trimmed by Foundation.
    static func bearerToken(_ header: String) -> String? {
        enum Read {
            case token(String)
            case refused
            /// Not ASCII from this byte on (after the scheme's space, so on a scalar's start).
            case beyondASCII(Int)
        }
        let space = UInt8(ascii: " ")
        let tab = UInt8(ascii: "\t")
        var header = header
        let read = header.withUTF8 { bytes -> Read in
            var start = 0
            while start < bytes.count, bytes[start] == space { start += 1 }
            var end = start
            while end < bytes.count, bytes[end] != space { end += 1 }
            let scheme: StaticString = "bearer"
            guard end < bytes.count, end - start == scheme.utf8CodeUnitCount else { return .refused }
            for offset in 0..<scheme.utf8CodeUnitCount where bytes[start + offset] | 0x20 != scheme.utf8Start[offset] { return .refused }
            let rest = end + 1
            for index in rest..<bytes.count where bytes[index] >= 0x80 { return .beyondASCII(rest) }
            var first = rest
            var last = bytes.count
            while first < last, bytes[first] == space || bytes[first] == tab { first += 1 }
            while last > first, bytes[last - 1] == space || bytes[last - 1] == tab { last -= 1 }
            guard first < last else { return .refused }
            for index in first..<last where bytes[index] == space { return .refused }
            return .token(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self))
        }
        switch read {
        case .token(let token): return token
        case .refused: return nil
        case .beyondASCII(let rest):
            let token = Substring(header.utf8.dropFirst(rest)).trimmingCharacters(in: .whitespaces)
            guard !token.isEmpty, !token.utf8.contains(space) else { return nil }
            return token
        }
    }

    // MARK: - Devices and topics

    /// The app an FCM project's unknown tokens are registered to: the registered key's `--app`,
    /// else the project id.
    static func defaultApp(of project: String, context: GatewayContext) -> String {
        let key = context.inbox.providerKeys.values.first { $0.vendor == .fcm && $0.team == project }
        return key?.appKey ?? project
    }

    /// What becomes of a token of a request: an FCM device already, one to register first (open
    /// mode: an Android device of the project's default app), or none (strict mode, or a token
    /// of another vendor).
    enum Known {
        case device(Device)
        case register(Device)
        case none
    }

    func known(_ token: String, project: String, context: GatewayContext) -> Known {
        if let device = context.inbox.devices[token] { return device.vendor == .fcm ? .device(device) : .none }
        guard devices == .open, Device.isFCMToken(Substring(token)) else { return .none }
        return .register(Device(token: token, app: Self.defaultApp(of: project, context: context), vendor: .fcm))
    }

    /// FCM's refusal of a subscription past the most topics one app instance may have.
    static func tooManyTopics() -> FCMAPIError {
        FCMAPIError(status: 429, grpcStatus: "RESOURCE_EXHAUSTED", message: "Too many topics per app instance (at most \(Device.maxTopics)).")
    }

    /// firebase-admin 7's topic management (`messaging.py`, `_make_topic_management_request_v1`):
    /// one request per token, `POST …/registrations/{token}/topicSubscriptions?topic_name=T` (body
    /// `{}`) and `DELETE …/topicSubscriptions/{T}?allow_missing=true`; 200 `{}`.
    func subscription(token: String, topic: String, subscribe: Bool, project: String, context: GatewayContext) -> GatewayDecision {
        guard FCMCondition.isTopicName(Substring(topic)) else {
            return .respond(FCMAPIError(.invalidArgument, violations: [(field: subscribe ? "topic_name" : "name", description: "Invalid topic name.")]).response)
        }
        var requests: [Request] = []
        switch known(token, project: project, context: context) {
        case .none:
            return .respond(FCMAPIError(status: 404, grpcStatus: "NOT_FOUND", message: "Requested entity was not found.").response)
        case .register(let device):
            requests.append(.device(.add(device)))
        case .device(let device):
            if subscribe, !device.topics.contains(topic), device.topics.count >= Device.maxTopics { return .respond(Self.tooManyTopics().response) }
        }
        requests.append(.device(.topics(tokens: [token], topic: topic, subscribe: subscribe)))
        return .requests(requests) { replies in
            guard replies.allSatisfy(\.isOK) else { return FCMAPIError(.internal).response }
            return Self.json(.object([:]))
        }
    }

    /// The Instance ID API's `POST /iid/v1:batchAdd` and `:batchRemove` (Google's "Instance ID
    /// server reference", "Manage relationship maps for multiple app instances"): body
    /// `{"to":"/topics/T","registration_tokens":[…]}` (at most 1000), 200
    /// `{"results":[{}|{"error":"NOT_FOUND"|"INVALID_ARGUMENT"|"TOO_MANY_TOPICS"…}]}`, one per token
    /// in order; a bad body is 400 `{"error":"…"}`. The tokens that can be changed are, together.
    func iid(_ request: HTTPRequest, path: String, context: GatewayContext) -> GatewayDecision {
        let subscribe: Bool
        switch path {
        case "/iid/v1:batchAdd": subscribe = true
        case "/iid/v1:batchRemove": subscribe = false
        default: return .respond(HTTPResponse(status: 404, headers: [HTTPHeader("content-type", "text/html; charset=UTF-8")], body: Array("<h1>Not Found</h1>\n".utf8)))
        }
        guard request.method == "POST" else { return .respond(HTTPResponse(status: 405, headers: [HTTPHeader("allow", "POST")])) }
        if let refusal = authorize(request, project: nil, context: context) {
            return .respond(refusal.response)
        }
        func bad(_ error: String) -> GatewayDecision {
            .respond(Self.json(.object(["error": .string(error)]), status: 400))
        }
        guard case .object(let body)? = try? JSON.parse(request.body) else { return bad("InvalidJson") }
        guard case .string(let to)? = body["to"], to.hasPrefix("/topics/"), FCMCondition.isTopicName(to.dropFirst("/topics/".count)) else {
            return bad("InvalidTopicName")
        }
        let topic = String(to.dropFirst("/topics/".count))
        let items = body["registration_tokens"]?.arrayValue ?? []
        let tokens = items.compactMap(\.stringValue)
        guard !tokens.isEmpty, tokens.count == items.count else { return bad("MissingRegistration") }
        guard tokens.count <= Self.maxBatchTokens else { return bad("TooManyRegistrationTokens") }
        var results: [JSON] = []
        var requests: [Request] = []
        var changing: [String] = []
        for token in tokens {
            guard Device.isFCMToken(Substring(token)) else {
                results.append(.object(["error": "INVALID_ARGUMENT"]))
                continue
            }
            switch known(token, project: "", context: context) {
            case .none:
                results.append(.object(["error": "NOT_FOUND"]))
            case .register(let device):
                if !changing.contains(token) { requests.append(.device(.add(device))) }
                results.append(.object([:]))
                changing.append(token)
            case .device(let device):
                if subscribe, !device.topics.contains(topic), device.topics.count >= Device.maxTopics {
                    results.append(.object(["error": "TOO_MANY_TOPICS"]))
                } else {
                    results.append(.object([:]))
                    changing.append(token)
                }
            }
        }
        let answer = Self.json(.object(["results": .array(results)]))
        let unique = changing.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard !unique.isEmpty else { return .respond(answer) }
        requests.append(.device(.topics(tokens: unique, topic: topic, subscribe: subscribe)))
        return .requests(requests) { replies in
            replies.allSatisfy(\.isOK) ? answer : Self.json(.object(["error": "InternalServerError"]), status: 500)
        }
    }

    /// The most tokens one batch names (the Instance ID reference: "up to 1000").
    public static let maxBatchTokens = 1000

    static func json(_ value: JSON, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("content-type", "application/json; charset=UTF-8")], body: Array(value.compactText.utf8))
    }

    /// The request target's query, form-decoded.
    static func query(_ target: String) -> [String: String] {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? form(Array(parts[1].utf8)) : [:]
    }

    // MARK: - OAuth

    /// Google's token endpoint for a service account's JWT (Google's "Using OAuth 2.0 for
    /// Server to Server Applications", "Making the access token request"): a form of
    /// `grant_type` and `assertion`; 200 `{"access_token":…,"expires_in":3599,"token_type":"Bearer"}`.
    func token(_ request: HTTPRequest, context: GatewayContext) -> HTTPResponse {
        let form = Self.form(request.body)
        let grant = form["grant_type"] ?? ""
        guard grant == Self.jwtBearerGrant else { return FCMOAuthError.unsupportedGrantType(grant).response }
        guard let text = form["assertion"], !text.isEmpty else { return FCMOAuthError.missingAssertion.response }
        switch check(assertion: text, context: context) {
        case .failure(let error):
            return error.response
        case .success(let project):
            let token = tokens.issue(project: project, now: context.now)
            let body = JSON.object(JSONObject([
                (key: "access_token", value: .string(token)),
                (key: "expires_in", value: .number(JSONNumber(FCMAccessTokens.expiresIn))),
                (key: "token_type", value: "Bearer"),
            ]))
            return HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json; charset=utf-8")], body: Array(body.compactText.utf8))
        }
    }

    /// The project an assertion's token is for, or Google's refusal. With FCM keys registered
    /// its `iss` must be one's `client_email` and the signature verify with that key; with none
    /// a well-formed assertion (claims right, any signature) is enough, for any project ("").
    func check(assertion text: String, context: GatewayContext) -> Result<String, FCMOAuthError> {
        guard let assertion = FCMAssertion(text) else { return .failure(.malformed) }
        let keys = context.inbox.providerKeys.values.filter { $0.vendor == .fcm }
        if !keys.isEmpty {
            guard assertion.issuer.contains("@") else { return .failure(.unknownAccount) }
            guard let key = keys.first(where: { $0.id == assertion.issuer }) else { return .failure(.unknownAccount) }
            guard tokens.verify(assertion, text: text, pem: key.secret) else { return .failure(.badSignature) }
            if let problem = assertion.claimsProblem(now: context.now) { return .failure(problem) }
            return .success(key.team ?? "")
        }
        if let problem = assertion.claimsProblem(now: context.now) { return .failure(problem) }
        return .success("")
    }

    /// `application/x-www-form-urlencoded` (the WHATWG URL standard's form parsing: `&`-separated
    /// `name=value`, `+` a space, then percent-decoding); the first of a repeated name wins.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }
}
