import CXXHash
import Foundation
import PushCore
import PushJSON

/// What one provider request was, as its vendor's routes read it: for the request log, and for
/// telling which armed faults it matches.
public struct RequestSummary: Sendable, Equatable {
    public var vendor: Via
    /// The device tokens it addressed (none for an auth, topic or broadcast request).
    public var tokens: [String] = []
    public var app: String?
    /// The ids it carried: `apns-id`, `sendno`, `request_id`.
    public var ids: [String: String] = [:]
    /// "The same notification" for its vendor (see `ProviderRequestRecord.notificationKey`).
    public var notificationKey: String?
    public init(vendor: Via, tokens: [String] = [], app: String? = nil, ids: [String: String] = [:], notificationKey: String? = nil) {
        self.vendor = vendor
        self.tokens = tokens
        self.app = app
        self.ids = ids
        self.notificationKey = notificationKey
    }
}

/// What an answer told about a request, for the request log.
public struct AnswerSummary: Sendable, Equatable {
    /// Nil on success (see `ProviderRequestRecord.reason`).
    public var reason: String?
    /// Ids the answer assigned (FCM's message `name`).
    public var ids: [String: String] = [:]
    public init(reason: String? = nil, ids: [String: String] = [:]) {
        self.reason = reason
        self.ids = ids
    }
}

extension RequestSummary {
    /// The 64-bit XXH3 hash of `bytes` in 16 hex digits (`xxhsum -H3`'s): what tells one
    /// payload from another in a notification key.
    ///
    /// Not a secret and not an adversary's input to collide (a backend's own pushes to one token
    /// or target), so a fast hash, not a cryptographic one: the SHA-256 it replaced took 1.4 µs
    /// of a 2.3 KB push's ~19 µs on the gateway's thread, even with the CPU's SHA extensions;
    /// XXH3 takes 0.14 µs.
    public static func digest(_ bytes: [UInt8]) -> String {
        let hash = bytes.withUnsafeBytes { XXH3_64bits($0.baseAddress, $0.count) }
        return withUnsafeBytes(of: hash.bigEndian) { lowercaseHex($0) }
    }

    /// `digest` of the request's body: the one its routes took ahead, else now.
    static func digest(of request: HTTPRequest) -> String {
        request.prepared.bodyDigest ?? digest(request.body)
    }

    /// The parts with a colon between each two, written at once into one string of the right
    /// size: a notification key. Interpolating the parts grew the string as each one came (two
    /// allocations and a copy of the first part for an APNs key, 2 000 instructions a push).
    static func colonJoined(_ first: String, _ second: String, _ third: String? = nil) -> String {
        let count = first.utf8.count + 1 + second.utf8.count + (third.map { $0.utf8.count + 1 } ?? 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var end = buffer.initialize(fromContentsOf: first.utf8)
            func append(_ part: String) {
                buffer[end] = UInt8(ascii: ":")
                end += 1 + UnsafeMutableBufferPointer(rebasing: buffer[(end + 1)...]).initialize(fromContentsOf: part.utf8)
            }
            append(second)
            if let third { append(third) }
            return end
        }
    }

    /// The request's path without its query.
    static func path(of request: HTTPRequest) -> Substring {
        HTTPRequest.withoutQuery(request.path)
    }

    /// What `read` takes from the first push a decision hands the inbox (after a device's
    /// registration, if any). Nothing else of the pushes is copied: a copy of a push is a
    /// retain and a release of each of its strings.
    static func firstPush<Value>(of decision: GatewayDecision?, _ read: (PushRequest) -> Value?) -> Value? {
        switch decision {
        case .request(.push(let push), _)?: return read(push)
        case .requests(let requests, _)?:
            for request in requests { if case .push(let push) = request { return read(push) } }
            return nil
        default: return nil
        }
    }

    /// The pushes a decision hands the inbox, in order.
    static func pushes(of decision: GatewayDecision?) -> [PushRequest] {
        switch decision {
        case .request(.push(let push), _)?: [push]
        case .requests(let requests, _)?:
            requests.compactMap { if case .push(let push) = $0 { push } else { nil } }
        default: []
        }
    }
}

/// The summaries' reading of an answer body: a JSON object read in place (a few members are
/// all a summary wants, and building the tree was a thirtieth of a JPush push), or nil (no
/// body, not JSON, not an object).
func answerObject(_ response: HTTPResponse) -> JSONView? {
    guard !response.body.isEmpty, let root = try? JSONTape.parse(response.body).root, root.kind == .object else { return nil }
    return root
}

// MARK: - APNs

extension APNsRoutes {
    /// Apple's request: the token is the path's (`/3/device/{token}`), the app its `apns-topic`,
    /// the id its `apns-id`. The same notification: the same apns-id when the request carried
    /// one, else the same token and payload bytes. Nothing of the body is read but its bytes.
    public func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary {
        var summary = RequestSummary(vendor: .apns)
        guard let token = Self.token(inPath: request.path, known: RequestSummary.firstPush(of: decision) { $0.token }) else { return summary }
        summary.tokens = token.isEmpty ? [] : [token]
        summary.app = request.value("apns-topic")
        let carried = request.value("apns-id")
        if let carried { summary.ids["apns-id"] = carried }
        summary.notificationKey = carried.map { "apns-id:\($0.lowercased())" }
            ?? RequestSummary.colonJoined("token", token, RequestSummary.digest(of: request))
        return summary
    }

    /// `{"reason":…}` on a refusal; the apns-id the answer gave (the request's, or a new one).
    public func summarize(answer response: HTTPResponse, path _: String) -> AnswerSummary {
        var answer = AnswerSummary()
        if let id = response.headers.first(where: { $0.name == "apns-id" })?.value { answer.ids["apns-id"] = id }
        guard response.status != 200 else { return answer }
        answer.reason = answerObject(response)?["reason"]?.string ?? "HTTP \(response.status)"
        return answer
    }
}

// MARK: - JPush

extension JPushRoutes {
    /// JPush's push: the registration ids it reached (from the push `decide` made, else the
    /// body's `audience.registration_id`), the app its appKey, the id its `options.sendno`.
    /// The same notification: the same `options.sendno` when given, else the same body.
    public func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary {
        var summary = RequestSummary(vendor: .jpush)
        let path = RequestSummary.path(of: request)
        guard path == Self.pushPath || path == Self.validatePath else {
            summary.app = Self.basicUser(request)
            return summary
        }
        var sendno: String?
        if let push = RequestSummary.pushes(of: decision).first {
            summary.app = push.app
            // Split on bytes: splitting the String walks it grapheme by grapheme.
            summary.tokens = push.headers["registration_id"].map { $0.utf8.split(separator: UInt8(ascii: ",")).compactMap(String.init) } ?? []
            // The body `decide` parsed, read again in place (no second parse).
            sendno = push.parsed?["options"]?["sendno"]?.number?.text
        } else {
            summary.app = Self.basicUser(request)
            if case .object(let body)? = try? JSON.parse(request.body) {
                if case .object(let audience)? = body["audience"], case .array(let ids)? = audience["registration_id"] {
                    summary.tokens = ids.compactMap(\.stringValue)
                }
                sendno = body["options"]?.objectValue?["sendno"]?.numberValue?.text
            }
        }
        if let sendno { summary.ids["sendno"] = sendno }
        summary.notificationKey = sendno.map { "sendno:\($0)" } ?? RequestSummary.colonJoined("body", RequestSummary.digest(of: request))
        return summary
    }

    /// A push without `options.sendno` is keyed by its body's digest (taken whether or not it has one:
    /// knowing would take the parse that deciding it does).
    public func prepare(_ request: inout HTTPRequest) {
        if !request.body.isEmpty { request.prepared.bodyDigest = RequestSummary.digest(request.body) }
    }

    /// `{"error":{"code":…}}` on a refusal: the code, as text; the `msg_id` a push's answer
    /// assigned (JPush REST API v3 Push: `{"sendno":"0","msg_id":"…"}` on success).
    public func summarize(answer response: HTTPResponse, path _: String) -> AnswerSummary {
        guard response.status != 200 else {
            return AnswerSummary(ids: answerObject(response)?["msg_id"]?.string.map { ["msg_id": $0] } ?? [:])
        }
        let code = answerObject(response)?["error"]?["code"]?.number?.int
        return AnswerSummary(reason: code.map(String.init) ?? "HTTP \(response.status)")
    }

    /// The user of HTTP Basic `authorization` (JPush's appKey), if it is one.
    static func basicUser(_ request: HTTPRequest) -> String? {
        guard let header = request.value("authorization"), header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return String(text[..<colon])
    }
}

// MARK: - Getui

extension GetuiRoutes {
    /// Getui's push: the cids it reached (from the pushes `decide` made, else the body's
    /// `audience.cid`), the app the path's appId, the id its `request_id` (a batch's, joined by
    /// commas). The same notification: the same `request_id`.
    public func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary {
        var summary = RequestSummary(vendor: .getui)
        let rest = RequestSummary.path(of: request).dropFirst(Self.pathPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return summary }
        summary.app = String(rest[..<slash])
        let endpoint = rest[rest.index(after: slash)...]
        guard endpoint.hasPrefix("push/") else { return summary }
        var requestIds: [String] = []
        let pushes = RequestSummary.pushes(of: decision)
        if !pushes.isEmpty {
            summary.tokens = pushes.compactMap(\.token)
            requestIds = pushes.compactMap { $0.headers["request_id"] }
        } else if case .object(let body)? = try? JSON.parse(request.body) {
            let messages = body["msg_list"]?.arrayValue?.compactMap(\.objectValue) ?? [body]
            for message in messages {
                if let id = message["request_id"]?.stringValue { requestIds.append(id) }
                if case .object(let audience)? = message["audience"], case .array(let cids)? = audience["cid"] {
                    summary.tokens += cids.compactMap(\.stringValue)
                }
            }
        }
        if !requestIds.isEmpty {
            let joined = requestIds.joined(separator: ",")
            summary.ids["request_id"] = joined
            summary.notificationKey = "request_id:\(joined)"
        }
        return summary
    }

    /// `{"code":…,"msg":…}` with a code other than 0: `CODE MSG`.
    public func summarize(answer response: HTTPResponse, path _: String) -> AnswerSummary {
        let body = answerObject(response)
        let code = body?["code"]?.number?.int
        if response.status == 200 && (code ?? 0) == 0 { return AnswerSummary() }
        guard let code else { return AnswerSummary(reason: "HTTP \(response.status)") }
        return AnswerSummary(reason: [String(code), body?["msg"]?.string].compactMap { $0 }.joined(separator: " "))
    }
}

// MARK: - FCM

extension FCMRoutes {
    /// FCM's `messages:send`: the token it names (none for a topic or condition), the app the
    /// path's project. The same notification: the same target and message body. The topic
    /// APIs name the token in the path (`iid`'s in the body).
    public func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary {
        var summary = RequestSummary(vendor: .fcm)
        if let project = Self.sendProject(request.path) {
            summary.app = project
            summarizeSend(request, decision: decision, into: &summary)
            return summary
        }
        let path = RequestSummary.path(of: request)
        guard path.hasPrefix(Self.projectsPrefix) else { return summary }
        let rest = path.dropFirst(Self.projectsPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return summary }
        summary.app = String(rest[..<slash])
        let method = rest[rest.index(after: slash)...]
        guard method == "messages:send" else {
            let parts = method.split(separator: "/")
            if parts.count >= 2, parts[0] == "registrations" { summary.tokens = [parts[1].removingPercentEncoding ?? String(parts[1])] }
            return summary
        }
        summarizeSend(request, decision: decision, into: &summary)
        return summary
    }

    /// A send's target (from the first push `decide` made, else the body's) and notification key.
    private func summarizeSend(_ request: HTTPRequest, decision: GatewayDecision?, into summary: inout RequestSummary) {
        var target: String?
        if let route = RequestSummary.firstPush(of: decision, { $0.fcm }) {
            target = route.target
        } else if case .object(let body)? = try? JSON.parse(request.body), case .object(let message)? = body["message"] {
            if let token = message["token"]?.stringValue {
                target = FCMTarget.token(token).key
            } else if let topic = message["topic"]?.stringValue {
                target = FCMTarget.topic(topic).key
            } else if let condition = message["condition"]?.stringValue {
                target = FCMTarget.condition(condition).key
            }
        }
        if let target {
            if target.hasPrefix("token:") { summary.tokens = [String(target.dropFirst(6))] }
            summary.notificationKey = RequestSummary.colonJoined(target, RequestSummary.digest(of: request))
        }
    }

    /// A send is keyed by its target and its body's digest.
    public func prepare(_ request: inout HTTPRequest) {
        if !request.body.isEmpty { request.prepared.bodyDigest = RequestSummary.digest(request.body) }
    }

    /// Google's error: FCM's `errorCode` when it gives one, else the gRPC `status`; the message
    /// `name` a send's answer assigned (read off the bytes when the route wrote it, as it
    /// does: parsing the answer the route had just made was a fiftieth of a send).
    public func summarize(answer response: HTTPResponse, path _: String) -> AnswerSummary {
        if response.status == 200, let name = Self.sentName(response.body) { return AnswerSummary(ids: ["name": name]) }
        let body = answerObject(response)
        guard response.status != 200 else {
            return AnswerSummary(ids: body?["name"]?.string.map { ["name": $0] } ?? [:])
        }
        guard let error = body?["error"], error.kind == .object else { return AnswerSummary(reason: "HTTP \(response.status)") }
        let fcm = error["details"]?.elements
            .first { $0.kind == .object && $0["@type"]?.string == "type.googleapis.com/google.firebase.fcm.v1.FcmError" }
        return AnswerSummary(reason: fcm?["errorCode"]?.string ?? error["status"]?.string ?? "HTTP \(response.status)")
    }
}

// MARK: - The table

extension ProviderRoutes {
    public func prepare(_ request: inout HTTPRequest) {
        routes(for: request.path).prepare(&request)
    }

    public func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary {
        routes(for: request.path).summarize(request, decision: decision)
    }

    public func summarize(answer response: HTTPResponse, path: String) -> AnswerSummary {
        routes(for: path).summarize(answer: response, path: path)
    }
}
