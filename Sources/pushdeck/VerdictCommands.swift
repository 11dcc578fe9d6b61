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
        let (condition, timeout) = try expectCondition(&arguments)
        try arguments.finish()
        let deadline = Date().addingTimeInterval(timeout)

        // Subscribe first, then take the snapshot: a push between the two is seen as an event
        // (and perhaps in the snapshot too; messages are counted by id, once).
        let events = try SocketClient(path: socket)
        _ = try ClientCommands.expectOK(events.request(.subscribe([])))
        let queries = try SocketClient(path: socket)
        var watch = ExpectWatch(condition: condition)
        if let since = condition.since {
            try watch.noteMessages(after: since) { before in
                try ClientCommands.expectOK(queries.request(.list(ListQuery(limit: ExpectWatch.pageSize, before: before))))
            }
        }
        if condition.needsLedgers { watch.ledgers = try ledgers(condition.app, from: queries) }
        // `-- COMMAND`: the trigger runs once expect listens, so even a banner cannot be missed.
        let process = try start(trigger)

        while !watch.holds {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, events.waitForLine(milliseconds: Int32(min(left, 86_400) * 1000) + 1) else {
                // What the ledgers are at the end, asked for or not.
                watch.ledgers = try ledgers(condition.app, from: queries)
                printError("pushdeck expect: \(watch.timedOutLine(after: timeout))")
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

    /// What `expect` waits for and how long, from its options: the command line's, and the
    /// control API's query turned into them (`ControlExpects`), so both check them the same way.
    static func expectCondition(_ arguments: inout Arguments, maxTimeout: Double = 86_400) throws(UsageError) -> (ExpectCondition, Double) {
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
        var timeout = 5.0
        if let timeoutText = try arguments.option("--timeout") {
            guard let value = Double(timeoutText), value >= 0, value <= maxTimeout else {
                throw UsageError(
                    "--timeout takes seconds from 0 to \(format(maxTimeout)) (like 2.5), not '\(timeoutText)'", command: "expect")
            }
            timeout = value
        }
        return (condition, timeout)
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
