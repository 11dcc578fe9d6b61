import Foundation
import Glibc
import PushCore
import PushClient
import PushSystem
import PushJSON
import PushScenario

/// `pushdeck record FILE`: writes a scenario from the running pushdeck's bus until ^C —
/// every push with its payload, app state, mode, reads, deletions, badge commands and resets as
/// timed steps, then expects holding each app's final ledgers — so `play FILE` of it passes.
enum RecordCommand {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let files = try arguments.positionals()
        guard files.count == 1, let file = files.first else {
            throw UsageError("give the one FILE to write the scenario to", command: "record")
        }
        let signals = try SignalPipe(signals: [SIGINT, SIGTERM])
        let events = try EventStream(path: socket)
        let queries = try SocketClient(path: socket)
        // Found now, not after a session of clicking: the file must be writable.
        guard FileManager.default.createFile(atPath: file, contents: nil) else {
            throw Failure(code: 2, message: "cannot write \(file)")
        }
        let badge = try ClientCommands.badgeOf(ClientCommands.ask(.badge(app: nil, change: nil, sync: nil), queries).reply)
        let listed = try ClientCommands.ask(.list(ListQuery(limit: 1)), queries).reply
        if badge != Badge() || listed != .messages([]) {
            printError("pushdeck record: the inbox is not empty; play starts from a clean one, so run `pushdeck reset` before recording for expects that hold")
        }
        printError("pushdeck record: recording to \(file); ^C to stop")

        var recorder = Recorder(started: DispatchTime.now().uptimeNanoseconds)
        while true {
            if let event = try events.next(alsoWatching: signals.readFD) {
                recorder.note(event, at: DispatchTime.now().uptimeNanoseconds)
            }
            if !signals.drain().isEmpty { break }
        }

        // The final ledgers, app by app, then the totals.
        for app in recorder.apps.sorted() {
            recorder.expect(app: app, try ledgers(app, queries))
        }
        recorder.expect(app: nil, try ledgers(nil, queries))
        let name = "recorded " + RFC3339.string(from: Date())
        do {
            try Data(recorder.scenarioText(name: name).utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            throw Failure(code: 1, message: "cannot write \(file): \(error.localizedDescription)")
        }
        printError("pushdeck record: wrote \(recorder.steps.count) steps to \(file)")
        return 0
    }

    /// The final ledgers from the server's state report: the unread count the inbox keeps, not a
    /// page of unread messages counted (a page holds at most 1 000).
    private static func ledgers(_ app: String?, _ client: SocketClient) throws -> JSONObject {
        let state = try client.reply(to: .state(app: app, message: nil))
        guard case .state(let report) = state else {
            throw Failure.refused(state.errorMessage ?? JSON.object(state.wireObject).compactText)
        }
        return [
            "badge": .number(JSONNumber(report.badge.icon)), "serverBadge": .number(JSONNumber(report.badge.server)),
            "unread": .number(JSONNumber(report.unread)),
        ]
    }
}
