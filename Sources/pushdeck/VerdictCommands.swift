import Foundation
import Glibc
import PushCore
import PushClient
import PushJSON
import PushScenario

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
        let (reply, line) = try ClientCommands.ask(.reset(app: app, all: all), client)
        let what = app.map { "reset \($0): its messages, held messages and badges cleared" }
            ?? "reset: every message, held message and badge cleared"
        let devices = all ? "; devices and keys forgotten" : ""
        let badge = try ClientCommands.badgeOf(reply).icon
        ClientCommands.printReply(line, json: json, "\(what); push on, app foreground, dropped 0\(devices); badge \(badge)")
        return 0
    }

    // MARK: - expect

    static func expect(_ arguments: inout Arguments) throws -> Int32 {
        let trigger = arguments.trailingCommand()
        let socket = try ClientCommands.socketPath(&arguments)
        let ask = try expectCondition(&arguments)
        try arguments.finish()
        let condition = ask.condition, timeout = ask.timeout
        let deadline = Date().addingTimeInterval(timeout)
        if let requests = ask.requests {
            return try expectRequests(RequestWatch(condition: requests, since: ask.requestsSince), socket: socket, trigger: trigger, timeout: timeout)
        }

        // Subscribe first, then take the snapshot: a push between the two is seen as an event
        // (and perhaps in the snapshot too; messages are counted by id, once).
        let events = try EventStream(path: socket)
        let queries = try SocketClient(path: socket)
        var watch = ExpectWatch(condition: condition)
        if let since = condition.since {
            try watch.noteMessages(after: since) { before in
                let reply = try queries.reply(to: .list(ListQuery(limit: ExpectWatch.pageSize, before: before)))
                if case .error(let message) = reply { throw Failure.refused(message) }
                guard case .messages(let page) = reply else { throw Failure.unreadable(reply) }
                return page
            }
        }
        if condition.needsLedgers { watch.ledgers = try ledgers(condition.app, from: queries) }
        // `-- COMMAND`: the trigger runs once expect listens, so even a banner cannot be missed.
        let process = try start(trigger)

        while !watch.holds {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let event = try events.next(waitingMilliseconds: Int32(min(left, 86_400) * 1000) + 1) else {
                // What the ledgers are at the end, asked for or not.
                watch.ledgers = try ledgers(condition.app, from: queries)
                printError("pushdeck expect: \(watch.timedOutLine(after: timeout))")
                process?.waitUntilExit()
                return 1
            }
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

    /// `expect --requests/--retried/--stopped`: the request log since the reset (or after
    /// `--since SEQ`), then the bus's `request` events, judged after each; decided at once when
    /// the log decides (`--stopped` fails at the first request after Unregistered), else at the
    /// timeout (where `--stopped` holds).
    private static func expectRequests(_ start: RequestWatch, socket: String, trigger: [String], timeout: Double) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        var watch = start
        // Subscribe first, then read the log: a request between the two is seen twice, counted once (by seq).
        let events = try EventStream(path: socket, topics: [.request])
        let queries = try SocketClient(path: socket)
        let log = try queries.reply(to: .requests(RequestLogQuery(since: watch.since)))
        guard case .requests(let records) = log else {
            throw Failure.refused(log.errorMessage ?? "the server's requests reply is not one this pushdeck reads")
        }
        watch.note(records)
        let process = try self.start(trigger)
        var timedOut = false
        while !watch.verdict.isDecided {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let event = try events.next(waitingMilliseconds: Int32(min(left, 86_400) * 1000) + 1) else {
                timedOut = true
                break
            }
            if case .request(let record)? = event.body { watch.note([record]) }
        }
        process?.waitUntilExit()
        let (ok, line) = watch.verdict.final
        guard ok else {
            printError("pushdeck expect: \(timedOut ? watch.timedOutLine(after: timeout) : line)")
            return 1
        }
        if let process, process.terminationStatus != 0 {
            printError("pushdeck expect: the condition held, but \(trigger.joined(separator: " ")) exited with \(process.terminationStatus)")
            return 1
        }
        writeLine(line)
        return 0
    }

    /// What `expect` was asked: the inbox's condition, or one about the request log (with the
    /// seq it counts after), and how long to wait.
    struct Ask {
        var condition: ExpectCondition
        var requests: RequestCondition?
        var requestsSince = 0
        var timeout: Double
    }

    /// What `expect` waits for and how long, from its options: the command line's, and the
    /// control API's query turned into them (`ControlExpects`), so both check them the same way.
    static func expectCondition(_ arguments: inout Arguments, maxTimeout: Double = 86_400) throws(UsageError) -> Ask {
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
        let since = try arguments.intOption("--since", in: 0...Int.max)
        let requests = try requestCondition(&arguments)
        var timeout = 5.0
        if let timeoutText = try arguments.option("--timeout") {
            guard let value = Double(timeoutText), value >= 0, value <= maxTimeout else {
                throw UsageError(
                    "--timeout takes seconds from 0 to \(format(maxTimeout)) (like 2.5), not '\(timeoutText)'", command: "expect")
            }
            timeout = value
        }
        guard let requests else {
            condition.since = since.map(Int64.init)
            return Ask(condition: condition, timeout: timeout)
        }
        // A request-log verdict is judged alone: its --since is a request seq, not a message id.
        let inbox = [("--app", condition.app != nil), ("--title", condition.title != nil), ("--body", condition.body != nil),
                     ("--via", condition.via != nil), ("--count", condition.count != nil), ("--badge", condition.badge != nil),
                     ("--server-badge", condition.serverBadge != nil), ("--unread", condition.unread != nil), ("--banner", condition.banner)]
        if let mixed = inbox.first(where: \.1) {
            throw UsageError(
                "\(mixed.0) is about the inbox; --requests, --retried and --stopped are about the request log: run two expects", command: "expect")
        }
        return Ask(condition: condition, requests: requests, requestsSince: since ?? 0, timeout: timeout)
    }

    /// `--requests N [--vendor V] [--status S]`, `--retried [--after-status S] [--min-wait S]` or
    /// `--stopped TOKEN` (one of them), or nil.
    private static func requestCondition(_ arguments: inout Arguments) throws(UsageError) -> RequestCondition? {
        let count = try arguments.intOption("--requests", in: 1...1_000_000)
        let vendorText = try arguments.option("--vendor")
        let status = try arguments.intOption("--status", in: 100...599)
        let retried = arguments.flag("--retried")
        let afterStatus = try arguments.intOption("--after-status", in: 100...599)
        let minWaitText = try arguments.option("--min-wait")
        let stopped = try arguments.option("--stopped")
        let asked = [count != nil ? "--requests" : nil, retried ? "--retried" : nil, stopped != nil ? "--stopped" : nil].compactMap { $0 }
        guard asked.count <= 1 else {
            throw UsageError("\(asked.joined(separator: " and ")) are separate verdicts: run one expect for each", command: "expect")
        }
        func only(_ option: String, _ given: Bool, with owner: String, _ ok: Bool) throws(UsageError) {
            if given && !ok { throw UsageError("\(option) goes with \(owner)", command: "expect") }
        }
        try only("--vendor", vendorText != nil, with: "--requests", count != nil)
        try only("--status", status != nil, with: "--requests", count != nil)
        try only("--after-status", afterStatus != nil, with: "--retried", retried)
        try only("--min-wait", minWaitText != nil, with: "--retried", retried)
        if let count {
            var vendor: Via?
            if let vendorText {
                guard let named = Via(rawValue: vendorText), Via.providers.contains(named) else {
                    throw UsageError("--vendor takes \(Via.providers.map(\.rawValue).joined(separator: ", ")), not '\(vendorText)'", command: "expect")
                }
                vendor = named
            }
            return .requests(count: count, vendor: vendor, status: status)
        }
        if retried {
            var minWait = 0.0
            if let minWaitText {
                guard let value = Double(minWaitText), value >= 0, value <= 86_400 else {
                    throw UsageError("--min-wait takes seconds from 0 to 86400 (like 1.5), not '\(minWaitText)'", command: "expect")
                }
                minWait = value
            }
            return .retried(afterStatus: afterStatus, minWait: minWait)
        }
        if let stopped {
            guard !stopped.isEmpty else { throw UsageError("--stopped takes a device token", command: "expect") }
            return .stopped(token: stopped)
        }
        return nil
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
        let state = try client.reply(to: .state(app: app, message: nil))
        if case .error(let message) = state { throw Failure.refused(message) }
        guard case .state(let report) = state else {
            throw Failure(code: 1, message: "the server's state reply is not one this pushdeck reads: \(JSON.object(state.wireObject).compactText)")
        }
        return Ledgers(badge: report.badge.icon, serverBadge: report.badge.server, unread: report.unread)
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
