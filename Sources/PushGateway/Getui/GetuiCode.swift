import PushCore

/// The codes of Getui's REST API v2 (its "公共返回码" table) with their `msg`. Getui answers them
/// in the body's `code` with HTTP 200; SDKs fetch a new token when they see `tokenInvalid`
/// (Getui's token page: "当调用业务接口返回错误码10001时调用获取token被动刷新").
public enum GetuiCode: Int, Sendable, CaseIterable {
    case success = 0
    case tokenInvalid = 10001
    case blacklisted = 10002
    case authRateLimited = 10003
    case rateLimited = 10005
    case invalidRequest = 20001
    case invalidAppKey = 20002
    case repeatedMessage = 20003
    case forbidden = 20004

    /// Code → `msg`: Getui's table, as data.
    public static let table: [GetuiCode: String] = [
        .success: "success",
        .tokenInvalid: "token错误/失效",
        .blacklisted: "appId或ip在黑名单中",
        .authRateLimited: "每分钟鉴权频率超限",
        .rateLimited: "每分钟调用频率超限",
        .invalidRequest: "请求信息填写有误",
        .invalidAppKey: "AppKey填写错误",
        .repeatedMessage: "重复的消息",
        .forbidden: "权限不足",
    ]

    public var message: String { Self.table[self] ?? "" }
}

/// A Getui refusal: a code and a `msg` (Getui's words, then what was wrong).
public struct GetuiRefusal: Error, Sendable, Equatable {
    public var code: GetuiCode
    public var message: String
    /// HTTP 200 as Getui answers its business errors; 404 for a path it does not serve.
    public var status: Int

    public init(_ code: GetuiCode, _ detail: String? = nil, status: Int = 200) {
        self.code = code
        self.message = detail.map { "\(code.message): \($0)" } ?? code.message
        self.status = status
    }

    public var response: HTTPResponse {
        GetuiRoutes.answer(status: status, code: code.rawValue, msg: message, data: nil)
    }
}
