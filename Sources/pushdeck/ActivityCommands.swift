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
        // The one reply still read by field: `Reply(wire:)` reads an error, not the activity list.
        let reply = try client.request(Request.activity(.list(app: app)))
        if case .error(let message)? = try? Reply(wire: reply) { throw Failure.refused(message) }
        let activities = reply["activities"]?.arrayValue ?? []
        let unmatched = reply["unmatched"]?.arrayValue ?? []
        if json {
            writeLine(JSON.object(["activities": .array(activities), "unmatched": .array(unmatched)]).compactText)
        } else {
            writeLine(table(activities, unmatched: unmatched))
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
