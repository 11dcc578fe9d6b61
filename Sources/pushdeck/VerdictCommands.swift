import Foundation
import Glibc
import PushCore
import PushClient
import PushJSON

/// `pushdeck reset` and `pushdeck expect`: verdicts a CI job reads from exit codes.
enum VerdictCommands {
    // MARK: - reset

    static func reset(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let app = try arguments.option("--app")
        let all = arguments.flag("--all")
        let json = arguments.flag("--json")
        try arguments.finish()
        if let app, app.isEmpty { throw UsageError("--app takes an app id like com.example.shop", command: "reset") }
        let client = try SocketClient(path: socket)
        let reply = try ClientCommands.expectOK(client.request(.reset(app: app, all: all)))
        let what = app.map { "reset \($0): its messages, held messages and badges cleared" }
            ?? "reset: every message, held message and badge cleared"
        let devices = all ? "; devices and keys forgotten" : ""
        ClientCommands.printReply(
            reply, json: json, "\(what); push on, app foreground, dropped 0\(devices); badge \(reply["badge"]?.intValue ?? 0)")
        return 0
    }

    // MARK: - expect

    static func expect(_ arguments: inout Arguments) throws -> Int32 {
        let trigger = arguments.trailingCommand()
        let socket = try ClientCommands.socketPath(&arguments)
        var condition = ExpectCondition()
        condition.app = try arguments.option("--app")
        condition.title = try regex(arguments.option("--title"), option: "--title")
        condition.body = try regex(arguments.option("--body"), option: "--body")
        condition.via = try arguments.option("--via")
        condition.count = try arguments.intOption("--count", in: 0...1_000_000)
        condition.badge = try arguments.intOption("--badge", in: 0...Request.maxBadge)
        condition.serverBadge = try arguments.intOption("--server-badge", in: 0...Request.maxBadge)
        condition.unread = try arguments.intOption("--unread", in: 0...Int(Int32.max))
        condition.banner = arguments.flag("--banner")
        condition.since = try arguments.intOption("--since", in: 0...Int.max).map(Int64.init)
        let timeoutText = try arguments.option("--timeout")
        try arguments.finish()
        var timeout = 5.0
        if let timeoutText {
            guard let value = Double(timeoutText), value >= 0, value <= 86_400 else {
                throw UsageError("--timeout takes seconds from 0 to 86400 (like 2.5), not '\(timeoutText)'", command: "expect")
            }
            timeout = value
        }
        let deadline = Date().addingTimeInterval(timeout)

        // Subscribe first, then take the snapshot: a push between the two is seen as an event
        // (and perhaps in the snapshot too; messages are counted by id, once).
        let events = try SocketClient(path: socket)
        _ = try ClientCommands.expectOK(events.request(.subscribe([])))
        let queries = try SocketClient(path: socket)
        var watch = ExpectWatch(condition: condition)
        if let since = condition.since { try watch.noteMessages(after: since, from: queries) }
        if condition.needsLedgers { watch.ledgers = try ledgers(condition.app, from: queries) }
        // `-- COMMAND`: the trigger runs once expect listens, so even a banner cannot be missed.
        let process = try start(trigger)

        while !watch.holds {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, events.waitForLine(milliseconds: Int32(min(left, 86_400) * 1000) + 1) else {
                // What the ledgers are at the end, asked for or not.
                watch.ledgers = try ledgers(condition.app, from: queries)
                printError("pushdeck expect: timed out after \(format(timeout)) s; \(watch.report)")
                process?.waitUntilExit()
                return 1
            }
            let event = try events.readReply()
            if watch.note(event), condition.needsLedgers {
                watch.ledgers = try ledgers(condition.app, from: queries)
            }
        }
        if let process {
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                printError("pushdeck expect: the condition held, but \(trigger.joined(separator: " ")) exited with \(process.terminationStatus)")
                return 1
            }
        }
        writeLine(watch.matchedLine)
        return 0
    }

    /// Starts the trigger command (found on PATH), sharing this terminal's output.
    private static func start(_ command: [String]) throws -> Process? {
        guard let name = command.first else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + command.dropFirst()
        do {
            try process.run()
        } catch {
            throw Failure(code: 2, message: "cannot run \(name): \(error.localizedDescription)")
        }
        return process
    }

    private static func regex(_ pattern: String?, option: String) throws(UsageError) -> NSRegularExpression? {
        guard let pattern else { return nil }
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw UsageError("\(option) takes a regular expression (NSRegularExpression); '\(pattern)' is not one", command: "expect")
        }
    }

    /// The ledgers now, from the server's state report: badge and server badge (of the app,
    /// else totals) and the unread count the inbox keeps (not a page of messages counted).
    private static func ledgers(_ app: String?, from client: SocketClient) throws -> Ledgers {
        let state = try ClientCommands.expectOK(client.request(.state(app: app, message: nil)))
        guard let report = InboxReport(wire: state) else {
            throw Failure(code: 1, message: "the server's state reply is not one this pushdeck reads: \(JSON.object(state).compactText)")
        }
        return Ledgers(badge: report.badge.icon, serverBadge: report.badge.server, unread: report.unread)
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// What `expect` was asked for. Message conditions (`app`, `title`, `body`, `via`, `count`,
/// `since`, `banner`) count matching messages; ledger conditions compare the current ledgers.
struct ExpectCondition {
    var app: String?
    var title: NSRegularExpression?
    var body: NSRegularExpression?
    var via: String?
    var count: Int?
    var badge: Int?
    var serverBadge: Int?
    var unread: Int?
    var banner = false
    var since: Int64?

    var needsLedgers: Bool { badge != nil || serverBadge != nil || unread != nil }

    /// A message is wanted unless only ledgers were asked about (`--app` alone asks for one).
    var wantsMessages: Bool {
        title != nil || body != nil || via != nil || count != nil || since != nil || banner || !needsLedgers
    }

    /// How many matching messages (or banners, with `--banner`) make it hold.
    var wantedCount: Int { count ?? 1 }

    /// Which of the message conditions a message (wire object, or banner event) meets, and how many there are.
    func score(_ message: JSONObject) -> (met: Int, of: Int) {
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

    var summary: String {
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

struct Ledgers {
    var badge = 0
    var serverBadge = 0
    var unread = 0
}

/// The state `expect` keeps while it waits: matching messages by id, the closest miss, ledgers.
struct ExpectWatch {
    let condition: ExpectCondition
    var ledgers = Ledgers()
    private var matched: [Int64: JSONObject] = [:]
    private var lastMatch: JSONObject?
    private var closest: (met: Int, message: JSONObject)?
    private var seen = 0

    init(condition: ExpectCondition) { self.condition = condition }

    var holds: Bool {
        if condition.wantsMessages && matched.count < condition.wantedCount { return false }
        if let badge = condition.badge, ledgers.badge != badge { return false }
        if let server = condition.serverBadge, ledgers.serverBadge != server { return false }
        if let unread = condition.unread, ledgers.unread != unread { return false }
        return true
    }

    /// The messages already stored after `since` (they count too), newest first, page by page.
    mutating func noteMessages(after since: Int64, from client: SocketClient) throws {
        var before: Int64?
        while true {
            let reply = try ClientCommands.expectOK(client.request(.list(ListQuery(limit: 1000, before: before))))
            let page = reply["messages"]?.arrayValue?.compactMap(\.objectValue) ?? []
            for message in page {
                guard let id = message["id"]?.numberValue.flatMap({ Int64($0.text) }), id > since else { return }
                if !condition.banner { consider(message, id: id) }
                before = id
            }
            if page.count < 1000 { return }
        }
    }

    /// Takes one bus event; true when it may have moved the ledgers.
    mutating func note(_ event: JSONObject) -> Bool {
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
    var matchedLine: String {
        if condition.wantsMessages, let lastMatch { return JSON.object(lastMatch).compactText }
        return JSON.object([
            "badge": .number(JSONNumber(ledgers.badge)), "serverBadge": .number(JSONNumber(ledgers.serverBadge)),
            "unread": .number(JSONNumber(ledgers.unread)),
        ]).compactText
    }

    /// One line: what was wanted, what was seen instead.
    var report: String {
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
