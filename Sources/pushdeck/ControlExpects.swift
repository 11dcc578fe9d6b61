import Foundation
import PushCore
import PushGateway
import PushJSON
import PushScenario
import PushServer

/// The control API's long-poll `GET /pushdeck/v1/expect?…`: `pushdeck expect`'s conditions, in
/// the server's own loop. Its query is turned into `expect`'s options and read by the same code
/// (`VerdictCommands.expectCondition`); the same `ExpectWatch` takes the turn's bus events (the
/// server's tap) and is judged after each commit, so a 200 goes out in the turn whose commit
/// made the condition hold and nothing ever blocks the loop. At the timeout it is 408 with the
/// line `expect` prints.
final class ControlExpects {
    private struct Waiting {
        var watch: ExpectWatch
        /// A request-log verdict instead of the inbox's condition.
        var requests: RequestWatch?
        var timeout: Double
        var deadline: Instant
        var completion: (HTTPResponse) -> Void
    }

    private var waiting: [Waiting] = []
    /// The bus events of the turn so far (heard only while something waits).
    private var events: [BusEvent] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// Starts a long-poll: answered at once when the query is bad (400) or the condition already
    /// holds, else after the commit that makes it hold or at its timeout.
    func start(_ query: [QueryItem], server: Server, completion: @escaping (HTTPResponse) -> Void) {
        let ask: VerdictCommands.Ask
        do {
            ask = try Self.condition(query)
        } catch {
            completion(ControlRoutes.error(400, error.message))
            return
        }
        let condition = ask.condition, timeout = ask.timeout
        let deadline = Instant(nanoseconds: server.now.nanoseconds + Int64((timeout * 1e9).rounded()))
        if let requests = ask.requests {
            var watch = RequestWatch(condition: requests, since: ask.requestsSince)
            if case .requests(let records) = server.reply(to: .requests(RequestLogQuery(since: ask.requestsSince))) {
                watch.note(records)
            }
            if watch.verdict.isDecided {
                completion(Self.answer(watch, timedOut: nil))
                return
            }
            wait(Waiting(watch: ExpectWatch(condition: condition), requests: watch, timeout: timeout, deadline: deadline, completion: completion), server)
            return
        }
        var watch = ExpectWatch(condition: condition)
        if let since = condition.since {
            watch.noteMessages(after: since) { before in
                guard case .messages(let messages) = server.reply(to: .list(ListQuery(limit: ExpectWatch.pageSize, before: before))) else { return [] }
                return messages
            }
        }
        if condition.needsLedgers { watch.ledgers = Self.ledgers(condition.app, server) }
        if watch.holds {
            completion(Self.held)
            return
        }
        wait(Waiting(watch: watch, timeout: timeout, deadline: deadline, completion: completion), server)
    }

    private func wait(_ entry: Waiting, _ server: Server) {
        waiting.append(entry)
        if server.busTap == nil {
            server.busTap = { [unowned self] event in
                self.events.append(event)
            }
        }
    }

    /// After the turn's commit: each waiting condition takes the turn's events and is judged.
    func turnEnded(server: Server) {
        guard !waiting.isEmpty else { return }
        let turn = events
        events.removeAll(keepingCapacity: true)
        let now = server.now
        var kept: [Waiting] = []
        for var entry in waiting {
            if var requests = entry.requests {
                for event in turn {
                    if case .request(let record)? = event.body { requests.note([record]) }
                }
                entry.requests = requests
                let over = now.nanoseconds >= entry.deadline.nanoseconds
                if requests.verdict.isDecided || over {
                    entry.completion(Self.answer(requests, timedOut: over && !requests.verdict.isDecided ? entry.timeout : nil))
                } else {
                    kept.append(entry)
                }
                continue
            }
            var moved = false
            for event in turn where entry.watch.note(event) { moved = true }
            let condition = entry.watch.condition
            if moved && condition.needsLedgers { entry.watch.ledgers = Self.ledgers(condition.app, server) }
            if entry.watch.holds {
                entry.completion(Self.held)
            } else if now.nanoseconds >= entry.deadline.nanoseconds {
                // What the ledgers are at the end, asked for or not (as `expect` says).
                entry.watch.ledgers = Self.ledgers(condition.app, server)
                entry.completion(ControlRoutes.error(408, entry.watch.timedOutLine(after: entry.timeout)))
            } else {
                kept.append(entry)
            }
        }
        waiting = kept
        if waiting.isEmpty { server.busTap = nil }
    }

    /// The earliest timeout still waiting.
    func deadline() -> Instant? { waiting.map(\.deadline).min { $0.nanoseconds < $1.nanoseconds } }

    private static let held = ControlRoutes.json(200, JSONObject([(key: "ok", value: true)]))

    /// A request-log verdict's answer: 200 when it holds (`--stopped` at its timeout too), else
    /// 408 at the timeout, or 417 at once when the log already decided it failed (as `expect`
    /// exits 1 at once; 417 is RFC 9110 §15.5.18's "expectation cannot be met", there said of
    /// the Expect header) — each with the line `expect` prints.
    private static func answer(_ watch: RequestWatch, timedOut: Double?) -> HTTPResponse {
        let (ok, line) = watch.verdict.final
        if ok { return held }
        if let timedOut { return ControlRoutes.error(408, watch.timedOutLine(after: timedOut)) }
        return ControlRoutes.error(417, line)
    }

    /// The ledgers now, from the engine's state report (of `app`, else totals).
    private static func ledgers(_ app: String?, _ server: Server) -> Ledgers {
        guard case .state(let report) = server.reply(to: .state(app: app, message: nil)) else { return Ledgers() }
        return Ledgers(badge: report.badge.icon, serverBadge: report.badge.server, unread: report.unread)
    }

    // MARK: - The query as expect's options

    /// `serverBadge=3&banner=true&timeout=2` → `--server-badge 3 --banner --timeout 2`, read by
    /// `expect`'s own option reader; its words name the query's parameters in what it refuses.
    static func condition(_ query: [QueryItem]) throws(UsageError) -> VerdictCommands.Ask {
        let spec = CommandTable.expect
        let flags = Set(spec.options.filter { $0.argument == OptionSpec.Argument.none }.map(\.name))
        let taken = spec.options.map(\.name).filter { $0 != "--socket" }
        var tokens: [String] = []
        var names: [(option: String, parameter: String)] = []
        for item in query {
            let option = "--" + item.name.reduce(into: "") { text, character in
                text += character.isUppercase ? "-" + character.lowercased() : String(character)
            }
            guard taken.contains(option), !item.name.contains("-") else {
                let accepted = taken.map { camelCase($0) }.joined(separator: ", ")
                throw UsageError("unknown parameter \(item.name); expect takes \(accepted)", command: "expect")
            }
            guard !names.contains(where: { $0.option == option }) else {
                throw UsageError("\(item.name) is given twice", command: "expect")
            }
            names.append((option, item.name))
            if flags.contains(option) {
                switch item.value {
                case "", "true": tokens.append(option)
                case "false": break
                default: throw UsageError("\(item.name) takes true or false, not '\(item.value)'", command: "expect")
                }
            } else {
                tokens += [option, item.value]
            }
        }
        var arguments = Arguments(spec, tokens)
        do {
            let read = try VerdictCommands.expectCondition(&arguments, maxTimeout: ControlRoutes.maxExpectSeconds)
            try arguments.finish()
            return read
        } catch {
            var message = error.message
            for name in names { message = message.replacingOccurrences(of: name.option, with: name.parameter) }
            throw UsageError(message, command: "expect")
        }
    }

    /// `--server-badge` → `serverBadge`.
    static func camelCase(_ option: String) -> String {
        let words = option.dropFirst(2).split(separator: "-")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }
}
