import Foundation
import PushCore
import PushJSON
import PushClient

/// `pushdeck activity list|dismiss`: the Live Activities the running pushdeck keeps.
enum ActivityCommands {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let app = try arguments.option("--app")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        if words.first == "dismiss" {
            // The user's swipe on the Lock Screen: the same request as the card's `x`.
            guard words.count == 2, app == nil, !json else { throw UsageError("activity dismiss takes one ID (activity-N, as 'activity list' shows)", command: "activity") }
            _ = try ClientCommands.ask(.activity(.dismiss(id: words[1])), try SocketClient(path: socket))
            writeLine("\(words[1]) dismissed")
            return 0
        }
        guard words == ["list"] else {
            throw UsageError(words.isEmpty ? "give an action: list or dismiss" : "activity takes list or dismiss, not '\(words.joined(separator: " "))'", command: "activity")
        }
        let client = try SocketClient(path: socket)
        let reply = try ClientCommands.ask(Request.activity(.list(app: app)), client).reply
        guard case .activities(let activities, let unmatched, let at) = reply else { throw Failure.unreadable(reply) }
        if json {
            writeLine(JSON.object([
                "activities": .array(activities.map { $0.wireJSON(at: at) }), "unmatched": .array(unmatched.map(\.wireJSON)),
            ]).compactText)
        } else {
            writeLine(table(activities, unmatched: unmatched, at: at))
        }
        return 0
    }

    /// `pushdeck channel add|list|remove`: the broadcast channels, through the socket's
    /// `channel` op (the same engine as the gateway's channel management).
    static func channel(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let app = try arguments.option("--app")
        let policyText = try arguments.option("--policy")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        let command: ChannelCommand
        switch words.first {
        case "add":
            guard words.count == 1, let app else { throw UsageError("channel add needs --app BUNDLE (and takes no more words)", command: "channel") }
            guard let policy = Int(policyText ?? "0"), policy == 0 || policy == 1 else {
                throw UsageError("--policy must be 0 (no message stored) or 1 (the most recent stored); got \(policyText ?? "")", command: "channel")
            }
            command = .create(app: app, storagePolicy: policy)
        case "list":
            guard words.count == 1, policyText == nil else { throw UsageError("channel list takes only --app and --json", command: "channel") }
            command = .list(app: app)
        case "remove":
            guard words.count == 2, let app, policyText == nil else { throw UsageError("channel remove takes one ID and --app BUNDLE", command: "channel") }
            command = .delete(app: app, id: words[1])
        default:
            throw UsageError(words.isEmpty ? "give an action: add, list, remove" : "channel takes add, list or remove, not '\(words[0])'", command: "channel")
        }
        let client = try SocketClient(path: socket)
        let (reply, line) = try ClientCommands.ask(.channel(command), client)
        if json {
            writeLine(JSON.object(line).compactText)
            return 0
        }
        var channels: [BroadcastChannel] = []
        switch reply {
        case .channels(let read): channels = read
        case .ok: break
        case let other: throw ClientCommands.unexpected(other, to: "channel")
        }
        switch command {
        case .create:
            writeLine(channels.first?.id ?? "")
        case .list:
            let rows = channels.map { [$0.id, $0.app, String($0.storagePolicy), RFC3339.string(from: $0.createdAt)] }
            writeLine(channels.isEmpty ? "no broadcast channels (POST /1/apps/BUNDLE/channels or 'pushdeck channel add' makes one)"
                : TextTable.render(header: ["ID", "APP", "POLICY", "CREATED"], rows: rows))
        default:
            writeLine("channel \(words.last ?? "") removed")
        }
        return 0
    }

    /// One row per activity: id, app, state, content-state as key: value, pushes discarded, its
    /// push token; then how many pushes reached no activity.
    static func table(_ activities: [Activity], unmatched: [ActivityUpdate], at: Date) -> String {
        var text = ""
        if activities.isEmpty {
            text = "no Live Activities (a liveactivity start push to a push-to-start token starts one)"
        } else {
            let rows = activities.map { activity -> [String] in
                [
                    activity.id, activity.app, activity.state(at: at).rawValue, contentLine(activity.contentState),
                    String(activity.discarded), activity.pushToken ?? "-",
                ]
            }
            text = TextTable.render(header: ["ID", "APP", "STATE", "CONTENT", "DISCARDED", "PUSH TOKEN"], rows: rows)
        }
        if !unmatched.isEmpty {
            text += "\n\(unmatched.count) liveactivity push\(unmatched.count == 1 ? "" : "es") reached no activity ('activity list --json' shows why)"
        }
        return text
    }

    /// A content-state as `key: value, …` (nested values as compact JSON).
    static func contentLine(_ content: JSON?) -> String {
        guard let object = content?.objectValue, !object.isEmpty else { return "-" }
        return object.members.map { member in
            "\(member.key): \(member.value.stringValue ?? member.value.compactText)"
        }.joined(separator: ", ")
    }
}
