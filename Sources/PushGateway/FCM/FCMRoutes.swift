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
    /// The JWT bearer grant (RFC 7523 §2.1), the only grant a service account uses.
    public static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    public init(devices: DevicePolicy = .open, tokens: FCMAccessTokens = FCMAccessTokens()) {
        self.devices = devices
        self.tokens = tokens
    }

    /// Whether `path` (query included) is one of FCM's.
    public static func serves(_ path: String) -> Bool {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return bare == tokenPath || bare.hasPrefix(projectsPrefix)
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        let path = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if path == Self.tokenPath {
            guard request.method == "POST" else { return .respond(FCMAPIError.methodNotFound.response) }
            return .respond(token(request, context: context))
        }
        return .respond(FCMAPIError.methodNotFound.response)
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
