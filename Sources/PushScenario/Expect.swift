import Foundation
import PushCore
import PushJSON

/// The `expect` engine: what `pushdeck expect` waits for, and how the bus events and ledgers it
/// reads decide it (the command keeps its options, the socket and the output).
///
/// What `expect` was asked for. Message conditions (`app`, `title`, `body`, `via`, `count`,
/// `since`, `banner`) count matching messages; ledger conditions compare the current ledgers.
public struct ExpectCondition {
    public var app: String?
    public var title: NSRegularExpression?
    public var body: NSRegularExpression?
    public var via: String?
    public var count: Int?
    public var badge: Int?
    public var serverBadge: Int?
    public var unread: Int?
    public var banner = false
    public var since: Int64?

    public init() {}

    public var needsLedgers: Bool { badge != nil || serverBadge != nil || unread != nil }

    /// A message is wanted unless only ledgers were asked about (`--app` alone asks for one).
    public var wantsMessages: Bool {
        title != nil || body != nil || via != nil || count != nil || since != nil || banner || !needsLedgers
    }

    /// How many matching messages (or banners, with `--banner`) make it hold.
    public var wantedCount: Int { count ?? 1 }

    /// Which of the message conditions a message (or banner) meets, and how many there are.
    public func score(_ seen: ExpectSeen) -> (met: Int, of: Int) {
        var met = 0
        var of = 0
        func check(_ asked: Bool, _ ok: Bool) {
            guard asked else { return }
            of += 1
            if ok { met += 1 }
        }
        check(app != nil, seen.app == app)
        check(title != nil, Self.matches(title, seen.title))
        check(body != nil, Self.matches(body, seen.body))
        check(via != nil, seen.via.rawValue == via)
        return (met, of)
    }

    private static func matches(_ regex: NSRegularExpression?, _ text: String?) -> Bool {
        guard let regex, let text else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    public var summary: String {
        var parts: [String] = []
        if wantsMessages {
            var what = "\(wantedCount) \(banner ? "banner" : "message")\(wantedCount == 1 ? "" : "s")"
            var filters: [String] = []
            if let app { filters.append("app \(app)") }
            if let title { filters.append("title /\(title.pattern)/") }
            if let body { filters.append("body /\(body.pattern)/") }
            if let via { filters.append("via \(via)") }
            if let since { filters.append("after #\(since)") }
            if !filters.isEmpty { what += " (" + filters.joined(separator: ", ") + ")" }
            parts.append(what)
        }
        if let badge { parts.append("badge \(badge)") }
        if let serverBadge { parts.append("server badge \(serverBadge)") }
        if let unread { parts.append("unread \(unread)") }
        return parts.joined(separator: ", ")
    }
}

/// What `expect` counts: a delivered message, or (with `--banner`) a banner's arrival.
public enum ExpectSeen: Sendable, Equatable {
    case message(Message)
    case banner(BannerNotice)

    var app: String {
        switch self {
        case .message(let message): message.app
        case .banner(let banner): banner.app
        }
    }

    var title: String? {
        switch self {
        case .message(let message): message.title
        case .banner(let banner): banner.title
        }
    }

    var body: String? {
        switch self {
        case .message(let message): message.body
        case .banner(let banner): banner.body
        }
    }

    var id: Int64 {
        switch self {
        case .message(let message): message.id
        case .banner(let banner): banner.id
        }
    }

    /// The banner's event says nothing of the door its message came in by.
    var via: Via {
        switch self {
        case .message(let message): message.via
        case .banner: .socket
        }
    }

    /// The line `expect` prints for it: the message's wire object, or the banner event's fields.
    var wireObject: JSONObject {
        switch self {
        case .message(let message): message.wireJSON.objectValue ?? [:]
        case .banner(let banner): banner.wireObject
        }
    }
}

/// The state `expect` keeps while it waits: matching messages by id, the closest miss, ledgers.
public struct ExpectWatch {
    /// The rows a `list` page holds at most (the server's limit).
    public static let pageSize = 1000
    public let condition: ExpectCondition
    public var ledgers = Ledgers()
    private var matched: [Int64: ExpectSeen] = [:]
    private var lastMatch: ExpectSeen?
    private var closest: (met: Int, seen: ExpectSeen)?
    private var seen = 0

    public init(condition: ExpectCondition) { self.condition = condition }

    public var holds: Bool {
        if condition.wantsMessages && matched.count < condition.wantedCount { return false }
        if let badge = condition.badge, ledgers.badge != badge { return false }
        if let server = condition.serverBadge, ledgers.serverBadge != server { return false }
        if let unread = condition.unread, ledgers.unread != unread { return false }
        return true
    }

    /// The messages already stored after `since` (they count too), newest first, page by page:
    /// `list` gives the page of `pageSize` listed before a message id (nil: the newest).
    public mutating func noteMessages(after since: Int64, list: (_ before: Int64?) throws -> [Message]) rethrows {
        var before: Int64?
        while true {
            let page = try list(before)
            for message in page {
                guard message.id > since else { return }
                if !condition.banner { consider(.message(message), id: message.id) }
                before = message.id
            }
            if page.count < Self.pageSize { return }
        }
    }

    /// Takes one bus event; true when it may have moved the ledgers.
    public mutating func note(_ event: BusEvent) -> Bool {
        switch event.body {
        case .received(let message)?:
            if !condition.banner { consider(.message(message), id: message.id) }
            return true
        case .banner(let banner)?:
            // Each banner arrival counts once, under a key of its message and its +N.
            if condition.banner { consider(.banner(banner), id: banner.id << 20 | Int64(banner.count)) }
            return false
        case .feedback?, .mode?, .appState?:
            return false
        default:
            return true
        }
    }

    private mutating func consider(_ candidate: ExpectSeen, id: Int64) {
        seen += 1
        let score = condition.score(candidate)
        if score.met == score.of {
            matched[id] = candidate
            lastMatch = candidate
        } else if closest == nil || score.met >= (closest?.met ?? 0) {
            closest = (score.met, candidate)
        }
    }

    /// The line printed when it holds: the last matching message (or banner), else the ledgers.
    public var matchedLine: String {
        if condition.wantsMessages, let lastMatch { return JSON.object(lastMatch.wireObject).compactText }
        return JSON.object([
            "badge": .number(JSONNumber(ledgers.badge)), "serverBadge": .number(JSONNumber(ledgers.serverBadge)),
            "unread": .number(JSONNumber(ledgers.unread)),
        ]).compactText
    }

    /// The line `expect` gives at its timeout: how long it waited, what was wanted, what was seen.
    public func timedOutLine(after seconds: Double) -> String {
        let shown = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
        return "timed out after \(shown) s; \(report)"
    }

    /// One line: what was wanted, what was seen instead.
    public var report: String {
        var line = "wanted \(condition.summary); saw "
        let kind = condition.banner ? "banner" : "message"
        if condition.wantsMessages {
            line += "\(matched.count) matching of \(seen) \(kind)\(seen == 1 ? "" : "s")"
            if let closest = closest?.seen {
                let title = closest.title.map { JSON.string($0).compactText } ?? "no title"
                let body = closest.body.map { JSON.string($0).compactText } ?? "no body"
                line += "; closest #\(closest.id) \(closest.app) \(title) — \(body) via \(closest.via.rawValue)"
            }
            line += "; "
        }
        line += "badge \(ledgers.badge), server badge \(ledgers.serverBadge), unread \(ledgers.unread)"
        return line
    }
}
