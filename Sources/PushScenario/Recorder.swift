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

    public mutating func note(_ event: JSONObject, at nanoseconds: UInt64) {
        let time = (Double(nanoseconds &- started) / 1e9 * 1000).rounded() / 1000
        lastTime = max(lastTime, time)
        let app = event["app"]?.stringValue
        switch event["topic"]?.stringValue {
        case Topic.remoteReceived.rawValue?, Topic.messageReceived.rawValue?:
            guard let message = event["message"]?.objectValue, let app = message["app"]?.stringValue else { return }
            apps.insert(app)
            if message["offline"] == .bool(true), let waiting = held[app], waiting > 0 {
                held[app] = waiting - 1
                return
            }
            created += 1
            if let id = message["id"]?.intValue { ids[Int64(id)] = created }
            push(app: app, payload: message["payload"], channel: message["channel"], source: message)
        case Topic.pushUndelivered.rawValue?:
            guard let app else { return }
            apps.insert(app)
            if event["held"] == .bool(true) {
                held[app, default: 0] += 1
                created += 1
                if let id = event["id"]?.intValue { ids[Int64(id)] = created }
            }
            push(app: app, payload: event["payload"], channel: event["channel"], source: event)
        case Topic.appChanged.rawValue?:
            if let state = event["state"] { step(["state": state]) }
        case Topic.modeChanged.rawValue?:
            if let mode = event["mode"] { step(["mode": mode]) }
        case Topic.messageRead.rawValue?:
            if event["all"] == .bool(true) {
                step(["read": "all"], app: app)
            } else {
                for id in mapped(event["ids"]) { step(["read": .number(JSONNumber(id))]) }
            }
        case Topic.messageDeleted.rawValue?:
            for id in mapped(event["ids"]) { step(["delete": .number(JSONNumber(id))]) }
        case Topic.badgeRequest.rawValue?:
            var badge = JSONObject()
            for key in ["set", "clear", "sync"] { if let value = event[key], value != .null { badge[key] = value } }
            if !badge.isEmpty { step(["badge": .object(badge)], app: app) }
        case Topic.reset.rawValue?:
            step(["reset": true], app: app)
        case Topic.badgeChanged.rawValue?:
            if let app { apps.insert(app) }
        default:
            break
        }
    }

    /// The scenario's ids of server ids; ids of messages from before the recording are left out.
    private func mapped(_ list: JSON?) -> [Int64] {
        (list?.arrayValue ?? []).compactMap { $0.intValue.flatMap { ids[Int64($0)] } }
    }

    /// A push step. Its source goes with it: a push through a gateway keeps its `via`, its
    /// `token` and (APNs) its `apns-*` headers, so instant play sends it through the same routes
    /// again; JPush's body is the payload (its audience says who). Getui's `via` is kept, and
    /// play refuses it as not supported yet (Getui needs its auth exchange).
    private mutating func push(app: String, payload: JSON?, channel: JSON?, source: JSONObject) {
        guard let payload, case .object = payload else { return }
        var push: JSONObject = ["payload": payload]
        if let via = source["via"], via != .null, via != "socket" {
            // No channel: through a gateway the vendor's request decides it.
            push["via"] = via
            if let token = source["token"], token != .null { push["token"] = token }
            if via == "apns", let headers = source["apnsHeaders"], case .object = headers { push["headers"] = headers }
        } else if let channel, channel != .null {
            push["channel"] = channel
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
