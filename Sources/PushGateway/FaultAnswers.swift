import Foundation
import PushCore
import PushJSON

/// An injected refusal, written by the vendor's own refusal writer in its shape and headers;
/// `retry-after` (RFC 9110 §10.2.3, delay-seconds) added when the fault gives one.
extension HTTPResponse {
    func adding(retryAfter: Int?) -> HTTPResponse {
        guard let retryAfter else { return self }
        var response = self
        response.headers.append(HTTPHeader("retry-after", String(retryAfter)))
        return response
    }
}

// MARK: - APNs

extension APNsRoutes {
    public func vendor(of path: String) -> Via { .apns }

    /// The path's token and the `apns-topic`, read without the body, as `summarize` reads them
    /// (the token taken on the bytes: dropping the path's first characters one Character at a
    /// time made matching armed faults 7 600 instructions a push).
    public func target(of request: HTTPRequest) -> (tokens: [String], app: String?) {
        guard let token = Self.token(inPath: request.path) else { return ([], nil) }
        return (token.isEmpty ? [] : [token], request.value("apns-topic"))
    }

    /// The reasons Apple's "Handling error responses from APNs" table lists, with their statuses.
    public static var faultReasons: [(reason: String, status: Int)] {
        APNsReason.allCases.map { ($0.rawValue, $0.status) }
    }

    /// The reason a fault without one answers with: the one a backend meets at that status.
    static let preferredReasons: [Int: APNsReason] = [
        400: .badDeviceToken, 403: .expiredProviderToken, 404: .badPath, 405: .methodNotAllowed, 410: .unregistered,
        413: .payloadTooLarge, 429: .tooManyRequests, 500: .internalServerError, 503: .serviceUnavailable,
    ]

    /// Apple's refusal: `{"reason":…}` with the request's `apns-id` (a new one when it has
    /// none) and `apns-unique-id`, as its real answers carry them; a `timestamp` (milliseconds)
    /// on 410, when the token stopped being valid ("Handling error responses from APNs").
    public func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse {
        let named = reason ?? Self.preferredReasons[status]?.rawValue
            ?? (status >= 500 ? APNsReason.internalServerError : APNsReason.badDeviceToken).rawValue
        let timestamp = status == 410 ? Int64(now.timeIntervalSince1970 * 1000) : nil
        let given = request.value("apns-id").flatMap { Self.isEchoable($0) ? $0 : nil }
        var response = APNsRefusal(reason: named, status: status, timestamp: timestamp).response(apnsId: given ?? RandomUUID.text())
        response.headers.append(HTTPHeader(Self.uniqueIdHeader, RandomUUID.text(), unique: true))
        return response.adding(retryAfter: retryAfter)
    }
}

// MARK: - JPush

extension JPushRoutes {
    public func vendor(of path: String) -> Via { .jpush }

    /// JPush's "Call Return" codes, as text, with their statuses.
    public static var faultReasons: [(reason: String, status: Int)] {
        JPushError.allCases.map { (String($0.rawValue), $0.status) }
    }

    static let preferredErrors: [Int: JPushError] = [
        400: .invalidParameter, 401: .authenticationFailed, 403: .forbidden, 404: .httpsOnly, 405: .postOnly,
        429: .rateLimited, 500: .internalError, 503: .timeout,
    ]

    /// JPush's refusal `{"error":{"code":…,"message":…}}` (the code's message from its table).
    public func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse {
        let error = reason.flatMap(Int.init).flatMap(JPushError.init(rawValue:)) ?? Self.preferredErrors[status]
            ?? (status >= 500 ? .internalError : .invalidParameter)
        var response = JPushRefusal(error).response
        response.status = status
        return response.adding(retryAfter: retryAfter)
    }
}

// MARK: - Getui

extension GetuiRoutes {
    public func vendor(of path: String) -> Via { .getui }

    /// Getui's codes, as text, with their statuses (0, success, is no refusal).
    public static var faultReasons: [(reason: String, status: Int)] {
        GetuiCode.allCases.filter { $0 != .success }.map { (String($0.rawValue), $0.status) }
    }

    static let preferredCodes: [Int: GetuiCode] = [
        400: .invalidParameter, 401: .tokenInvalid, 403: .systemBusy, 404: .urlError, 405: .methodNotAllowed,
    ]

    /// Getui's refusal `{"code":…,"msg":…}`; a status Getui's table has no code for (a 5xx)
    /// is its 30019 "系统繁忙，请稍后重试" (system busy, retry later).
    public func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse {
        let code = reason.flatMap(Int.init).flatMap(GetuiCode.init(rawValue:)) ?? Self.preferredCodes[status] ?? .systemBusy
        return GetuiRoutes.answer(status: status, code: code.rawValue, msg: code.message, data: nil).adding(retryAfter: retryAfter)
    }
}

// MARK: - FCM

extension FCMRoutes {
    public func vendor(of path: String) -> Via { .fcm }

    /// FCM's `errorCode`s (its ErrorCode enum), with their statuses.
    public static var faultReasons: [(reason: String, status: Int)] {
        FCMErrorCode.allCases.map { ($0.rawValue, $0.status) }
    }

    static let preferredCodes: [Int: FCMErrorCode] = [
        400: .invalidArgument, 401: .thirdPartyAuthError, 403: .senderIdMismatch, 404: .unregistered, 429: .quotaExceeded,
        500: .internal, 503: .unavailable,
    ]

    /// Google's error `{"error":{"code","message","status","details":[FcmError errorCode]}}`
    /// with the given status as its `code`.
    public func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse {
        let code = reason.flatMap(FCMErrorCode.init(rawValue:)) ?? Self.preferredCodes[status] ?? (status >= 500 ? .internal : .invalidArgument)
        var error = FCMAPIError(code)
        error.status = status
        return error.response.adding(retryAfter: retryAfter)
    }
}

// MARK: - The table

extension ProviderRoutes {
    public func vendor(of path: String) -> Via { routes(for: path).vendor(of: path) }

    public func target(of request: HTTPRequest) -> (tokens: [String], app: String?) { routes(for: request.path).target(of: request) }

    public func faultResponse(_ status: Int, reason: String?, retryAfter: Int?, to request: HTTPRequest, now: Date) -> HTTPResponse {
        routes(for: request.path).faultResponse(status, reason: reason, retryAfter: retryAfter, to: request, now: now)
    }

    /// What `fault add` checks a fault against: each vendor's reasons, and the paths it claims
    /// (APNs: every path the others do not claim); and the auth endpoints a fault answers only
    /// when its path names them: Google's OAuth 2.0 token endpoint for service accounts
    /// (`POST /token`, "Using OAuth 2.0 for Server to Server Applications"), Getui's
    /// `POST /v2/{appId}/auth` (RestAPI V2 "鉴权"). APNs (a JWT in each request's header) and
    /// JPush (HTTP Basic on each request) have none.
    public static let faultVocabulary = FaultVocabulary(vendors: [
        .apns: .init(reasons: APNsRoutes.faultReasons, prefixes: nil),
        .jpush: .init(reasons: JPushRoutes.faultReasons, prefixes: [JPushRoutes.pathPrefix]),
        .getui: .init(reasons: GetuiRoutes.faultReasons, prefixes: [GetuiRoutes.pathPrefix],
                      authPaths: [GetuiRoutes.pathPrefix + "*/" + GetuiRoutes.Endpoint.auth.rawValue]),
        .fcm: .init(reasons: FCMRoutes.faultReasons, prefixes: [FCMRoutes.tokenPath, FCMRoutes.projectsPrefix, FCMRoutes.iidPrefix],
                    authPaths: [FCMRoutes.tokenPath]),
    ])
}
