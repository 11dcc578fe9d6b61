import PushCore
import PushJSON

/// FCM's own error codes (the v1 reference's `ErrorCode` enum, "projects.messages" →
/// "ErrorCode"), each with the HTTP status and gRPC status FCM answers it with (FCM's "Error
/// codes for FCM HTTP v1"): the `errorCode` of the `google.firebase.fcm.v1.FcmError` detail.
public enum FCMErrorCode: String, Sendable, CaseIterable {
    /// "Request parameters were invalid" — 400 INVALID_ARGUMENT.
    case invalidArgument = "INVALID_ARGUMENT"
    /// "App instance was unregistered from FCM" — 404 NOT_FOUND.
    case unregistered = "UNREGISTERED"
    /// "The authenticated sender ID is different from the sender ID for the registration token"
    /// — 403 PERMISSION_DENIED.
    case senderIdMismatch = "SENDER_ID_MISMATCH"
    /// "Sending limit exceeded for the message target" — 429 RESOURCE_EXHAUSTED.
    case quotaExceeded = "QUOTA_EXCEEDED"
    /// "The server is overloaded" — 503 UNAVAILABLE.
    case unavailable = "UNAVAILABLE"
    /// "An unknown internal error occurred" — 500 INTERNAL.
    case `internal` = "INTERNAL"
    /// "APNs certificate or web push auth key was invalid or missing" — 401 UNAUTHENTICATED.
    case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"

    /// The HTTP status FCM answers with.
    public var status: Int {
        switch self {
        case .invalidArgument: 400
        case .unregistered: 404
        case .senderIdMismatch: 403
        case .quotaExceeded: 429
        case .unavailable: 503
        case .internal: 500
        case .thirdPartyAuthError: 401
        }
    }

    /// The gRPC status name (google.rpc.Code) Google's JSON error writes in `status`.
    public var grpcStatus: String {
        switch self {
        case .invalidArgument: "INVALID_ARGUMENT"
        case .unregistered: "NOT_FOUND"
        case .senderIdMismatch: "PERMISSION_DENIED"
        case .quotaExceeded: "RESOURCE_EXHAUSTED"
        case .unavailable: "UNAVAILABLE"
        case .internal: "INTERNAL"
        case .thirdPartyAuthError: "UNAUTHENTICATED"
        }
    }

    /// The message FCM writes with the code when nothing more specific is said.
    public var defaultMessage: String {
        switch self {
        case .invalidArgument: "Request contains an invalid argument."
        case .unregistered: "Requested entity was not found."
        case .senderIdMismatch: "SenderId mismatch"
        case .quotaExceeded: "Quota exceeded for the message target."
        case .unavailable: "The service is currently unavailable."
        case .internal: "Internal error encountered."
        case .thirdPartyAuthError: "Auth error from APNS or Web Push Service"
        }
    }
}

/// An error as Google APIs write one (Google's API design guide, "Errors" → "HTTP mapping"):
/// `{"error":{"code":HTTP,"message":…,"status":GRPC,"details":[…]}}`, the details FCM adds being
/// its `FcmError` (the `errorCode` firebase-admin maps to an exception class) and, for bad
/// fields, a `google.rpc.BadRequest` with one `fieldViolations` entry per field.
public struct FCMAPIError: Sendable, Equatable {
    public var status: Int
    public var grpcStatus: String
    public var message: String
    public var errorCode: FCMErrorCode?
    public var violations: [(field: String, description: String)]
    /// A `google.rpc.ErrorInfo` detail (`reason`), as Google's front end writes for credentials.
    public var errorInfoReason: String?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.grpcStatus == rhs.grpcStatus && lhs.message == rhs.message && lhs.errorCode == rhs.errorCode
            && lhs.violations.map(\.field) == rhs.violations.map(\.field)
            && lhs.violations.map(\.description) == rhs.violations.map(\.description) && lhs.errorInfoReason == rhs.errorInfoReason
    }

    public init(_ code: FCMErrorCode, _ message: String? = nil, violations: [(field: String, description: String)] = []) {
        status = code.status
        grpcStatus = code.grpcStatus
        self.message = message ?? code.defaultMessage
        errorCode = code
        self.violations = violations
    }

    public init(
        status: Int, grpcStatus: String, message: String, violations: [(field: String, description: String)] = [], errorInfoReason: String? = nil
    ) {
        self.status = status
        self.grpcStatus = grpcStatus
        self.message = message
        errorCode = nil
        self.violations = violations
        self.errorInfoReason = errorInfoReason
    }

    static let credentialsHelp = "Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."

    /// No `authorization` header: Google's front end answers 401 CREDENTIALS_MISSING.
    public static let credentialsMissing = FCMAPIError(
        status: 401, grpcStatus: "UNAUTHENTICATED",
        message: "Request is missing required authentication credential. " + credentialsHelp, errorInfoReason: "CREDENTIALS_MISSING")
    /// A bearer that is no access token the token endpoint issued, or one past its hour.
    public static func invalidCredentials(expired: Bool) -> FCMAPIError {
        FCMAPIError(
            status: 401, grpcStatus: "UNAUTHENTICATED", message: "Request had invalid authentication credentials. " + credentialsHelp,
            errorInfoReason: expired ? "ACCESS_TOKEN_EXPIRED" : "ACCESS_TOKEN_TYPE_UNSUPPORTED")
    }
    /// A path of no FCM method, or a method it does not take (Google's front end: 404).
    public static let methodNotFound = FCMAPIError(status: 404, grpcStatus: "NOT_FOUND", message: "Method not found.")
    /// A token for one project calling another project's API (Google IAM's wording).
    public static func permissionDenied(project: String) -> FCMAPIError {
        FCMAPIError(
            status: 403, grpcStatus: "PERMISSION_DENIED",
            message: "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project.prefix(100))' (or it may not exist).")
    }

    public var json: JSON {
        var details: [JSON] = []
        if !violations.isEmpty {
            details.append(.object(JSONObject([
                (key: "@type", value: "type.googleapis.com/google.rpc.BadRequest"),
                (key: "fieldViolations", value: .array(violations.map { violation in
                    .object(JSONObject([(key: "field", value: .string(violation.field)), (key: "description", value: .string(violation.description))]))
                })),
            ])))
        }
        if let errorCode {
            details.append(.object(JSONObject([
                (key: "@type", value: "type.googleapis.com/google.firebase.fcm.v1.FcmError"),
                (key: "errorCode", value: .string(errorCode.rawValue)),
            ])))
        }
        if let errorInfoReason {
            details.append(.object(JSONObject([
                (key: "@type", value: "type.googleapis.com/google.rpc.ErrorInfo"),
                (key: "reason", value: .string(errorInfoReason)),
                (key: "domain", value: "googleapis.com"),
                (key: "metadata", value: .object(JSONObject([
                    (key: "service", value: "fcm.googleapis.com"),
                    (key: "method", value: "google.firebase.fcm.v1.FcmService.SendMessage"),
                ]))),
            ])))
        }
        var members: [(key: String, value: JSON)] = [
            (key: "code", value: .number(JSONNumber(status))), (key: "message", value: .string(message)), (key: "status", value: .string(grpcStatus)),
        ]
        if !details.isEmpty { members.append((key: "details", value: .array(details))) }
        return .object(JSONObject([(key: "error", value: .object(JSONObject(members)))]))
    }

    public var response: HTTPResponse {
        var headers = [HTTPHeader("content-type", "application/json; charset=UTF-8")]
        if status == 401 { headers.append(HTTPHeader("www-authenticate", "Bearer realm=\"https://accounts.google.com/\"")) }
        return HTTPResponse(status: status, headers: headers, body: Array(json.prettyText.utf8))
    }
}
