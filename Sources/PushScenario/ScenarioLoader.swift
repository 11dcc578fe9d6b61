import Foundation
import PushCore
import PushGateway
import PushJSON

/// A scenario file that cannot be played: the file, the step (1-based) and the field's path,
/// and what is accepted. Found at load, before anything runs.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var step: Int?
    public var path: String
    public var message: String

    public var description: String {
        var text = file + ": "
        if let step { text += "step \(step): " }
        if !path.isEmpty { text += path + ": " }
        return text + message
    }
}

/// Reads scenario files strictly: an unknown key is an error, never ignored.
public enum ScenarioLoader {
    /// The step keys besides the action: when, which app, narration.
    static let stepKeys = ["at", "app", "say"]
    static let actions = ["push", "state", "mode", "read", "badge", "mute", "wait", "expect", "delete", "reset", "fault", "activity"]
    static let expectKeys = [
        "badge", "serverBadge", "unread", "held", "dropped", "banner", "delivered", "reason", "feedback", "callback",
        "requests", "retried", "stopped", "activity",
    ]

    /// Loads the file at `path`. `file` names it in messages (defaults to the path).
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(file: path, step: nil, path: "", message: "cannot read the file (no such file or not readable)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        return try parse(Array(data), file: path, folder: folder)
    }

    /// Parses scenario text. `folder` resolves a push's `file`.
    public static func parse(_ bytes: [UInt8], file: String, folder: String = ".") throws(ScenarioError)
        -> Scenario
    {
        // Read in place: a push's payload keeps its bytes and its parse (the decoder uses it);
        // the rest becomes small trees, one step at a time.
        let tape: JSONTape
        do {
            tape = try JSONTape.parse(bytes)
        } catch {
            throw ScenarioError(file: file, step: nil, path: "", message: error.wireMessage(subject: "the scenario", bytes: bytes))
        }
        var reader = Reader(file: file, folder: folder, bytes: bytes)
        return try reader.scenario(tape.root)
    }
}

/// Walks the document keeping the path and step for messages.
private struct Reader {
    let file: String
    let folder: String
    let bytes: [UInt8]
    var step: Int?

    func fail(_ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, step: step, path: path, message: message)
    }

    func object(_ value: JSON, _ path: String, accepted: [String]) throws(ScenarioError) -> JSONObject {
        guard case .object(let object) = value else { throw fail(path, "must be an object; got \(value.kindName)") }
        for key in object.keys where !accepted.contains(key) {
            throw fail(path.isEmpty ? key : "\(path).\(key)", "unknown field; accepted: \(accepted.joined(separator: ", "))")
        }
        return object
    }

    func int(_ value: JSON, _ path: String, min: Int = 0) throws(ScenarioError) -> Int {
        guard case .number(let number) = value, let int = number.int, int >= min, int <= Request.maxBadge else {
            throw fail(path, "must be a whole number ≥ \(min); got \(value.compactText)")
        }
        return int
    }

    func seconds(_ value: JSON, _ path: String) throws(ScenarioError) -> Double {
        guard case .number(let number) = value, number.double.isFinite, number.double >= 0, number.double <= 31_536_000 else {
            throw fail(path, "must be seconds, a number ≥ 0 (like 1.5); got \(value.compactText)")
        }
        return number.double
    }

    func string(_ value: JSON, _ path: String) throws(ScenarioError) -> String {
        guard case .string(let text) = value, !text.isEmpty else {
            throw fail(path, "must be a non-empty string; got \(value.compactText)")
        }
        return text
    }

    func choice<T: RawRepresentable & CaseIterable>(_ value: JSON, _ path: String, _ type: T.Type) throws(ScenarioError) -> T
    where T.RawValue == String {
        guard case .string(let text) = value, let choice = T(rawValue: text) else {
            let accepted = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(path, "must be one of \(accepted); got \(value.compactText)")
        }
        return choice
    }

    mutating func scenario(_ document: JSONView) throws(ScenarioError) -> Scenario {
        guard document.kind == .object else { throw fail("", "a scenario must be a JSON object; got \(document.kindName)") }
        // The top level without its steps as a tree (for the key check), the steps one by one.
        let stepsView = document["steps"]
        // The document with its steps cut out: its other members, without a tree of every step.
        let top: JSON
        if let range = stepsView?.sourceRange {
            let cut = Array(bytes[document.sourceRange.lowerBound..<range.lowerBound]) + Array("[]".utf8)
                + Array(bytes[range.upperBound..<document.sourceRange.upperBound])
            top = (try? JSON.parse(cut)) ?? document.json
        } else {
            top = document.json
        }
        let root = try object(top, "", accepted: ["name", "steps"])
        guard let nameValue = root["name"] else { throw fail("name", "is required: the scenario's name, a string") }
        let name = try string(nameValue, "name")
        guard let stepsView, stepsView.kind == .array else {
            throw fail("steps", "is required: an array of steps; got \(stepsView?.kindName ?? "nothing")")
        }
        let list = stepsView.elements
        var steps: [Step] = []
        steps.reserveCapacity(list.count)
        var time = 0.0
        for (index, view) in list.enumerated() {
            step = index + 1
            let parsed = try self.step(view.json, "steps[\(index)]", after: time, payload: view["push"]?["payload"])
            time = parsed.time + parsed.action.waitSeconds
            steps.append(parsed)
        }
        step = nil
        return Scenario(name: name, file: file, steps: steps)
    }

    func step(_ value: JSON, _ path: String, after previous: Double, payload: JSONView?) throws(ScenarioError) -> Step {
        let fields = try object(value, path, accepted: ScenarioLoader.stepKeys + ScenarioLoader.actions)
        var time = previous
        if let at = fields["at"] {
            switch at {
            case .string(let text) where text.hasPrefix("+"):
                guard let delta = Double(text.dropFirst()), delta.isFinite, delta >= 0 else {
                    throw fail("\(path).at", "must be seconds from the start or \"+S\" after the previous step; got \(at.compactText)")
                }
                time = previous + delta
            case .number:
                time = try seconds(at, "\(path).at")
                guard time >= previous else {
                    throw fail("\(path).at", "\(at.compactText) is before the previous step's time \(previous); steps run in order (use \"+S\" for after it)")
                }
            default:
                throw fail("\(path).at", "must be seconds from the start or \"+S\" after the previous step; got \(at.compactText)")
            }
        }
        let app = try fields["app"].map { value throws(ScenarioError) in try string(value, "\(path).app") }
        let say = try fields["say"].map { value throws(ScenarioError) in try string(value, "\(path).say") }
        let given = ScenarioLoader.actions.filter { fields[$0] != nil }
        guard given.count <= 1 else {
            throw fail(path, "has \(given.joined(separator: " and ")); a step takes one action")
        }
        guard let actionName = given.first, let actionValue = fields[actionName] else {
            guard say != nil else {
                throw fail(path, "needs one action: \(ScenarioLoader.actions.joined(separator: ", "))")
            }
            return Step(number: step ?? 0, time: time, app: app, say: say, action: .none)
        }
        let actionPath = "\(path).\(actionName)"
        let action: Action
        switch actionName {
        case "push": action = .push(try push(actionValue, actionPath, payload: payload))
        case "state": action = .state(try choice(actionValue, actionPath, AppState.self))
        case "mode": action = .mode(try choice(actionValue, actionPath, PushMode.self))
        case "read", "delete":
            let what: ReadWhat
            switch actionValue {
            case .string("all") where actionName == "read": what = .all
            case .string("last"): what = .last
            case .number: what = .id(Int64(try int(actionValue, actionPath, min: 1)))
            default:
                let accepted = actionName == "read" ? "\"all\", \"last\" or a message id" : "\"last\" or a message id"
                throw fail(actionPath, "must be \(accepted); got \(actionValue.compactText)")
            }
            action = actionName == "read" ? .read(what) : .delete(what)
        case "fault":
            guard case .object(let fields) = actionValue else { throw fail(actionPath, "must be an object of fault fields; got \(actionValue.compactText)") }
            do {
                // Checked as `pushdeck fault add` checks it, against the gateway's reasons and paths.
                action = .fault(try FaultSpec(fields: fields, vocabulary: ProviderRoutes.faultVocabulary))
            } catch {
                throw fail(actionPath, error.message)
            }
        case "activity":
            let gesture = try object(actionValue, actionPath, accepted: ["dismiss"])
            guard let target = gesture["dismiss"] else {
                throw fail(actionPath, "needs \"dismiss\": an activity id (activity-N) or \"last\" (the step's app's newest)")
            }
            let id = try string(target, "\(actionPath).dismiss")
            action = .activity(.dismiss(id: id == "last" ? nil : id))
        case "reset":
            guard actionValue == .bool(true) else { throw fail(actionPath, "must be true; got \(actionValue.compactText)") }
            action = .reset
        case "badge":
            let badge = try object(actionValue, actionPath, accepted: ["set", "clear", "sync", "policy", "sdk", "call", "value"])
            if let policy = badge["policy"] {
                guard badge.keys.count == 1 else { throw fail(actionPath, "\"policy\" goes alone (one change a step)") }
                action = .badgePolicy(try choice(policy, "\(actionPath).policy", BadgePolicy.self))
                break
            }
            if let sdk = badge["sdk"] {
                guard Set(badge.keys).isSubset(of: ["sdk", "call", "value"]) else {
                    throw fail(actionPath, "\"sdk\" goes with \"call\" and \"value\" only (one change a step)")
                }
                let chosen = try choice(sdk, "\(actionPath).sdk", SDKBadgeCall.SDK.self)
                let call = try badge["call"].map { value throws(ScenarioError) in try string(value, "\(actionPath).call") }
                guard let call else { throw fail(actionPath, "\"sdk\" needs \"call\": the SDK's badge call, like setBadge") }
                let value = try badge["value"].map { value throws(ScenarioError) in try int(value, "\(actionPath).value") }
                do {
                    action = .sdkBadge(try SDKBadgeCall(sdk: chosen, call: call, value: value))
                } catch {
                    throw fail("\(actionPath).call", error.message)
                }
                break
            }
            if badge["call"] != nil || badge["value"] != nil {
                throw fail(actionPath, "\"call\" and \"value\" go with \"sdk\"")
            }
            let set = try badge["set"].map { value throws(ScenarioError) in try int(value, "\(actionPath).set") }
            var clear = false
            if let value = badge["clear"] {
                guard value == .bool(true) else { throw fail("\(actionPath).clear", "must be true; got \(value.compactText)") }
                clear = true
            }
            if set != nil && clear { throw fail(actionPath, "give either \"set\" or \"clear\", not both") }
            var sync: Bool?
            if let value = badge["sync"] {
                guard case .bool(let bool) = value else { throw fail("\(actionPath).sync", "must be true or false; got \(value.compactText)") }
                sync = bool
            }
            guard set != nil || clear || sync != nil else {
                throw fail(actionPath, "needs \"set\", \"clear\", \"sync\", \"policy\" or \"sdk\"")
            }
            action = .badge(change: set.map(BadgeChange.set) ?? (clear ? .clear : nil), sync: sync)
        case "mute":
            switch actionValue {
            case .bool(true): action = .mute(seconds: nil)
            case .bool(false): action = .unmute
            case .number:
                action = .mute(seconds: try int(actionValue, actionPath, min: 1))
            default:
                throw fail(actionPath, "must be true (until unmuted), whole seconds from 1, or false (unmute); got \(actionValue.compactText)")
            }
        case "wait": action = .wait(try seconds(actionValue, actionPath))
        default: action = .expect(try expectation(actionValue, actionPath))
        }
        return Step(number: step ?? 0, time: time, app: app, say: say, action: action)
    }

    func push(_ value: JSON, _ path: String, payload view: JSONView?) throws(ScenarioError) -> ScenarioPush {
        let fields = try object(value, path, accepted: ["payload", "file", "channel", "via", "token", "headers"])
        let via = try gatewayVia(fields["via"], "\(path).via")
        var token: String?
        var headers: [HTTPHeader] = []
        if via == .socket {
            for key in ["token", "headers"] where fields[key] != nil {
                throw fail("\(path).\(key)", "goes with \"via\": \"apns\", \"jpush\", \"getui\" or \"fcm\" (a socket push has no \(key))")
            }
        } else {
            if fields["channel"] != nil {
                throw fail("\(path).channel", "goes with a socket push only; through the gateway the vendor's request says")
            }
            token = try fields["token"].map { value throws(ScenarioError) in try string(value, "\(path).token") }
            if via == .apns && token == nil {
                throw fail(path, "\"via\": \"apns\" needs \"token\": the device token (hex) the request is sent to")
            }
            if let value = fields["headers"] {
                guard case .object(let members) = value else {
                    throw fail("\(path).headers", "must be an object of header names to strings; got \(value.kindName)")
                }
                for (name, header) in members.members {
                    guard case .string(let text) = header else {
                        throw fail("\(path).headers.\(name)", "must be a string; got \(header.compactText)")
                    }
                    headers.append(HTTPHeader(name.lowercased(), text))
                }
            }
        }
        let channel = try fields["channel"].map { value throws(ScenarioError) in
            let channel = try choice(value, "\(path).channel", Channel.self)
            // An Android notification comes only from an FCM message, not a named channel.
            guard Channel.requestable.contains(channel) else {
                throw fail("\(path).channel", "must be one of \(Channel.requestable.map(\.rawValue).joined(separator: ", ")); got \(value.compactText)")
            }
            return channel
        }
        let text: String
        switch (fields["payload"], fields["file"]) {
        case (let payload?, nil):
            guard case .object = payload else {
                throw fail("\(path).payload", "must be a JSON object (the push payload); got \(payload.kindName)")
            }
            if let view {
                // The payload's own bytes, as a socket push keeps them.
                text = view.sourceText
            } else {
                text = payload.compactText
            }
        case (nil, let file?):
            let name = try string(file, "\(path).file")
            let full = name.hasPrefix("/") ? name : (folder as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: full) else {
                throw fail("\(path).file", "cannot read \(full) (a payload file, relative to the scenario's folder)")
            }
            guard case .object? = try? JSON.parse(Array(data)) else {
                throw fail("\(path).file", "\(full) is not a JSON object (a push payload)")
            }
            text = String(decoding: data, as: UTF8.self)
        case (nil, nil): throw fail(path, "needs \"payload\" (an object) or \"file\" (a payload file)")
        default: throw fail(path, "give \"payload\" or \"file\", not both")
        }
        return ScenarioPush(payloadText: text, channel: channel, via: via, token: token, headers: headers)
    }

    /// A push step's `via`: socket (the default), apns, jpush or fcm (the payload is the v1
    /// `message` object; the step's `token`, when given, is its target).
    func gatewayVia(_ value: JSON?, _ path: String) throws(ScenarioError) -> Via {
        guard let value else { return .socket }
        switch value {
        case .string("socket"): return .socket
        case .string("apns"): return .apns
        case .string("jpush"): return .jpush
        case .string("fcm"): return .fcm
        case .string("getui"): return .getui
        default: throw fail(path, "must be one of socket, apns, jpush, getui, fcm; got \(value.compactText)")
        }
    }

    /// The request-log verdicts of an expect, as `expect --requests/--retried/--stopped` takes
    /// them: `"requests": N` or `{"count":N,"vendor":V,"status":S}`, `"retried": true` or
    /// `{"afterStatus":S,"minWait":S}`, `"stopped": "TOKEN"`.
    func requestConditions(_ fields: JSONObject, _ path: String) throws(ScenarioError) -> [RequestCondition] {
        var conditions: [RequestCondition] = []
        if let value = fields["requests"] {
            let at = "\(path).requests"
            if case .number = value {
                conditions.append(.requests(count: try int(value, at, min: 1), vendor: nil, status: nil))
            } else {
                let request = try object(value, at, accepted: ["count", "vendor", "status"])
                guard let count = request["count"] else { throw fail(at, "needs count, the number of requests (like {\"count\":2})") }
                let vendor = try request["vendor"].map { value throws(ScenarioError) -> Via in
                    guard case .string(let text) = value, let vendor = Via(rawValue: text), Via.providers.contains(vendor) else {
                        throw fail("\(at).vendor", "must be one of \(Via.providers.map(\.rawValue).joined(separator: ", ")); got \(value.compactText)")
                    }
                    return vendor
                }
                conditions.append(.requests(
                    count: try int(count, "\(at).count", min: 1), vendor: vendor,
                    status: try request["status"].map { value throws(ScenarioError) in try status(value, "\(at).status") }))
            }
        }
        if let value = fields["retried"] {
            let at = "\(path).retried"
            if value == .bool(true) {
                conditions.append(.retried(afterStatus: nil, minWait: 0))
            } else {
                guard case .object = value else { throw fail(at, "must be true or an object like {\"afterStatus\":503,\"minWait\":1}; got \(value.compactText)") }
                let retried = try object(value, at, accepted: ["afterStatus", "minWait"])
                conditions.append(.retried(
                    afterStatus: try retried["afterStatus"].map { value throws(ScenarioError) in try status(value, "\(at).afterStatus") },
                    minWait: try retried["minWait"].map { value throws(ScenarioError) in try seconds(value, "\(at).minWait") } ?? 0))
            }
        }
        if let value = fields["stopped"] { conditions.append(.stopped(token: try string(value, "\(path).stopped"))) }
        return conditions
    }

    /// `{"id":"activity-N","state":S,"contentState":{…},"discarded":N}`: at least one field.
    func activityExpectation(_ value: JSON, _ path: String) throws(ScenarioError) -> ActivityExpectation {
        let fields = try object(value, path, accepted: ["id", "state", "contentState", "discarded"])
        guard !fields.keys.isEmpty else { throw fail(path, "checks nothing; give id, state, contentState or discarded") }
        var expect = ActivityExpectation()
        expect.id = try fields["id"].map { value throws(ScenarioError) in try string(value, "\(path).id") }
        expect.state = try fields["state"].map { value throws(ScenarioError) in try choice(value, "\(path).state", ActivityState.self) }
        if let content = fields["contentState"] {
            // ActivityKit decodes a content-state into the app's ContentState: an object.
            guard case .object = content else { throw fail("\(path).contentState", "must be an object (the whole content-state); got \(content.kindName)") }
            expect.contentState = content
        }
        expect.discarded = try fields["discarded"].map { value throws(ScenarioError) in try int(value, "\(path).discarded") }
        return expect
    }

    /// An HTTP status, 100–599 (RFC 9110 §15).
    func status(_ value: JSON, _ path: String) throws(ScenarioError) -> Int {
        guard case .number(let number) = value, let status = number.int, (100...599).contains(status) else {
            throw fail(path, "must be an HTTP status from 100 to 599; got \(value.compactText)")
        }
        return status
    }

    func expectation(_ value: JSON, _ path: String) throws(ScenarioError) -> Expectation {
        let fields = try object(value, path, accepted: ScenarioLoader.expectKeys)
        var expect = Expectation()
        func number(_ key: String) throws(ScenarioError) -> Int? {
            try fields[key].map { value throws(ScenarioError) in try int(value, "\(path).\(key)") }
        }
        func textOrNull(_ key: String) throws(ScenarioError) -> String?? {
            guard let value = fields[key] else { return nil }
            if value == .null { return .some(nil) }
            guard case .string(let text) = value else { throw fail("\(path).\(key)", "must be a string or null; got \(value.compactText)") }
            return .some(text)
        }
        expect.badge = try number("badge")
        expect.serverBadge = try number("serverBadge")
        expect.unread = try number("unread")
        expect.held = try number("held")
        expect.dropped = try number("dropped")
        expect.banner = try textOrNull("banner")
        expect.reason = try textOrNull("reason")
        if let value = fields["delivered"] {
            guard case .bool(let bool) = value else { throw fail("\(path).delivered", "must be true or false; got \(value.compactText)") }
            expect.delivered = bool
        }
        if let value = fields["feedback"] {
            guard case .array(let list) = value else {
                throw fail("\(path).feedback", "must be an array of action ids (like [90001]); got \(value.kindName)")
            }
            var ids: [Int] = []
            for (index, element) in list.enumerated() { ids.append(try int(element, "\(path).feedback[\(index)]")) }
            expect.feedback = ids
        }
        if let value = fields["callback"] { expect.callback = try string(value, "\(path).callback") }
        expect.requestConditions = try requestConditions(fields, path)
        if let value = fields["activity"] { expect.activity = try activityExpectation(value, "\(path).activity") }
        guard fields.keys.count > 0 else { throw fail(path, "checks nothing; give one of \(ScenarioLoader.expectKeys.joined(separator: ", "))") }
        return expect
    }
}
