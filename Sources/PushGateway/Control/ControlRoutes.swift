import Foundation
import COpenSSL
import PushCore
import PushJSON

/// The control API under `/pushdeck/v1/` on the gateway port, for CI jobs that cannot run the
/// command line (a container beside pushdeck): each request becomes the socket's `Request`, goes
/// through the same engine, and its typed `Reply` is the answer's JSON (`{"ok":true,…}`, or
/// `{"ok":false,"error":…}`). The long-poll `expect` is the sink's (it watches the commits).
///
/// Who may call it: a loopback peer, unless a control token is set — then every peer must send
/// `authorization: Bearer TOKEN` (RFC 6750 §2.1), compared in constant time.
public struct ControlRoutes: GatewayRoutes {
    /// The paths it claims (every other `/pushdeck/…` path is its 404).
    public static let pathPrefix = "/pushdeck/"
    public static let base = "/pushdeck/v1/"
    /// The longest a long-poll may wait: the gateway's idle timeout (an hour) closes a connection
    /// with nothing under way for longer.
    public static let maxExpectSeconds = 3600.0

    public var token: String?

    public init(token: String? = nil) { self.token = token }

    public static func serves(_ path: String) -> Bool { path.hasASCIIPrefix(pathPrefix) }

    /// The endpoints and the methods each takes.
    static let endpoints: [(name: String, methods: [String])] = [
        ("messages", ["GET"]), ("requests", ["GET"]), ("reset", ["POST"]), ("expect", ["GET"]),
        ("faults", ["GET", "POST", "DELETE"]),
    ]

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        if let refused = authorize(request) { return .respond(refused) }
        let path = request.pathOnly
        guard path.hasPrefix(Self.base) else {
            return .respond(Self.error(404, "no control API at \(path); it is under \(Self.base) (\(Self.endpointList))"))
        }
        var name = String(path.dropFirst(Self.base.count))
        // `DELETE faults/ID`: one fault.
        var faultID: String?
        if name.hasPrefix("faults/") {
            faultID = String(name.dropFirst("faults/".count))
            name = "faults"
        }
        guard let endpoint = Self.endpoints.first(where: { $0.name == name }),
            faultID == nil || request.method == "DELETE"
        else {
            return .respond(Self.error(404, "no control API at \(path); it serves \(Self.endpointList)"))
        }
        guard endpoint.methods.contains(request.method) else {
            // RFC 9110 §15.5.6: a 405 names the methods the resource takes in `allow`.
            var response = Self.error(405, "\(request.method) \(path) is not served; it takes \(endpoint.methods.joined(separator: ", "))")
            response.headers.append(HTTPHeader("allow", endpoint.methods.joined(separator: ", ")))
            return .respond(response)
        }
        guard let query = request.queryItems else {
            return .respond(Self.error(400, "the query of \(path) is not percent-encoded well (RFC 3986)"))
        }
        switch name {
        case "expect":
            return .expect(query)
        case "messages":
            return inboxRequest(op: "list", query, numbers: ["limit", "before"], flags: ["unread"])
        case "requests":
            return inboxRequest(op: "requests", query, numbers: ["since"], flags: [])
        case "faults":
            return faults(request, id: faultID)
        default:
            return inboxRequest(op: "reset", query, numbers: [], flags: ["all"])
        }
    }

    /// The socket's op `op` with the query's items as its fields (`numbers` as JSON numbers,
    /// `flags` as booleans), decoded by the socket's own decoder: the same options, the same
    /// checks and the same error text as `{"op":…}` on the socket.
    func inboxRequest(op: String, _ query: [QueryItem], numbers: Set<String>, flags: Set<String>) -> GatewayDecision {
        var object = JSONObject([(key: "op", value: .string(op))])
        for item in query {
            guard object[item.name] == nil else {
                return .respond(Self.error(400, "\(item.name) is given twice"))
            }
            if numbers.contains(item.name) {
                guard let number = Int64(item.value) else {
                    return .respond(Self.error(400, "\(item.name) takes a whole number, not '\(item.value)'"))
                }
                object[item.name] = .number(JSONNumber(number))
            } else if flags.contains(item.name) {
                guard let flag = ["true": true, "false": false, "": true][item.value] else {
                    return .respond(Self.error(400, "\(item.name) takes true or false, not '\(item.value)'"))
                }
                object[item.name] = .bool(flag)
            } else {
                object[item.name] = .string(item.value)
            }
        }
        let request: Request
        do {
            request = try Request.decode(frame: Array(JSON.object(object).compactText.utf8))
        } catch {
            return .respond(Self.error(400, error.message))
        }
        return .request(request) { reply in Self.answer(reply) }
    }

    /// `POST faults` arms the fault its body is (the fields `fault add` and the socket op take),
    /// `GET faults` lists them, `DELETE faults[/ID]` clears them (or the one): the socket's op
    /// `fault`, decoded by the socket's decoder.
    func faults(_ request: HTTPRequest, id: String?) -> GatewayDecision {
        var object = JSONObject([(key: "op", value: .string("fault"))])
        switch request.method {
        case "GET":
            object["action"] = "list"
        case "DELETE":
            object["action"] = "clear"
            if let id {
                guard let number = Int64(id) else {
                    return .respond(Self.error(404, "no fault \(id) (a fault's id is a whole number, as fault list shows it)"))
                }
                object["id"] = .number(JSONNumber(number))
            }
        default:
            guard case .object(let fields)? = try? JSON.parse(request.body) else {
                return .respond(Self.error(400, "POST \(Self.base)faults takes the fault as a JSON object, like {\"vendor\":\"apns\",\"status\":503,\"count\":1}"))
            }
            object["action"] = "add"
            for member in fields.members {
                guard member.key != "op" && member.key != "action" else {
                    return .respond(Self.error(400, "\(member.key) is not a fault's field"))
                }
                object[member.key] = member.value
            }
        }
        let decoded: Request
        do {
            decoded = try Request.decode(frame: Array(JSON.object(object).compactText.utf8))
        } catch {
            return .respond(Self.error(400, error.message))
        }
        return .request(decoded) { reply in Self.answer(reply) }
    }

    /// A typed reply as the control API's answer: its wire object, 200 when it is not an error.
    public static func answer(_ reply: Reply) -> HTTPResponse {
        json(reply.isOK ? 200 : 400, reply.wireObject)
    }

    public static func json(_ status: Int, _ object: JSONObject) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader("content-type", "application/json")],
            body: Array(JSON.object(object).compactText.utf8))
    }

    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, JSONObject([(key: "ok", value: false), (key: "error", value: .string(message))]))
    }

    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse { Self.error(refusal.status, refusal.detail) }

    /// Not a provider's request: the request log and the faults leave it alone.
    public func isProviderRequest(_ path: String) -> Bool { false }
    public func summarize(_ request: HTTPRequest, decision: GatewayDecision?) -> RequestSummary { RequestSummary(vendor: .socket) }
    public func summarize(answer response: HTTPResponse, path: String) -> AnswerSummary { AnswerSummary() }
    public func vendor(of path: String) -> Via { .socket }
    public func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse {
        Self.error(status, reason ?? "HTTP \(status)")
    }

    private static var endpointList: String {
        endpoints.map { "\($0.methods.joined(separator: "|")) \(base)\($0.name)" }.joined(separator: ", ")
    }

    // MARK: - Who may call it

    /// Nil when the request may go on, else the refusal: without a token a peer that is not
    /// loopback is 403; with one, a request without the right bearer token is 401 with
    /// `www-authenticate: Bearer` (RFC 6750 §3).
    func authorize(_ request: HTTPRequest) -> HTTPResponse? {
        guard let token else {
            return request.fromLoopback
                ? nil
                : Self.error(403, "the control API answers loopback peers only; start pushdeck with --control-token TOKEN to serve others")
        }
        let given = request.value("authorization").flatMap { value -> String? in
            let parts = value.split(separator: " ", maxSplits: 1)
            // RFC 6750 §2.1: `Bearer` (case-insensitive, RFC 9110 §11.1), a space, the token.
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return String(parts[1])
        }
        guard let given, Self.sameSecret(given, token) else {
            var response = Self.error(401, "the control API wants the header authorization: Bearer TOKEN (the --control-token)")
            response.headers.append(HTTPHeader("www-authenticate", "Bearer"))
            return response
        }
        return nil
    }

    /// Compares the SHA-256 digests of the two with OpenSSL's constant-time `CRYPTO_memcmp`: the
    /// time taken says nothing of where they differ, nor of the token's length.
    static func sameSecret(_ given: String, _ secret: String) -> Bool {
        guard let left = SHA256Digest.of(given), let right = SHA256Digest.of(secret) else { return false }
        return left.withUnsafeBytes { l in right.withUnsafeBytes { r in CRYPTO_memcmp(l.baseAddress, r.baseAddress, 32) == 0 } }
    }

}
