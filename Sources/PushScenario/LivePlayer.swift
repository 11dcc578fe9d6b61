import Foundation
import PushCore
import PushClient
import PushJSON

/// Plays a scenario into a running pushdeck over its socket, at the scenario's times divided by
/// `speed` (or at once with `instant`); a server on a manual clock has its clock moved to each
/// step's time instead, so timed expects hold at once. Expects read the server's `state` report (ledgers,
/// unread, held and dropped counts, the banner, a message's callback) through the socket; the
/// events (feedback, the last delivered message) come from a subscription.
public final class LivePlayer {
    let queries: SocketClient
    let events: EventStream
    public var speed: Double
    public var instant: Bool
    /// Called with each step's `say` as it plays (the demo's narration).
    public var narrate: ((Step, String) -> Void)?
    /// What the last push step came to.
    private var lastPush: PushVerdict?
    private var feedback: [Int] = []
    /// The ids the server gave this play's messages, in order: a scenario's id N is `created[N-1]`.
    private var created: [Int64] = []
    /// The message of the last delivery event: what an expect's `callback` is about.
    private var lastDelivered: Int64?
    /// The server's manual clock, when it runs one: its reading when play began, and the
    /// scenario seconds played on it since.
    private var manualClock: (start: Double, played: Double)?

    public init(socket: String, speed: Double = 1, instant: Bool = false) throws(ClientError) {
        queries = try SocketClient(path: socket)
        events = try EventStream(path: socket)
        self.speed = speed
        self.instant = instant
    }

    public func play(_ scenario: Scenario) throws(ClientError) -> PlayResult {
        var result = PlayResult(scenario: scenario)
        let started = Date()
        // On a server with a manual clock (`serve --clock manual`) the scenario's time is the
        // server's: each step moves it on to the step's time, as instant play moves its own.
        if case .clock(let elapsed?) = try queries.reply(to: .clock(advance: nil)) { manualClock = (start: elapsed, played: 0) }
        for step in scenario.steps {
            if manualClock != nil {
                try moveClock(by: step.time - (manualClock?.played ?? 0))
            } else if !instant {
                let wait = started.addingTimeInterval(step.time / speed).timeIntervalSinceNow
                if wait > 0 { usleep(useconds_t(min(wait, 3600) * 1_000_000)) }
            }
            if let say = step.say { narrate?(step, say) }
            if let outcome = try run(step) { result.expects.append(outcome) }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    func run(_ step: Step) throws(ClientError) -> ExpectOutcome? {
        switch step.action {
        case .push(let push) where push.via != .socket:
            lastPush = try gateway(push, app: step.app)
        case .push(let push):
            let reply = try queries.reply(to: .push(PushRequest(payloadText: push.payloadText, app: step.app, channel: push.channel)))
            lastPush = PushVerdict(reply)
            // A replacement keeps the id of the message it replaced: no new message was created.
            if let fate = reply.pushReply?.fate, let id = fate.id, fate != .replaced(id: id) { created.append(id) }
        case .state(let state): _ = try queries.request(.app(state))
        case .mode(let mode): _ = try queries.request(.mode(mode))
        case .read(.all):
            _ = try queries.request(.read(.all(app: step.app)))
        case .read(let what):
            if let id = try liveId(what, app: step.app) { _ = try queries.request(.read(.ids([id]))) }
        case .delete(let what):
            if let id = try liveId(what, app: step.app) { _ = try queries.request(.delete([id])) }
        case .reset:
            _ = try queries.request(.reset(app: step.app, all: false))
        case .fault(let spec):
            // Arms the running gateway's fault, as `pushdeck fault add` does.
            _ = try queries.request(.fault(.add(spec)))
        case .activity(.dismiss(let id)):
            // The running pushdeck's newest activity of the app, by the rule instant play uses.
            var target = id
            if target == nil { target = try activities(app: step.app).max(by: { $0.number < $1.number })?.id }
            if let target { _ = try queries.request(.activity(.dismiss(id: target))) }
        case .badge(let change, let sync): _ = try queries.request(.badge(app: step.app, change: change, sync: sync))
        case .badgePolicy(let policy): _ = try queries.request(.badgePolicy(app: step.app, policy))
        case .sdkBadge(let call): _ = try queries.request(.sdkBadge(app: step.app, call))
        case .mute(let seconds): _ = try queries.request(.mute(app: step.app ?? Inbox.defaultApp, seconds: seconds))
        case .unmute: _ = try queries.request(.unmute(app: step.app ?? Inbox.defaultApp))
        case .wait(let seconds):
            if manualClock != nil {
                try moveClock(by: seconds)
            } else if !instant {
                usleep(useconds_t(min(seconds / speed, 3600) * 1_000_000))
            }
        case .expect(let expectation):
            try drainEvents()
            // The server's own report, by the rule instant play reads from its inbox.
            let state = try queries.reply(to: .state(app: step.app, message: lastDelivered))
            guard case .state(let report) = state else {
                throw .connection("state was refused: \(state.errorMessage ?? JSON.object(state.wireObject).compactText)")
            }
            var seen = Observed(report)
            if let verdict = lastPush {
                // The same reading of the typed reply as instant play's.
                seen.delivered = .some(verdict.delivered)
                seen.reason = .some(verdict.reason)
            }
            seen.feedback = feedback
            if !expectation.requestConditions.isEmpty {
                let log = try queries.reply(to: .requests(RequestLogQuery()))
                guard case .requests(let records) = log else {
                    throw .connection("requests was refused: \(log.errorMessage ?? JSON.object(log.wireObject).compactText)")
                }
                seen.requestLog = records
            }
            if expectation.checksActivity { seen.activities = try activities(app: step.app) }
            feedback = []
            return ExpectOutcome(step: step, mismatches: expectation.mismatches(seen))
        case .none:
            break
        }
        return nil
    }

    /// Moves the server's manual clock on by `seconds` (nothing for none or fewer).
    private func moveClock(by seconds: Double) throws(ClientError) {
        guard seconds > 0, let clock = manualClock else { return }
        let reply = try queries.reply(to: .clock(advance: seconds))
        guard case .clock(let elapsed?) = reply else {
            throw .connection("clock was refused: \(reply.errorMessage ?? JSON.object(reply.wireObject).compactText)")
        }
        manualClock = (clock.start, elapsed - clock.start)
    }

    /// The running pushdeck's Live Activities of `app` (every app's without one), each in the
    /// state its reply's time gives.
    private func activities(app: String?) throws(ClientError) -> [ObservedActivity] {
        let reply = try queries.reply(to: .activity(.list(app: app)))
        guard case .activities(let activities, _, let at) = reply else {
            throw .connection("activity list was refused: \(reply.errorMessage ?? JSON.object(reply.wireObject).compactText)")
        }
        return activities.map { ObservedActivity($0, at: at) }
    }

    /// The server's id of the message a step means.
    private func liveId(_ what: ReadWhat, app: String?) throws(ClientError) -> Int64? {
        switch what {
        case .all: return nil
        case .id(let id): return id >= 1 && id <= created.count ? created[Int(id) - 1] : id
        case .last:
            // The newest listed message of the app (of all apps without one), as the server
            // lists it now: a deleted one is not it.
            guard case .messages(let page) = try queries.reply(to: .list(ListQuery(limit: 1, app: app))) else { return nil }
            return page.first?.id
        }
    }

    /// Takes in every event published so far: feedback codes, and the last delivered message.
    @discardableResult
    private func drainEvents() throws(ClientError) -> [BusEvent] {
        let drained = try events.drain()
        for event in drained {
            switch event.body {
            case .feedback(let notice)?: feedback.append(notice.action)
            case .received(let message)?: lastDelivered = message.id
            default: break
            }
        }
        return drained
    }

    /// A push step through the running gateway (`LiveGateway`). A refusal is the vendor's
    /// reason, read as instant play reads it (`InstantPlayer.refusal`). An accepted request's
    /// fate is what the bus says became of the push: `push.undelivered` (published for the
    /// request's push, not its further messages, after the push's own events) says held, stored
    /// or dropped, with the reason its reply gives; without one it was delivered (`*.received`).
    /// The messages it made are the scenario's next ids, in the server's order of making them.
    private func gateway(_ push: ScenarioPush, app: String?) throws(ClientError) -> PushVerdict? {
        // What came before is not this push's.
        try drainEvents()
        let response = try LiveGateway(queries: queries).send(push, app: app, now: Date())
        var undelivered: UndeliveredNotice?
        var delivered = false
        var made: Set<Int64> = []
        for event in try drainEvents() {
            switch event.body {
            case .received(let message)?:
                delivered = true
                made.insert(message.id)
            case .undelivered(let notice)?:
                undelivered = notice
                if let id = notice.id { made.insert(id) }
            default:
                break
            }
        }
        created += made.subtracting(created).sorted()
        if let undelivered { return PushVerdict(delivered: false, reason: undelivered.reason ?? (undelivered.held ? "held" : nil)) }
        if delivered { return PushVerdict(delivered: true, reason: nil) }
        // Getui answers some refusals 200 with a code of its own: read as instant play reads them.
        let refused = InstantPlayer.refusal(response)
        return (200..<300).contains(response.status) && refused.reason?.hasPrefix("HTTP ") == true
            ? PushVerdict(delivered: false, reason: nil) : refused
    }
}
