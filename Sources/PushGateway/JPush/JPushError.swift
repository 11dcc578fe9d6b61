import PushCore
import PushJSON

/// The error codes of JPush's Push API v3 with the HTTP status each is answered with and the
/// `message` JPush's servers put beside it.
///
/// Sources (every row is held to them by `JPushErrorTableTests`):
/// - codes and HTTP statuses: JPush's "调用返回" table, github.com/jpush/jpush-docs
///   `zh/jpush/server/push/rest_api_v3_push.md` (and its English twin
///   `en/docs/jpush/server/push/rest_api_v3_push.md`, the "Call Return" table), commit 694250a1;
///   the status rules ("200 一定是正确…业务异常时返回 JSON 格式 error") in the same repository's
///   `zh/jpush/server/push/http_status_code.md`, as https://docs.jiguang.cn/jpush/server/push/http_status_code/
///   still states them.
/// - messages: where JPush's servers are on record, their words — 1004 `Authen failed` (the failed
///   response example of `rest_api_v3_push.md`), 1011 `cannot find user by this audience`
///   (as users of JPush's own PHP, Java and Node.js client libraries quote the server's answer),
///   1003 `'<field>' value is invalid.` (as users of its Java client quote it for `time_to_live`);
///   every other row carries the English table's description (1012, 2006 and 2007 only the Chinese
///   table has, so theirs is Chinese), JPush's server text for it being on record nowhere pushdeck
///   could find.
///
/// pushdeck answers a subset (what a local gateway can find wrong); the rest are listed so the
/// table reads like JPush's.
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
    case overRateLimit = 1012
    case httpsOnly = 1020
    case timeout = 1030
    case rateLimited = 2002
    case appKeyLimited = 2003
    case forbidden = 2004
    case overQuota = 2005
    case notVIP = 2006
    case noPermission = 2007

    /// Code → (HTTP status, message): JPush's table, as data.
    public static let table: [JPushError: (status: Int, message: String)] = [
        .internalError: (500, "Internal System Error"),
        .postOnly: (405, "Only HTTP Post methods are supported"),
        .missingParameter: (400, "Necessary parameters are missed."),
        .invalidParameter: (400, "The parameter value is illegal"),
        .authenticationFailed: (401, "Authen failed"),
        .tooLarge: (400, "Message body is too large"),
        .invalidAppKey: (400, "Illegal app_key parameter"),
        .unsupportedKey: (400, "Unsupported key in push object"),
        .noTarget: (400, "cannot find user by this audience"),
        .overRateLimit: (400, "符合当前条件的推送已超过限制"),
        .httpsOnly: (404, "Only supports HTTPS requests"),
        .timeout: (503, "Internal service timeout"),
        .rateLimited: (429, "Call frequency of API exceeds the limit of the application"),
        .appKeyLimited: (403, "The appkey has been restricted from calling the API"),
        .forbidden: (403, "No permission to perform the current operation"),
        .overQuota: (403, "The amount of information sent exceeds a reasonable range."),
        .notVIP: (403, "非VIP用户。"),
        .noPermission: (403, "无权调用此接口。"),
    ]

    public var status: Int { Self.table[self]?.status ?? 500 }
    public var message: String { Self.table[self]?.message ?? "Internal System Error" }
}

/// A JPush refusal: a code and a message — JPush's words first, then what pushdeck found wrong.
public struct JPushRefusal: Error, Sendable, Equatable {
    public var error: JPushError
    public var message: String

    public init(_ error: JPushError, _ detail: String? = nil) {
        self.error = error
        self.message = detail.map { "\(error.message): \($0)" } ?? error.message
    }

    /// 1003 as JPush's servers word it, `'<field>' value is invalid.`, then what it must be.
    public static func invalid(_ field: String, _ expected: String) -> JPushRefusal {
        var refusal = JPushRefusal(.invalidParameter)
        refusal.message = "'\(field)' value is invalid. \(expected)"
        return refusal
    }

    /// `{"error":{"code":N,"message":"…"}}` with the code's status.
    public var response: HTTPResponse {
        let body: JSON = .object(["error": .object(["code": .number(JSONNumber(error.rawValue)), "message": .string(message)])])
        return HTTPResponse(
            status: error.status, headers: [HTTPHeader("content-type", "application/json")], body: Array(body.compactText.utf8))
    }
}
