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
