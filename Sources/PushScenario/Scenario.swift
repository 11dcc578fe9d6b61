import PushCore
import PushGateway
import PushJSON

/// A scenario: named steps on a timeline, each with one action.
public struct Scenario: Sendable, Equatable {
    public var name: String
    /// The file it came from, for messages and reports.
    public var file: String
    public var steps: [Step]

    public init(name: String, file: String, steps: [Step]) {
        self.name = name
        self.file = file
        self.steps = steps
    }

    /// How long the scenario runs, in seconds of its own clock.
    public var duration: Double { steps.last.map { $0.time + $0.action.waitSeconds } ?? 0 }
}

/// One step: when (seconds from the start, resolved at load), which app, and what.
public struct Step: Sendable, Equatable {
    /// 1-based, as messages show it.
    public var number: Int
    public var time: Double
    public var app: String?
    /// Narration (`say`), shown by live play (the demo).
    public var say: String?
    public var action: Action

    public init(number: Int, time: Double, app: String?, say: String? = nil, action: Action) {
        self.number = number
        self.time = time
        self.app = app
        self.say = say
        self.action = action
    }
}

public enum Action: Sendable, Equatable {
    case push(ScenarioPush)
    case state(AppState)
    case mode(PushMode)
    case read(ReadWhat)
    case badge(change: BadgeChange?, sync: Bool?)
    /// `{"policy":"platform"}`: who moves the icon badge from now on (the app's code, or only pushes).
    case badgePolicy(BadgePolicy)
    /// `{"sdk":"getui","call":"setBadge","value":3}`: an SDK's badge call, moving exactly its ledger.
    case sdkBadge(SDKBadgeCall)
    case wait(Double)
    case expect(Expectation)
    /// Delete a message (what `record` writes for a deletion).
    case delete(ReadWhat)
    /// `pushdeck reset` (of the step's app, or all).
    case reset
    /// Arm a fault of the gateway (`{"fault":{…}}`, the fields of `pushdeck fault add`).
    case fault(FaultSpec)
    /// The user's gesture on a Live Activity (`{"activity":{"dismiss":"activity-1"}}`).
    case activity(ActivityGesture)
    /// `{"mute":true}` (until unmuted) or `{"mute":S}` (S seconds): the step's app shows no
    /// banners, its pushes still listed and counted — `pushdeck mute`.
    case mute(seconds: Int?)
    /// `{"mute":false}`: the step's app's mute ends — `pushdeck unmute`.
    case unmute
    /// A step with only `say`.
    case none

    var waitSeconds: Double { if case .wait(let seconds) = self { seconds } else { 0 } }

    public var name: String {
        switch self {
        case .push: "push"
        case .state: "state"
        case .mode: "mode"
        case .read: "read"
        case .badge, .badgePolicy, .sdkBadge: "badge"
        case .wait: "wait"
        case .expect: "expect"
        case .delete: "delete"
        case .reset: "reset"
        case .fault: "fault"
        case .activity: "activity"
        case .mute, .unmute: "mute"
        case .none: "say"
        }
    }
}

/// A push step: the payload text as the scenario gives it, and the front door's options.
public struct ScenarioPush: Sendable, Equatable {
    public var payloadText: String
    public var channel: Channel?
    /// The front door: the socket, or as if through the APNs or JPush gateway.
    public var via: Via
    /// The APNs device token (the request path's `{token}`); JPush's body names its own audience.
    public var token: String?
    /// The gateway request's headers, in the scenario's order (names lower-cased).
    public var headers: [HTTPHeader]
    public init(payloadText: String, channel: Channel? = nil, via: Via = .socket,
                token: String? = nil, headers: [HTTPHeader] = []) {
        self.payloadText = payloadText
        self.channel = channel
        self.via = via
        self.token = token
        self.headers = headers
    }
}

/// What the user does to a Live Activity in an `activity` step.
public enum ActivityGesture: Sendable, Equatable {
    /// Swipes it off the Lock Screen: an id (`activity-N`), or nil for the step's app's newest.
    case dismiss(id: String?)
}

/// What an expect checks of one Live Activity (`{"activity":{…}}`): the one `id` names, else
/// the newest (the last started) of the step's app; nil fields are not checked.
public struct ActivityExpectation: Sendable, Equatable {
    public var id: String?
    public var state: ActivityState?
    /// The whole applied content-state.
    public var contentState: JSON?
    /// How many pushes its history shows discarded.
    public var discarded: Int?

    public init(id: String? = nil, state: ActivityState? = nil, contentState: JSON? = nil, discarded: Int? = nil) {
        self.id = id
        self.state = state
        self.contentState = contentState
        self.discarded = discarded
    }
}

/// One Live Activity as an expect sees it: its state on the player's clock.
public struct ObservedActivity: Sendable, Equatable {
    public var id: String
    public var app: String
    public var number: Int
    public var state: ActivityState
    public var contentState: JSON
    public var discarded: Int

    public init(_ activity: Activity, at date: Date) {
        id = activity.id
        app = activity.app
        number = activity.number
        state = activity.state(at: date)
        contentState = activity.contentState
        discarded = activity.discarded
    }
}

/// Which message a `read` or `delete` step means. An id is the scenario's own: the Nth message
/// the scenario's pushes created (what the inbox gives it when play starts from a clean one).
public enum ReadWhat: Sendable, Equatable {
    case all
    case id(Int64)
    /// The newest delivered message (of the step's app when given).
    case last
}

/// What an `expect` step checks; nil fields are not checked. `banner` and `reason` tell "not
/// checked" (nil) from "none" (`.some(nil)`).
public struct Expectation: Sendable, Equatable {
    public var badge: Int?
    public var serverBadge: Int?
    public var unread: Int?
    public var held: Int?
    public var dropped: Int?
    public var banner: String??
    public var delivered: Bool?
    public var reason: String??
    public var feedback: [Int]?
    public var callback: String?
    /// Verdicts about the backend, on the request log (`expect --requests/--retried/--stopped`).
    public var requestConditions: [RequestCondition] = []
    /// A Live Activity's state, content-state and discarded pushes.
    public var activity: ActivityExpectation?

    public init(
        badge: Int? = nil, serverBadge: Int? = nil, unread: Int? = nil, held: Int? = nil, dropped: Int? = nil,
        banner: String?? = nil, delivered: Bool? = nil, reason: String?? = nil, feedback: [Int]? = nil,
        callback: String? = nil
    ) {
        self.badge = badge
        self.serverBadge = serverBadge
        self.unread = unread
        self.held = held
        self.dropped = dropped
        self.banner = banner
        self.delivered = delivered
        self.reason = reason
        self.feedback = feedback
        self.callback = callback
    }
}

/// What a player saw when an `expect` ran: the same fields, each as observed (nil when the
/// player cannot observe it).
public struct Observed: Sendable, Equatable {
    public var badge: Int?
    public var serverBadge: Int?
    public var unread: Int?
    public var held: Int?
    public var dropped: Int?
    public var banner: String??
    public var delivered: Bool??
    public var reason: String??
    public var feedback: [Int]?
    public var callback: String??
    /// The request log since the reset, when an expect judges it.
    public var requestLog: [ProviderRequestRecord]?
    /// The Live Activities (of the step's app, when it has one), when an expect judges one.
    public var activities: [ObservedActivity]?

    public init() {}

    /// The inbox's report as an expect sees it (the push's fate and feedback are the player's).
    public init(_ report: InboxReport) {
        badge = report.badge.icon
        serverBadge = report.badge.server
        unread = report.unread
        held = report.held
        dropped = report.dropped
        banner = .some(report.banner)
        callback = .some(report.callback)
    }
}

extension ActivityExpectation {
    /// The fields that do not hold for the activity meant, among `activities`.
    func mismatches(_ activities: [ObservedActivity]) -> [Mismatch] {
        let found = id.map { id in activities.first { $0.id == id } } ?? activities.max { $0.number < $1.number }
        guard let found else {
            return [Mismatch(field: "activity", expected: id ?? "a Live Activity", got: "none")]
        }
        var out: [Mismatch] = []
        if let state, state != found.state {
            out.append(Mismatch(field: "activity.state", expected: state.rawValue, got: found.state.rawValue))
        }
        if let contentState, contentState != found.contentState {
            out.append(Mismatch(field: "activity.contentState", expected: contentState.compactText, got: found.contentState.compactText))
        }
        if let discarded, discarded != found.discarded {
            out.append(Mismatch(field: "activity.discarded", expected: String(discarded), got: String(found.discarded)))
        }
        return out
    }
}

/// One field of an expect that did not hold.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var expected: String
    public var got: String
    public var description: String { "\(field): expected \(expected), got \(got)" }
}

extension Expectation {
    /// The fields that do not hold against what was observed.
    public func mismatches(_ observed: Observed) -> [Mismatch] {
        var out: [Mismatch] = []
        func number(_ field: String, _ want: Int?, _ got: Int?) {
            guard let want, want != got else { return }
            out.append(Mismatch(field: field, expected: String(want), got: got.map(String.init) ?? "nothing"))
        }
        number("badge", badge, observed.badge)
        number("serverBadge", serverBadge, observed.serverBadge)
        number("unread", unread, observed.unread)
        number("held", held, observed.held)
        number("dropped", dropped, observed.dropped)
        if let banner, banner != (observed.banner ?? nil) {
            out.append(Mismatch(field: "banner", expected: Self.show(banner), got: Self.show(observed.banner ?? nil)))
        }
        if let delivered {
            let got = observed.delivered ?? nil
            if got != delivered {
                out.append(Mismatch(field: "delivered", expected: String(delivered), got: got.map(String.init) ?? "no push yet"))
            }
        }
        if let reason, reason != (observed.reason ?? nil) {
            out.append(Mismatch(field: "reason", expected: Self.show(reason), got: Self.show(observed.reason ?? nil)))
        }
        if let feedback, feedback != (observed.feedback ?? []) {
            out.append(Mismatch(field: "feedback", expected: Self.show(feedback), got: Self.show(observed.feedback ?? [])))
        }
        if let callback {
            let got = observed.callback ?? nil
            if !(got?.hasPrefix(callback) ?? false) {
                out.append(Mismatch(field: "callback", expected: Self.show(callback), got: Self.show(got)))
            }
        }
        if let activity { out += activity.mismatches(observed.activities ?? []) }
        for condition in requestConditions {
            // Judged as `expect` judges it at its timeout: the log as it stands at this step.
            let (ok, judged) = condition.judge(observed.requestLog ?? []).final
            guard !ok else { continue }
            let wanted = "wanted \(condition.summary); "
            let line = judged.hasPrefix(wanted) ? String(judged.dropFirst(wanted.count)) : judged
            let field = switch condition {
            case .requests: "requests"
            case .retried: "retried"
            case .stopped: "stopped"
            }
            out.append(Mismatch(field: field, expected: condition.summary, got: line))
        }
        return out
    }

    static func show(_ text: String?) -> String { text.map { JSON.string($0).compactText } ?? "null" }

    /// The expect checks a Live Activity: only then does a player gather the activities.
    public var checksActivity: Bool { activity != nil }
    static func show(_ list: [Int]) -> String { "[" + list.map(String.init).joined(separator: ",") + "]" }
}
