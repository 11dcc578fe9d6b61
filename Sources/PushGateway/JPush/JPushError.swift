import PushCore
import PushJSON

/// The error codes of JPush's Push API v3 with the HTTP status each is answered with, as JPush's
/// "Push API v3" response-code table and its "HTTP status code" page list them.
///
/// pushdeck answers a subset (what a local gateway can find wrong); the rest are listed so the
/// table reads like JPush's and a test holds each row to it.
public enum JPushError: Int, Sendable, CaseIterable {
    case internalError = 1000
    case postOnly = 1001
    case missingParameter = 1002
    case invalidParameter = 1003
    case authenticationFailed = 1004
    case tooLarge = 1005
    case invalidAppKey = 1008
    case unsupportedKey = 1009
    case noTarget = 1011
    case httpsOnly = 1020
    case timeout = 1030
    case rateLimited = 2002
    case appKeyLimited = 2003
    case forbidden = 2004
    case overQuota = 2005

    /// Code → (HTTP status, JPush's description): JPush's table, as data.
    public static let table: [JPushError: (status: Int, message: String)] = [
        .internalError: (500, "server internal error"),
        .postOnly: (405, "only support HTTP POST method"),
        .missingParameter: (400, "missing required parameter"),
        .invalidParameter: (400, "invalid parameter value"),
        .authenticationFailed: (401, "Authen failed"),
        .tooLarge: (400, "message is too long"),
        .invalidAppKey: (400, "app_key is invalid"),
        .unsupportedKey: (400, "push payload contains an unsupported key"),
        .noTarget: (400, "cannot find user by this audience"),
        .httpsOnly: (404, "only support HTTPS request"),
        .timeout: (503, "internal service timeout"),
        .rateLimited: (429, "request frequency exceeds the app's limit"),
        .appKeyLimited: (400, "this appKey is restricted from calling the API"),
        .forbidden: (403, "no permission to perform this operation"),
        .overQuota: (403, "sending volume exceeds the reasonable range"),
    ]

    public var status: Int { Self.table[self]?.status ?? 500 }
    public var message: String { Self.table[self]?.message ?? "server internal error" }
}

/// A JPush refusal: a code and a message saying what was wrong (JPush's words, then the detail).
public struct JPushRefusal: Error, Sendable, Equatable {
    public var error: JPushError
    public var message: String

    public init(_ error: JPushError, _ detail: String? = nil) {
        self.error = error
        self.message = detail.map { "\(error.message): \($0)" } ?? error.message
    }

    /// `{"error":{"code":N,"message":"…"}}` with the code's status.
    public var response: HTTPResponse {
        let body: JSON = .object(["error": .object(["code": .number(JSONNumber(error.rawValue)), "message": .string(message)])])
        return HTTPResponse(
            status: error.status, headers: [HTTPHeader("content-type", "application/json")], body: Array(body.compactText.utf8))
    }
}
