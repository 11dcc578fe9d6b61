import Foundation
import PushCore
import PushJSON

/// Turns bus events into scenario steps (`pushdeck record`): what the running pushdeck's bus
/// said, as the timed steps and final expects a `play` of the file checks.
public struct Recorder {
    public let started: UInt64
    public private(set) var steps: [JSONObject] = []
    public private(set) var apps: Set<String> = []
    /// Held pushes per app not yet released: their release is not a new push.
    private var held: [String: Int] = [:]
    /// The server's message ids → the scenario's own (the Nth message its pushes created).
    private var ids: [Int64: Int64] = [:]
    private var created: Int64 = 0
    private var lastTime = 0.0

    public init(started: UInt64) { self.started = started }

    public mutating func note(_ event: BusEvent, at nanoseconds: UInt64) {
        let time = (Double(nanoseconds &- started) / 1e9 * 1000).rounded() / 1000
        lastTime = max(lastTime, time)
        switch event.body {
        case .received(let message)?:
            apps.insert(message.app)
            if message.offline, let waiting = held[message.app], waiting > 0 {
                held[message.app] = waiting - 1
                return
            }
            created += 1
            ids[message.id] = created
            push(app: message.app, payload: (try? JSON.parse(message.payload)) ?? .string(message.payload), channel: message.channel,
                 from: message)
        case .undelivered(let push)?:
            apps.insert(push.app)
            if push.held {
                held[push.app, default: 0] += 1
                created += 1
                if let id = push.id { ids[id] = created }
            }
            self.push(app: push.app, payload: push.payload, channel: push.channel, from: nil)
        case .appState(let state)?:
            step(["state": .string(state.rawValue)])
        case .mode(let mode)?:
            step(["mode": .string(mode.rawValue)])
        case .readAll(let app)?:
            step(["read": "all"], app: app)
        case .read(let read)?:
            for id in mapped(read) { step(["read": .number(JSONNumber(id))]) }
        case .deleted(let deleted)?:
            for id in mapped(deleted) { step(["delete": .number(JSONNumber(id))]) }
        case .badgeRequest(let app, let change, let sync)?:
            var badge = JSONObject()
            switch change {
            case .set(let value)?: badge["set"] = .number(JSONNumber(value))
            case .clear?: badge["clear"] = true
            case nil: break
            }
            if let sync { badge["sync"] = .bool(sync) }
            if !badge.isEmpty { step(["badge": .object(badge)], app: app) }
        case .reset(let app, _)?:
            step(["reset": true], app: app)
        case .badge(let app, _)?:
            apps.insert(app)
        default:
            break
        }
    }

    /// The scenario's ids of server ids; ids of messages from before the recording are left out.
    private func mapped(_ list: [Int64]) -> [Int64] {
        list.compactMap { ids[$0] }
    }

    /// A push step. A delivered message goes with it: a push through a gateway keeps its `via`,
    /// its `token` and (APNs) its `apns-*` headers, so play sends it through the same routes
    /// again; JPush's and Getui's body is the payload (its audience says who; a Getui push keeps
    /// its cid as the token).
    private mutating func push(app: String, payload: JSON, channel: Channel, from message: Message?) {
        guard case .object = payload else { return }
        var push: JSONObject = ["payload": payload]
        if let message, message.via != .socket {
            // No channel: through a gateway the vendor's request decides it.
            push["via"] = .string(message.via.rawValue)
            if let token = message.token { push["token"] = .string(token) }
            if message.via == .apns, !message.apnsHeaders.isEmpty { push["headers"] = .object(Message.headerObject(message.apnsHeaders)) }
        } else {
            push["channel"] = .string(channel.rawValue)
        }
        step(["push": .object(push)], app: app)
    }

    private mutating func step(_ action: JSONObject, app: String? = nil) {
        var step: JSONObject = ["at": .number(JSONNumber(text: Self.format(lastTime)))]
        if let app { step["app"] = .string(app) }
        step.members += action.members
        steps.append(step)
    }

    public mutating func expect(app: String?, _ ledgers: JSONObject) {
        step(["expect": .object(ledgers)], app: app)
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.3f", seconds)
    }

    /// The scenario file: one step a line, so a person can read and edit it.
    public func scenarioText(name: String) -> String {
        let lines = steps.map { "    " + JSON.object($0).compactText }
        return "{\n  \"name\": \(JSON.string(name).compactText),\n  \"steps\": [\n" + lines.joined(separator: ",\n")
            + "\n  ]\n}\n"
    }
}
