import Foundation
import PushJSON

/// The rules of handling one request, the same for every host: the server (its socket, the
/// gateway's routes and the UI's keys) over SQLite on the real clock, and the instant scenario
/// player over memory on a manual one. A request becomes events for the pure reducer, after the
/// lookups it needs from the store; what comes back is the effects for the host to carry out,
/// in order, and the typed reply. The host keeps only its I/O.
public enum Engine {
    /// What handling a request came to.
    public struct Handled: Sendable {
        /// Store writes and bus events, in order.
        public var effects: [Effect] = []
        public var reply: Reply = .ok
    }

    /// Handles `request`. `now` is the reducer's clock, `wallNow` the time messages are stamped
    /// with and mutes end by. With `announce`, the events only a subscriber reads are built too:
    /// a held or dropped push with its payload (`push.undelivered`, what `record` needs) and the
    /// badge request as asked (`badge.request`); a host with no subscriber skips that work. A
    /// refused request (an unknown id, a payload the decoder refuses) changes
    /// nothing: its reply is the error and it has no effects.
    public static func handle(
        _ request: Request, inbox: inout Inbox, store: some InboxReading, now: Instant, wallNow: Date,
        announce: Bool = false, bus: BusLink = .none
    ) -> Handled {
        var handled = Handled()
        func apply(_ event: Event) {
            var effects = reduce(into: &inbox, event, now: now)
            // The reducer hands out its one reply, if any, last.
            if case .reply(let reply) = effects.last {
                handled.reply = reply
                effects.removeLast()
            }
            // Most requests are one event: its array is taken as it is, not copied effect by effect.
            if handled.effects.isEmpty { handled.effects = effects } else { handled.effects += effects }
        }
        do {
            switch request {
            case .push(let pushRequest) where pushRequest.pushType == Self.liveActivityPushType && pushRequest.broadcastChannel != nil:
                apply(.broadcast(try Self.broadcastPush(pushRequest), at: wallNow))
            case .push(let pushRequest) where pushRequest.pushType == Self.liveActivityPushType:
                apply(.activityPush(try Self.activityPush(pushRequest), at: wallNow))
            case .push(let pushRequest):
                if let forwarded = try forward(pushRequest, inbox: inbox, wallNow: wallNow, bus: bus) { return forwarded }
                if let origin = pushRequest.bus,
                   inbox.busPushIds.contains(app: origin.sender, requestId: origin.id, now: wallNow)
                {
                    // A push by the bus is published again until its receipt arrives: taken once.
                    let app = pushRequest.app ?? pushRequest.token.flatMap { inbox.devices[$0]?.app } ?? Inbox.defaultApp
                    return Handled(reply: .push(PushReply(.dropped(.repeated), badge: inbox.badge(of: app).icon)))
                }
                // Decoded once: by the route that checked it, else here.
                var push = try pushRequest.decoded ?? decode(pushRequest, inbox: inbox)
                // A push with the collapse id of a delivered message of its app replaces it in
                // place (APNs' apns-collapse-id; JPush's apns_collapse_id).
                if let collapseId = push.collapseId, push.channel.collapses {
                    push.replacing = try store.replaceable(app: push.app, collapseId: collapseId)
                }
                apply(.push(push, at: wallNow))
                if let origin = pushRequest.bus, handled.reply.isOK {
                    // The id is written with the message, in the same transaction: a crash
                    // before the commit loses both (the sender publishes again), after it
                    // keeps both (the repeat is dropped).
                    inbox.busPushIds.record(app: origin.sender, requestId: origin.id, at: wallNow)
                    handled.effects.append(.store(.busPushSeen(sender: origin.sender, id: origin.id, at: wallNow)))
                }
                if announce, let fate = handled.reply.pushReply?.fate, !fate.isDelivered {
                    handled.effects.append(.publish(undelivered(push, fate)))
                }
            case .read(.ids(let ids)):
                apply(.read(try lookUp(ids, in: store)))
            case .read(.all(let app)):
                apply(.readAll(app: app))
            case .delete(let ids):
                apply(.delete(try lookUp(ids, in: store)))
            case .badge(let app, let change, let sync):
                if announce { handled.effects.append(.publish(BusEvent.badgeRequest(app: app, change: change, sync: sync))) }
                apply(.badge(app: app, change: change, sync: sync))
            case .badgePolicy(let app, let policy):
                let target = app ?? Inbox.defaultApp
                guard let policy else { return Handled(reply: .policy(inbox.ledgers(of: target), inbox.badgePolicy(of: target))) }
                apply(.setBadgePolicy(app: target, policy))
            case .sdkBadge(let app, let call):
                apply(.sdkBadge(app: app ?? Inbox.defaultApp, call))
            case .mute(let app, let seconds):
                // Time is an input: the wall time a mute ends is decided here, not in the reducer.
                apply(.mute(app: app, until: seconds.map { wallNow.addingTimeInterval(Double($0)) }))
            case .unmute(let app):
                apply(.unmute(app: app))
            case .quiet(let quiet):
                guard let quiet else { return Handled(reply: .quiet(inbox.settings.quiet)) }
                apply(.setQuiet(quiet))
            case .mode(let mode):
                guard let mode else { return Handled(reply: .mode(inbox.mode)) }
                // Held messages past their time to live expire before anything could deliver them.
                apply(.expireHeld(at: wallNow))
                apply(.setMode(mode))
            case .app(let state):
                guard let state else { return Handled(reply: .appState(inbox.appState)) }
                apply(.expireHeld(at: wallNow))
                apply(.setAppState(state))
            case .device(let command):
                // Stored messages past their expiry go before a device coming online could get them.
                if case .setOffline = command { apply(.expireHeld(at: wallNow)) }
                apply(.device(command, at: wallNow))
            case .key(let command):
                apply(.key(command))
            case .reset(let app, let all):
                apply(.reset(app: app, all: all))
            case .channel(let command):
                apply(.channel(command, at: wallNow))
            case .activity(.list(let app)):
                let listed = inbox.activities.all.filter { app == nil || $0.app == app }
                let unmatched = inbox.activities.unmatched.filter { app == nil || $0.app == app }
                handled.reply = .activities(listed, unmatched: unmatched, at: wallNow)
            case .activity(.dismiss(let id)):
                apply(.dismissActivity(id: id, at: wallNow))
            case .state(let app, let id):
                let message = try id.flatMap { try store.messages(ids: [$0], includeHeld: false).first }
                handled.reply = .state(inbox.report(app: app, at: now, message: message))
            case .list(let query):
                handled.reply = .messages(try store.page(query))
            case .fault(.add(let spec)):
                // Checked again here against the gateway's reasons and paths (the host's vocabulary).
                try spec.check(against: inbox.faults.vocabulary)
                handled.reply = .fault(inbox.faults.add(spec, now: wallNow))
            case .fault(.list):
                handled.reply = .faults(inbox.faults.list(now: wallNow))
            case .fault(.clear(let id)):
                let cleared = inbox.faults.clear(id: id)
                if let id, cleared == 0 { throw WireError("no armed fault has id \(id) ('pushdeck fault list' lists them)") }
                handled.reply = .faultsCleared(cleared)
            case .requests(let query):
                handled.reply = .requests(inbox.requestLog.select(query))
            case .ping:
                handled.reply = .version(Version.current)
            case .subscribe:
                handled.reply = .error("subscribe needs a socket connection")
            case .gateway, .credentials:
                handled.reply = .error("no gateway runs here")
            case .bus:
                handled.reply = .error("this pushdeck is on no team bus; start it with --mqtt mqtt://HOST:PORT")
            case .clock:
                // Time is the host's input, never the engine's to move.
                handled.reply = .error("the clock is the server's; no server runs here")
            }
        } catch let error as WireError {
            return Handled(reply: .error(error.message))
        } catch {
            return Handled(reply: .error("\(error)"))
        }
        return handled
    }

    /// Decodes a push's payload before the push is handled, where nothing the inbox holds can
    /// change how: no device token (whose device could name its app), not a Live Activity, not
    /// from the bus. A host does it while it would wait otherwise (the server, while a turn
    /// commits); `handle` then takes `decoded` as it takes a gateway route's. A payload the
    /// decoder refuses is left as it is, to be refused when it is handled.
    public static func decodeAhead(_ request: inout Request, decoder: PushDecoder) {
        guard case .push(var push) = request, push.decoded == nil, push.token == nil, push.bus == nil,
              push.pushType != liveActivityPushType, let decoded = try? decoder.decode(push)
        else { return }
        push.decoded = decoded
        request = .push(push)
    }

    /// A push request not decoded by its route. A token belongs to one app, its device's: a
    /// push naming a registered token and no app (the socket's `send --token`, one by the team
    /// bus from it) is that app's.
    static func decode(_ request: PushRequest, inbox: Inbox) throws(WireError) -> Push {
        guard request.app == nil, let token = request.token, let device = inbox.devices[token] else {
            return try inbox.decoder.decode(request)
        }
        var named = request
        named.app = device.app
        return try inbox.decoder.decode(named)
    }

    /// Logs one answered provider request (its `seq` from `inbox.requestLog.arrive()`, or 0 for
    /// the next): the `request` bus event, with the record as logged, for the host to publish —
    /// unless `announce` is false, as for `handle`: a host with no subscriber skips the event
    /// (its array and its box were two allocations a gateway request). The record is taken, not
    /// copied (a copy retains each of its strings).
    public static func logProviderRequest(_ record: consuming ProviderRequestRecord, inbox: inout Inbox, announce: Bool = true) -> [Effect] {
        let logged = inbox.requestLog.append(record)
        return announce ? [.publish(.request(logged))] : []
    }

    /// A push to a token no device here has, with a team bus: it is its owner's, on another
    /// instance. Checked as the owner would decode it (a payload refused here is refused now),
    /// then committed to the outbox and published after the commit; with the bus down the
    /// vendor's "unavailable" answer at once, nothing kept. Nil: the push is this inbox's.
    static func forward(_ request: PushRequest, inbox: Inbox, wallNow: Date, bus: BusLink) throws -> Handled? {
        // Without a team bus nothing is another instance's: the token is not even looked up.
        guard bus != .none, request.bus == nil, request.fcm == nil, let token = request.token, inbox.devices[token] == nil else { return nil }
        switch bus {
        case .none:
            return nil
        case .disconnected(let state):
            return Handled(reply: .unavailable(
                "the team bus is not connected (\(state)): the push for \(token.prefix(200)), a device not registered here, was not taken"))
        case .connected:
            let push = try request.decoded ?? inbox.decoder.decode(request)
            let remote = RemotePush(request, token: token, timeToLive: push.timeToLive, now: wallNow)
            return Handled(effects: [.store(.outboxAdd(remote)), .forward(remote)], reply: .forwarded(id: remote.id, topic: remote.topic))
        }
    }

    /// `apns-push-type: liveactivity`.
    public static let liveActivityPushType = "liveactivity"

    /// A `liveactivity` push: it goes to a token (the gateway's `/3/device/{token}`) and its
    /// payload is a JSON object; the rest is the device's to judge.
    static func activityPush(_ request: PushRequest) throws -> ActivityPush {
        guard let token = request.token else {
            throw WireError("a liveactivity push goes to a Live Activity token: send it to the gateway's /3/device/{token}")
        }
        let root = try request.parsed?.json ?? JSON.parse(request.payloadText)
        guard let object = root.objectValue else {
            throw WireError("a liveactivity payload must be a JSON object; got \(root.kindName)")
        }
        return ActivityPush(app: request.app ?? Inbox.defaultApp, token: token, aps: object["aps"]?.objectValue)
    }

    /// A broadcast push: to its channel, its payload a JSON object (the device judges the rest).
    static func broadcastPush(_ request: PushRequest) throws -> BroadcastPush {
        guard let channel = request.broadcastChannel else { throw WireError("a broadcast push needs its channel") }
        let root = try request.parsed?.json ?? JSON.parse(request.payloadText)
        guard let object = root.objectValue else {
            throw WireError("a liveactivity payload must be a JSON object; got \(root.kindName)")
        }
        return BroadcastPush(
            app: request.app ?? Inbox.defaultApp, channel: channel,
            expiration: request.headers["apns-expiration"].flatMap { Int64($0) } ?? 0, aps: object["aps"]?.objectValue)
    }

    /// `push.undelivered`: a held or dropped push with its payload, so `record` sees every push.
    static func undelivered(_ push: Push, _ fate: PushFate) -> BusEvent {
        BusEvent(.pushUndelivered, [
            "id": fate.id.map { .number(JSONNumber($0)) } ?? .null, "app": .string(push.app),
            "channel": .string(push.channel.rawValue),
            "payload": (try? JSON.parse(push.payload)) ?? .string(push.payload),
            "held": .bool(fate.isHeld), "reason": .string(orNull: fate.reason),
        ])
    }

    /// The listed messages with these ids; an unknown id refuses the whole request.
    static func lookUp(_ ids: [Int64], in store: some InboxReading) throws -> [Message] {
        let found = try store.messages(ids: ids, includeHeld: false)
        if found.count < Set(ids).count {
            let known = Set(found.map(\.id))
            let missing = ids.filter { !known.contains($0) }.prefix(5).map(String.init).joined(separator: ", ")
            throw WireError("no message with id \(missing); nothing was changed")
        }
        return found
    }
}
