import Foundation
import PushCore
import PushClient
import PushJSON

/// The commands that talk to a running pushdeck over its socket.
enum ClientCommands {
    // MARK: - send

    static func send(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let app = try arguments.option("--app")
        let channel = try arguments.option("--channel").map { text throws(UsageError) -> Channel in
            guard let channel = Channel(rawValue: text), Channel.requestable.contains(channel) else {
                throw UsageError("--channel takes apns or transparent, not '\(text)'", command: "send")
            }
            return channel
        }
        let offline = arguments.flag("--offline")
        let title = try arguments.option("--title")
        let body = try arguments.option("--body")
        let badge = try arguments.intOption("--badge", in: 0...Int(Int32.max))
        // apns-collapse-id, apns-push-type and apns-priority, as the request's fields.
        let collapseId = try arguments.option("--collapse-id")
        let pushType = try arguments.option("--push-type")
        let priority = try arguments.intOption("--priority", in: 1...10)
        let token = try arguments.option("--token")
        let files = try arguments.positionals()
        guard files.count <= 1 else {
            throw UsageError("send takes one FILE (or '-' for standard input), not \(files.count)", command: "send")
        }

        var payloads: [[UInt8]]
        if let file = files.first {
            guard title == nil, body == nil, badge == nil else {
                throw UsageError("--title, --body and --badge build a payload; they cannot be used with a FILE", command: "send")
            }
            payloads = try readPayloads(file)
        } else {
            guard title != nil || body != nil || badge != nil else {
                throw UsageError("give a FILE, '-' for standard input, or --title/--body/--badge", command: "send")
            }
            payloads = [Array(builtPayload(title: title, body: body, badge: badge).compactText.utf8)]
        }

        let client = try SocketClient(path: socket)
        var exitCode: Int32 = 0
        for payload in payloads {
            // The payload goes in as written, so the stored text is the file's, byte for byte.
            let request = Request.push(PushRequest(
                payloadText: String(decoding: payload, as: UTF8.self), app: app, channel: channel, offline: offline,
                collapseId: collapseId, pushType: pushType, priority: priority, token: token))
            let (reply, line) = try client.exchange(request)
            if case .error(let message) = reply {
                printError("pushdeck send: \(message)")
                exitCode = 1
            } else if case .unavailable(let message) = reply {
                // A push for another instance's device with the team bus down: not taken.
                printError("pushdeck send: \(message)")
                exitCode = 1
            } else {
                writeLine(JSON.object(line).compactText)
            }
        }
        return exitCode
    }

    /// The objects in a file or standard input; each must be a JSON object (trailing commas allowed).
    private static func readPayloads(_ file: String) throws -> [[UInt8]] {
        let bytes: [UInt8]
        let name = file == "-" ? "standard input" : file
        if file == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw Failure(code: 2, message: "cannot read \(file): no such file or not readable")
            }
            bytes = Array(data)
        }
        // Editors on some systems start UTF-8 files with a byte-order mark; it is not JSON.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        var framer = StreamFramer(limit: 16 << 20)
        framer.append(bytes.starts(with: bom) ? bytes.dropFirst(3) : bytes[...])
        var payloads: [[UInt8]] = []
        while true {
            let frame: [UInt8]?
            do {
                frame = try framer.next()
            } catch {
                throw Failure.refused("\(name) is not a JSON object: \(error)")
            }
            guard let frame else {
                do {
                    try framer.finish()
                } catch {
                    throw Failure.refused("\(name): \(error)")
                }
                break
            }
            // The push request `send` wraps around the payload takes one of the server's levels.
            let deepest = JSONParser.defaultMaxDepth - 1
            do {
                _ = try JSON.parse(frame, maxDepth: deepest)
            } catch where error.kind == .tooDeep {
                throw Failure.refused(
                    "\(name): the payload is nested deeper than \(deepest) levels, the most send can carry "
                        + "(the request around it takes one of the server's \(JSONParser.defaultMaxDepth))")
            } catch {
                throw Failure.refused("\(name): not valid JSON: \(error)")
            }
            payloads.append(frame)
        }
        if payloads.isEmpty {
            throw Failure.refused("\(name) holds no JSON object; a push payload is an object like {\"aps\":{\"alert\":\"Hi\"}}")
        }
        return payloads
    }

    /// The APNs payload `--title/--body/--badge` stand for.
    static func builtPayload(title: String?, body: String?, badge: Int?) -> JSON {
        var alert = JSONObject()
        if let title { alert["title"] = .string(title) }
        if let body { alert["body"] = .string(body) }
        var aps = JSONObject()
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        if let badge { aps["badge"] = .number(JSONNumber(badge)) }
        return ["aps": .object(aps)]
    }

    // MARK: - badge, mode, app

    static func badge(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let app = try arguments.option("--app")
        let set = try arguments.intOption("--set", in: 0...Int(Int32.max))
        let clear = arguments.flag("--clear")
        let sync = try arguments.option("--sync")
        let watch = arguments.flag("--watch")
        let server = arguments.flag("--server")
        let policy = try arguments.optionalValue("--policy", values: BadgePolicy.allCases.map(\.rawValue))
        let sdk = try arguments.option("--sdk")
        if policy != nil || sdk != nil {
            return try badgeVerb(socket: socket, app: app, policy: policy, sdk: sdk, other: set != nil || clear || sync != nil || watch, &arguments)
        }
        try arguments.finish()
        guard set == nil || !clear else { throw UsageError("--set and --clear cannot be used together", command: "badge") }
        let client = try SocketClient(path: socket)
        var syncOn: Bool?
        if let sync {
            guard sync == "on" || sync == "off" else { throw UsageError("--sync takes on or off, not '\(sync)'", command: "badge") }
            syncOn = sync == "on"
        }
        let change: BadgeChange? = if let set { .set(set) } else if clear { .clear } else { nil }
        let request = Request.badge(app: app, change: change, sync: syncOn)
        func shownBadge(_ request: Request) throws -> Int {
            let ledgers = try badgeOf(ask(request, client).reply)
            return server ? ledgers.server : ledgers.icon
        }
        var shown = try shownBadge(request)
        writeLine(String(shown))
        guard watch else { return 0 }

        let events = try EventStream(path: client.path, topics: [.badgeChanged])
        let query = Request.badge(app: app, change: nil, sync: nil)
        while true {
            _ = try events.next()
            let value = try shownBadge(query)
            if value != shown {
                shown = value
                writeLine(String(value))
            }
        }
    }

    /// `badge --policy [P]` (prints the policy) and `badge --sdk SDK CALL [N]` (prints the icon).
    private static func badgeVerb(
        socket: String, app: String?, policy: String??, sdk: String?, other: Bool, _ arguments: inout Arguments
    ) throws -> Int32 {
        guard !other else { throw UsageError("--policy and --sdk go alone (with --app), without --set, --clear, --sync or --watch", command: "badge") }
        if let policy {
            guard sdk == nil else { throw UsageError("--policy and --sdk cannot be used together", command: "badge") }
            try arguments.finish()
            let request = Request.badgePolicy(app: app, policy.flatMap(BadgePolicy.init(rawValue:)))
            guard case .policy(_, let chosen) = try ask(request, SocketClient(path: socket)).reply else {
                throw Failure.refused("the server's badge --policy reply is not a policy")
            }
            writeLine(chosen.rawValue)
            return 0
        }
        let words = try arguments.positionals()
        guard let name = sdk, let chosen = SDKBadgeCall.SDK(rawValue: name) else {
            throw UsageError("--sdk takes jpush, getui or ios, not '\(sdk ?? "")'", command: "badge")
        }
        guard let call = words.first, words.count <= 2 else {
            throw UsageError("--sdk \(name) needs a CALL (like setBadge) and, for the set calls, a number N", command: "badge")
        }
        var value: Int?
        if words.count == 2 {
            guard let number = Int(words[1]), (0...Request.maxBadge).contains(number) else {
                throw UsageError("the badge number is a whole number ≥ 0, not '\(words[1])'", command: "badge")
            }
            value = number
        }
        // The SDK's own refusal (an unknown call, a missing number) is the server's answer: exit 1.
        let sdkCall: SDKBadgeCall
        do {
            sdkCall = try SDKBadgeCall(sdk: chosen, call: call, value: value)
        } catch {
            throw Failure.refused(error.message)
        }
        writeLine(String(try badgeOf(ask(Request.sdkBadge(app: app, sdkCall), SocketClient(path: socket)).reply).icon))
        return 0
    }

    /// `mute APP [--for DURATION]` and `unmute APP`: a line saying what holds now, or with
    /// `--json` the reply line.
    static func mute(_ arguments: inout Arguments) throws -> Int32 {
        let command = arguments.command
        let socket = try socketPath(&arguments)
        let duration = command == "mute" ? try arguments.option("--for") : nil
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        guard words.count == 1, let app = words.first, !app.isEmpty else {
            throw UsageError("\(command) takes one APP (like com.example.shop)", command: command)
        }
        var seconds: Int?
        if let duration {
            guard let parsed = Self.seconds(of: duration) else {
                throw UsageError("--for takes a duration like 90s, 30m, 1h or 2d, not '\(duration)'", command: command)
            }
            seconds = parsed
        }
        let request: Request = command == "mute" ? .mute(app: app, seconds: seconds) : .unmute(app: app)
        let (reply, line) = try ask(request, SocketClient(path: socket))
        if json {
            writeLine(JSON.object(line).compactText)
        } else if case .muted(_, let until) = reply {
            let when = until.map { "until \(RFC3339.string(from: $0))" } ?? "until 'pushdeck unmute \(app)'"
            writeLine("\(app) muted \(when): listed and counted, no banner")
        } else {
            writeLine("\(app) unmuted: its banners show again")
        }
        return 0
    }

    /// `90s`, `30m`, `1h`, `2d` (or bare seconds) in seconds.
    static func seconds(of duration: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(duration)
        var unit = 1
        if let last = digits.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value > 0, value <= 366 * 86_400 / unit else { return nil }
        return value * unit
    }

    /// `quiet [HH:MM-HH:MM | off]`: prints the quiet hours (or off) alone.
    static func quiet(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let words = try arguments.positionals()
        guard words.count <= 1 else { throw UsageError("quiet takes HH:MM-HH:MM or off", command: "quiet") }
        var request = Request.quiet(nil)
        if let word = words.first {
            guard word == "off" || QuietHours(word) != nil else {
                throw UsageError("quiet takes HH:MM-HH:MM (24-hour local time, like 22:00-07:00) or off, not '\(word)'", command: "quiet")
            }
            request = .quiet(.some(QuietHours(word)))
        }
        guard case .quiet(let quiet) = try ask(request, SocketClient(path: socket)).reply else {
            throw Failure.refused("the server's quiet reply is not quiet hours")
        }
        writeLine(quiet?.description ?? "off")
        return 0
    }

    static func mode(_ arguments: inout Arguments) throws -> Int32 {
        try setting(&arguments, reply: "mode", accepted: PushMode.allCases.map(\.rawValue))
    }

    static func app(_ arguments: inout Arguments) throws -> Int32 {
        try setting(&arguments, reply: "state", accepted: AppState.allCases.map(\.rawValue))
    }

    /// `mode` and `app`: print the setting, or set it to the one word given (of `accepted`).
    private static func setting(_ arguments: inout Arguments, reply: String, accepted: [String]) throws
        -> Int32
    {
        let command = arguments.command
        let socket = try socketPath(&arguments)
        let words = try arguments.positionals()
        let choices = accepted.joined(separator: ", ")
        let word: String?
        switch words.count {
        case 0: word = nil
        case 1:
            guard accepted.contains(words[0]) else {
                throw UsageError("\(command) takes one of \(choices), not '\(words[0])'", command: command)
            }
            word = words[0]
        default: throw UsageError("\(command) takes at most one word: \(choices)", command: command)
        }
        let request: Request = command == "mode"
            ? .mode(word.flatMap(PushMode.init(rawValue:))) : .app(word.flatMap(AppState.init(rawValue:)))
        switch try ask(request, SocketClient(path: socket)).reply {
        case .mode(let mode): writeLine(mode.rawValue)
        case .appState(let state): writeLine(state.rawValue)
        case let other: throw Failure.unreadable(other)
        }
        return 0
    }

    // MARK: - read, delete, list

    static func read(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let all = arguments.flag("--all")
        let json = arguments.flag("--json")
        let app = try arguments.option("--app")
        let ids = try messageIDs(arguments.positionals(), command: "read")
        let request: Request
        if all {
            guard ids.isEmpty else { throw UsageError("give IDs or --all, not both", command: "read") }
            request = .read(.all(app: app))
        } else {
            guard !ids.isEmpty else { throw UsageError("give the IDs to mark read, or --all", command: "read") }
            guard app == nil else { throw UsageError("--app goes with --all", command: "read") }
            request = .read(.ids(ids))
        }
        let client = try SocketClient(path: socket)
        let (reply, line) = try ask(request, client)
        let what = all ? (app.map { "every message of \($0)" } ?? "every message") : Self.messages(ids)
        let badge = try badgeOf(reply).icon
        printReply(line, json: json, "read \(what); badge \(badge)")
        return 0
    }

    static func delete(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let json = arguments.flag("--json")
        let ids = try messageIDs(arguments.positionals(), command: "delete")
        guard !ids.isEmpty else { throw UsageError("give the IDs to delete", command: "delete") }
        let request = Request.delete(ids)
        let client = try SocketClient(path: socket)
        let (reply, line) = try ask(request, client)
        let badge = try badgeOf(reply).icon
        printReply(line, json: json, "deleted \(Self.messages(ids)); badge \(badge)")
        return 0
    }

    /// "message 3", "messages 1, 2".
    private static func messages(_ ids: [Int64]) -> String {
        (ids.count == 1 ? "message " : "messages ") + ids.map(String.init).joined(separator: ", ")
    }

    private static func messageIDs(_ words: [String], command: String) throws(UsageError) -> [Int64] {
        var ids: [Int64] = []
        for word in words {
            guard let id = Int64(word), id > 0 else {
                throw UsageError("'\(word)' is not a message id (ids are whole numbers from 1)", command: command)
            }
            ids.append(id)
        }
        return ids
    }

    static func list(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let app = try arguments.option("--app")
        let unread = arguments.flag("--unread")
        let limit = try arguments.intOption("--limit", in: 1...1000)
        let before = try arguments.intOption("--before", in: 1...Int.max)
        let json = arguments.flag("--json")
        try arguments.finish()
        let request = Request.list(ListQuery(limit: limit ?? 50, unread: unread, before: before.map(Int64.init), app: app))
        let client = try SocketClient(path: socket)
        guard case .messages(let messages) = try ask(request, client).reply else { throw Failure.refused("the server's list reply is not a page of messages") }
        if json {
            writeLine(JSON.array(messages.map(\.wireJSON)).compactText)
        } else {
            writeLine(MessageTable.render(messages))
        }
        return 0
    }

    // MARK: - watch, ping

    static func watch(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let topics = try arguments.options("--topic")
        try arguments.finish()
        for topic in topics where Topic(rawValue: topic) == nil {
            let known = Topic.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("unknown topic '\(topic)'; topics are \(known)", command: "watch")
        }
        let client = try SocketClient(path: socket)
        _ = try ask(.subscribe(topics.compactMap(Topic.init(rawValue:))), client)
        while let line = try client.readLine() {
            writeLine(bytes: line)
        }
        return 0
    }

    static func ping(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        try arguments.finish()
        let client = try SocketClient(path: socket)
        guard case .version(let version) = try ask(.ping, client).reply else { throw Failure.refused("the server's ping reply has no version") }
        writeLine(version)
        return 0
    }

    /// `pushdeck bus`: the team bus's connection, outbox and instances.
    static func bus(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let json = arguments.flag("--json")
        try arguments.finish()
        let client = try SocketClient(path: socket)
        guard case .bus(let reply) = try ask(.bus, client).reply else { throw Failure.refused("the server's bus reply is not one this pushdeck reads") }
        if json {
            writeLine(JSON.object(reply).compactText)
            return 0
        }
        writeLine("\(reply["bus"]?.stringValue ?? "bus ?") — \(reply["broker"]?.stringValue ?? "") as \(reply["id"]?.stringValue ?? "")")
        writeLine("outbox \(reply["outbox"]?.intValue ?? 0), received \(reply["received"]?.intValue ?? 0), refused \(reply["refused"]?.intValue ?? 0)")
        for (id, state) in reply["instances"]?.objectValue?.members ?? [] {
            let fields = state.objectValue
            let online = fields?["online"]?.boolValue == true
            let detail = online
                ? "online, \(fields?["mode"]?.stringValue ?? "?") mode, app \(fields?["app"]?.stringValue ?? "?"), unread \(fields?["unread"]?.intValue ?? 0), \(fields?["devices"]?.arrayValue?.count ?? 0) devices"
                : "offline"
            writeLine("  \(TerminalText.inert(id)): \(detail)")
        }
        return 0
    }

    /// `pushdeck clock [advance SECONDS]`.
    static func clock(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try socketPath(&arguments)
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        var advance: Double?
        switch words.count {
        case 0: break
        case 2 where words[0] == "advance":
            guard let seconds = Double(words[1]).flatMap({ $0.isFinite && $0 >= 0 ? $0 : nil }) ?? Self.seconds(of: words[1]).map(Double.init),
                  seconds <= Request.maxClockAdvance
            else {
                throw UsageError("advance takes seconds (5.5) or a duration like 90s, 30m or 1h, up to a year; not '\(words[1])'", command: "clock")
            }
            advance = seconds
        default:
            throw UsageError("clock takes nothing, or advance SECONDS", command: "clock")
        }
        let (reply, line) = try ask(.clock(advance: advance), SocketClient(path: socket))
        if json {
            writeLine(JSON.object(line).compactText)
        } else if case .clock(let elapsed?) = reply {
            writeLine("manual clock, moved on \(String(format: "%.3f", elapsed)) s")
        } else {
            writeLine("system clock")
        }
        return 0
    }

    // MARK: - Shared

    /// The socket to talk to: `--socket`, else the default `Locations` picks. Read first, connected
    /// to last, so a usage error is reported as one even when no server runs.
    static func socketPath(_ arguments: inout Arguments) throws(UsageError) -> String {
        let flag = try arguments.option("--socket")
        return Locations.socketPath(flag: flag, environment: ProcessInfo.processInfo.environment)
    }

    /// What a command that changes something prints: one line for a person, or with `--json`
    /// the server's reply line, for a program.
    static func printReply(_ reply: JSONObject, json: Bool, _ sentence: @autoclosure () -> String) {
        writeLine(json ? JSON.object(reply).compactText : sentence())
    }

    /// The reply when it says ok; the server's error as a refusal (exit 1) otherwise.
    /// Sends `request` and gives its typed reply (`Reply(wire:)`); an error reply is a refusal.
    static func typedReply(_ request: Request, socket: String) throws -> Reply {
        let reply = try SocketClient(path: socket).reply(to: request)
        if case .error(let message) = reply { throw Failure.refused(message) }
        return reply
    }

    /// A reply of another kind than the request gets: the server is not the pushdeck this is.
    static func unexpected(_ reply: Reply, to op: String) -> Failure {
        Failure.refused("the server's \(op) reply is not one this pushdeck reads: \(JSON.object(reply.wireObject).compactText)")
    }

    /// Sends `request` on `client`: its typed reply and the line as the server wrote it (what
    /// `--json` prints); an error reply is a refusal (exit 1).
    static func ask(_ request: Request, _ client: SocketClient) throws -> (reply: Reply, line: JSONObject) {
        let answer = try client.exchange(request)
        if case .error(let message) = answer.reply { throw Failure.refused(message) }
        return answer
    }

    /// The icon and server badges a reply says (after a read, a delete, a badge op or call).
    static func badgeOf(_ reply: Reply) throws(Failure) -> Badge {
        switch reply {
        case .badge(let icon): Badge(icon: icon, server: 0)
        case .ledgers(let ledgers), .policy(let ledgers, _): ledgers.badges
        case let other: throw Failure.unreadable(other)
        }
    }
}
