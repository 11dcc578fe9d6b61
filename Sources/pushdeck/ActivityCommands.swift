import Foundation
import PushCore
import PushJSON
import PushClient

/// `pushdeck activity list`: the Live Activities the running pushdeck keeps.
enum ActivityCommands {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let app = try arguments.option("--app")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        guard words == ["list"] else {
            throw UsageError(words.isEmpty ? "give an action: list" : "activity takes list, not '\(words.joined(separator: " "))'", command: "activity")
        }
        let client = try SocketClient(path: socket)
        let reply = try ClientCommands.expectOK(client.request(Request.activity(.list(app: app))))
        let activities = reply["activities"]?.arrayValue ?? []
        let unmatched = reply["unmatched"]?.arrayValue ?? []
        if json {
            writeLine(JSON.object(["activities": .array(activities), "unmatched": .array(unmatched)]).compactText)
        } else {
            writeLine(table(activities, unmatched: unmatched))
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
        let reply = try ClientCommands.expectOK(client.request(Request.channel(command)))
        if json {
            writeLine(JSON.object(reply).compactText)
            return 0
        }
        let channels = reply["channels"]?.arrayValue?.compactMap(\.objectValue) ?? []
        switch command {
        case .create:
            writeLine(channels.first?["id"]?.stringValue ?? "")
        case .list:
            writeLine(channels.isEmpty ? "no broadcast channels (POST /1/apps/BUNDLE/channels or 'pushdeck channel add' makes one)"
                : TextTable.render(header: ["ID", "APP", "POLICY", "CREATED"], rows: channels.map { channel in
                    [channel["id"]?.stringValue ?? "", channel["app"]?.stringValue ?? "",
                     String(channel["messageStoragePolicy"]?.intValue ?? 0), channel["createdAt"]?.stringValue ?? ""]
                }))
        default:
            writeLine("channel \(words.last ?? "") removed")
        }
        return 0
    }

    /// One row per activity: id, app, state, content-state as key: value, pushes discarded, its
    /// push token; then how many pushes reached no activity.
    static func table(_ activities: [JSON], unmatched: [JSON]) -> String {
        var text = ""
        if activities.isEmpty {
            text = "no Live Activities (a liveactivity start push to a push-to-start token starts one)"
        } else {
            let rows = activities.map { activity -> [String] in
                let object = activity.objectValue ?? [:]
                return [
                    object["id"]?.stringValue ?? "", object["app"]?.stringValue ?? "", object["state"]?.stringValue ?? "",
                    contentLine(object["contentState"]), String(object["discarded"]?.intValue ?? 0),
                    object["pushToken"]?.stringValue ?? "-",
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
