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

    /// Which of the message conditions a message (wire object, or banner event) meets, and how many there are.
    public func score(_ message: JSONObject) -> (met: Int, of: Int) {
        var met = 0
        var of = 0
        func check(_ asked: Bool, _ ok: Bool) {
            guard asked else { return }
            of += 1
            if ok { met += 1 }
        }
        check(app != nil, message["app"]?.stringValue == app)
        check(title != nil, Self.matches(title, message["title"]?.stringValue))
        check(body != nil, Self.matches(body, message["body"]?.stringValue))
        // Messages from before the gateway came in through the socket.
        check(via != nil, (message["via"]?.stringValue ?? "socket") == via)
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

/// The ledgers `expect` compares: badge, server badge and unread (of an app, else totals).
public struct Ledgers: Sendable, Equatable {
    public var badge = 0
    public var serverBadge = 0
    public var unread = 0

    public init(badge: Int = 0, serverBadge: Int = 0, unread: Int = 0) {
        self.badge = badge
        self.serverBadge = serverBadge
        self.unread = unread
    }
}

/// The state `expect` keeps while it waits: matching messages by id, the closest miss, ledgers.
public struct ExpectWatch {
    /// The rows a `list` page holds at most (the server's limit).
    public static let pageSize = 1000
    public let condition: ExpectCondition
    public var ledgers = Ledgers()
    private var matched: [Int64: JSONObject] = [:]
    private var lastMatch: JSONObject?
    private var closest: (met: Int, message: JSONObject)?
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
    /// `list` gives the `list` reply of the page of `pageSize` before a message id (nil: the newest).
    public mutating func noteMessages(after since: Int64, list: (_ before: Int64?) throws -> JSONObject) rethrows {
        var before: Int64?
        while true {
            let reply = try list(before)
            let page = reply["messages"]?.arrayValue?.compactMap(\.objectValue) ?? []
            for message in page {
                guard let id = message["id"]?.numberValue.flatMap({ Int64($0.text) }), id > since else { return }
                if !condition.banner { consider(message, id: id) }
                before = id
            }
            if page.count < Self.pageSize { return }
        }
    }

    /// Takes one bus event; true when it may have moved the ledgers.
    public mutating func note(_ event: JSONObject) -> Bool {
        let topic = event["topic"]?.stringValue ?? ""
        switch topic {
        case Topic.messageReceived.rawValue, Topic.remoteReceived.rawValue:
            if !condition.banner, let message = event["message"]?.objectValue,
                let id = message["id"]?.numberValue.flatMap({ Int64($0.text) })
            {
                consider(message, id: id)
            }
            return true
        case Topic.bannerShown.rawValue:
            // Each banner arrival counts once, under a key of its message and its +N.
            if condition.banner, let id = event["id"]?.numberValue.flatMap({ Int64($0.text) }) {
                let count = Int64(event["count"]?.intValue ?? 1)
                consider(event, id: id << 20 | count)
            }
            return false
        case Topic.feedback.rawValue, Topic.modeChanged.rawValue, Topic.appChanged.rawValue:
            return false
        default:
            return true
        }
    }

    private mutating func consider(_ message: JSONObject, id: Int64) {
        seen += 1
        let score = condition.score(message)
        if score.met == score.of {
            matched[id] = message
            lastMatch = message
        } else if closest == nil || score.met >= (closest?.met ?? 0) {
            closest = (score.met, message)
        }
    }

    /// The line printed when it holds: the last matching message (or banner), else the ledgers.
    public var matchedLine: String {
        if condition.wantsMessages, let lastMatch { return JSON.object(lastMatch).compactText }
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
            if let closest = closest?.message {
                let id = closest["id"]?.numberValue?.text ?? "?"
                let title = closest["title"]?.stringValue.map { JSON.string($0).compactText } ?? "no title"
                let body = closest["body"]?.stringValue.map { JSON.string($0).compactText } ?? "no body"
                let via = closest["via"]?.stringValue ?? "socket"
                line += "; closest #\(id) \(closest["app"]?.stringValue ?? "?") \(title) — \(body) via \(via)"
            }
            line += "; "
        }
        line += "badge \(ledgers.badge), server badge \(ledgers.serverBadge), unread \(ledgers.unread)"
        return line
    }
}
