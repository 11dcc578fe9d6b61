import PushCore

/// The codes of Getui's REST API v2 with the HTTP status each comes with, and their description.
///
/// Sources (every row is held to them by `GetuiCodeTableTests`):
/// - Getui's "返回码说明" page, https://docs.getui.com/getui/server/rest_v2/code (the HTTP code
///   table, the 基础返回码, 10000 and 20000 tables with "对应http code": 10001…10005 → 401,
///   20001 → 400 with its `msg` forms such as `{param} is invalid`, `target user is invalid`,
///   `{param} cannot be repeat.`, `please choose one of notification and transmission and revoke`);
/// - the same tables as DCloud ships them for uni-push 2.0, which calls Getui's API:
///   github.com/dcloudio/unidocs-zh `docs/uniCloud/uni-cloud-push/api.md` (22001…23001 → 400,
///   30000…30019 → 403, the 30000 range Getui's page folds away);
/// - Getui's own Java SDK, github.com/GetuiLaboratory/getui-pushapi-java-client-v2:
///   `GtHttpClient.doRequest` reads the JSON body of a 200, 400, 401 or 403 answer, and
///   `DefaultApiClient.execute` fetches a new token and sends again on code 10001 (as the token
///   page advises: "当调用业务接口返回错误码10001时调用获取token被动刷新").
public enum GetuiCode: Int, Sendable, CaseIterable {
    case success = 0
    case failed = 1
    case starting = 2
    case wrongDomain = 301
    case urlError = 404
    case methodNotAllowed = 405
    case tokenInvalid = 10001
    case blacklisted = 10002
    case authRateLimited = 10003
    case noDetailPermission = 10004
    case rateLimited = 10005
    case invalidParameter = 20001
    case scheduledTaskRan = 22001
    case invalidTask = 22002
    case tagFailed = 23001
    case noFastCustomTagPermission = 30000
    case noCustomTagPermission = 30001
    case noSchedulePermission = 30002
    case noTagPermission = 30003
    case tagDailyLimit = 30004
    case tagTooLong = 30005
    case fastCustomTagDailyLimit = 30006
    case appAllDailyLimit = 30007
    case listDailyLimit = 30008
    case dailyLimit = 30009
    case appTagDailyLimit = 30010
    case setTagDailyLimit = 30011
    case tagChangeRateLimit = 30012
    case fastCustomTagRateLimit = 30013
    case appRateLimit = 30014
    case listRateLimit = 30015
    case pushTagCountLimit = 30016
    case noRealtimeReportPermission = 30017
    case realtimeReportRateLimit = 30018
    case systemBusy = 30019

    /// Code → (HTTP status, description): Getui's tables, as data.
    public static let table: [GetuiCode: (status: Int, message: String)] = [
        .success: (200, "success"),
        .failed: (200, "失败"),
        .starting: (200, "服务正在启动"),
        .wrongDomain: (200, "域名错误"),
        .urlError: (404, "url错误"),
        .methodNotAllowed: (405, "方法不支持"),
        .tokenInvalid: (401, "token错误/失效"),
        .blacklisted: (401, "appId或ip在黑名单中"),
        .authRateLimited: (401, "每分钟鉴权频率超限"),
        .noDetailPermission: (401, "没有查询消息明细的权限"),
        .rateLimited: (401, "每分钟调用频率超限"),
        .invalidParameter: (400, "参数不合法"),
        .scheduledTaskRan: (400, "定时任务已经执行，无法删除"),
        .invalidTask: (400, "任务无效或定时任务时间不合法"),
        .tagFailed: (400, "操作tag失败"),
        .noFastCustomTagPermission: (403, "没有推送fast_custom_tag的权限"),
        .noCustomTagPermission: (403, "没有修改和删除custom_tag的权限"),
        .noSchedulePermission: (403, "没有推送定时任务的权限"),
        .noTagPermission: (403, "app/tag 接口无权限，或tag无效"),
        .tagDailyLimit: (403, "tag每日推送总数超限(VIP用户可根据应用特殊配置)"),
        .tagTooLong: (403, "tag长度超限(tag长度<32)"),
        .fastCustomTagDailyLimit: (403, "fast_custom_tag次数超过每日推送总数限制(VIP用户可根据应用特殊配置)"),
        .appAllDailyLimit: (403, "app/all推送，推送次数超过每日推送总数限制，每日最多推送100次"),
        .listDailyLimit: (403, "list推送次数超过每日推送总数限制，每日最多推送2000000次"),
        .dailyLimit: (403, "推送次数超过每日推送总数限制"),
        .appTagDailyLimit: (403, "app/tag 推送次数超过每日推送总数限制，每日最多推送100次，和接口app/all共享限制"),
        .setTagDailyLimit: (403, "设置tag次数超过每日次数限制"),
        .tagChangeRateLimit: (403, "修改和删除tag 超过每分钟频率限制，每分钟最多操作5次"),
        .fastCustomTagRateLimit: (403, "推送fast_custom_tag频率超过每分钟频率限制(VIP用户可根据应用特殊配置)"),
        .appRateLimit: (403, "app 推送 频率超过每分钟频率限制，每分钟最多操作5次"),
        .listRateLimit: (403, "list推送 频率超过每分钟频率限制"),
        .pushTagCountLimit: (403, "push/tag tag个数超过限制"),
        .noRealtimeReportPermission: (403, "没有查询单推实时报表的权限"),
        .realtimeReportRateLimit: (403, "查询单推实时报表 频率超过每分钟频率限制"),
        .systemBusy: (403, "系统繁忙，请稍后重试"),
    ]

    public var status: Int { Self.table[self]?.status ?? 500 }
    public var message: String { Self.table[self]?.message ?? "" }
}

/// A Getui refusal: a code, its HTTP status and a `msg` — Getui's words first (for 20001 one of
/// its documented forms), then, after ": ", what pushdeck found wrong when there is more to say.
public struct GetuiRefusal: Error, Sendable, Equatable {
    public var code: GetuiCode
    public var message: String
    public var status: Int { code.status }

    public init(_ code: GetuiCode, _ detail: String? = nil) {
        self.code = code
        self.message = detail.map { "\(code.message): \($0)" } ?? code.message
    }

    /// 20001 with one of the `msg` forms of Getui's 20000 table.
    public static func parameter(_ problem: ParameterProblem, _ detail: String? = nil) -> GetuiRefusal {
        var refusal = GetuiRefusal(.invalidParameter)
        refusal.message = problem.text + (detail.map { ": \($0)" } ?? "")
        return refusal
    }

    /// The `msg` forms Getui's 20001 takes (its "20000 - 参数相关" table).
    public enum ParameterProblem: Sendable, Equatable {
        case invalid(String)
        case empty(String)
        case typeError(String)
        case sizeOverLimit(String)
        case targetUserInvalid
        case repeated(String)
        case chooseOneOfNotificationTransmissionRevoke

        public var text: String {
            switch self {
            case .invalid(let param): "\(param) is invalid"
            case .empty(let param): "\(param) can not be empty"
            case .typeError(let param): "\(param) type error"
            case .sizeOverLimit(let param): "\(param) size over limit"
            case .targetUserInvalid: "target user is invalid"
            case .repeated(let param): "\(param) cannot be repeat."
            case .chooseOneOfNotificationTransmissionRevoke: "please choose one of notification and transmission and revoke"
            }
        }
    }

    public var response: HTTPResponse {
        GetuiRoutes.answer(status: status, code: code.rawValue, msg: message, data: nil)
    }
}
