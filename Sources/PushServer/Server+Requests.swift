import Foundation
import PushCore
import PushJSON
import PushStore

// MARK: - Request handling: a decoded request becomes events for the reducer, or a query

extension Server {
    /// Handles a request the way a socket client's is handled, and returns its typed reply.
    /// For the UI and the gateway: a key is the same request a script would send.
    public func reply(to request: Request) -> Reply {
        handle(request, from: nil)
    }

    /// `reply(to:)` as the wire object the socket would send (`Reply.wireObject`).
    public func perform(_ request: Request) -> JSONObject {
        handle(request, from: nil).wireObject
    }

    func handle(_ request: Request, from client: Connection?) -> Reply {
        do {
            switch request {
            case .push(let pushRequest):
                var push = try decoder.decode(pushRequest)
                // A collapse id replaces the newest stored message of the app with it (issue 13).
                if let collapseId = push.collapseId, push.channel == .apns {
                    push.replacing = try store.message(app: push.app, collapseId: collapseId)
                }
                let reply = apply(.push(push, at: time.wallNow)) ?? .ok
                if subscriberCount > 0, let fate = reply.pushReply?.fate, !fate.isDelivered { publishUndelivered(push, fate) }
                return reply
            case .read(.ids(let ids)):
                return apply(.read(try lookUp(ids))) ?? .ok
            case .read(.all(let app)):
                return apply(.readAll(app: app)) ?? .ok
            case .delete(let ids):
                return apply(.delete(try lookUp(ids))) ?? .ok
            case .badge(let app, let change, let sync):
                if subscriberCount > 0 { publish(BusEvent.badgeRequest(app: app, change: change, sync: sync)) }
                return apply(.badge(app: app, change: change, sync: sync)) ?? .ok
            case .badgePolicy(let app, let policy):
                let target = app ?? Inbox.defaultApp
                guard let policy else { return .policy(inbox.badge(of: target), inbox.badgePolicy(of: target)) }
                return apply(.setBadgePolicy(app: target, policy)) ?? .ok
            case .sdkBadge(let app, let call):
                return apply(.sdkBadge(app: app ?? Inbox.defaultApp, call)) ?? .ok
            case .mute(let app, let seconds):
                // Time is an input: the wall time the mute ends is decided here, not in the reducer.
                return apply(.mute(app: app, until: seconds.map { time.wallNow.addingTimeInterval(Double($0)) })) ?? .ok
            case .unmute(let app):
                return apply(.unmute(app: app)) ?? .ok
            case .quiet(let quiet):
                guard let quiet else { return .quiet(inbox.settings.quiet) }
                return apply(.setQuiet(quiet)) ?? .ok
            case .mode(let mode):
                guard let mode else { return .mode(inbox.mode) }
                // Held messages past their time to live expire before anything could deliver them.
                apply(.expireHeld(at: time.wallNow))
                return apply(.setMode(mode)) ?? .ok
            case .app(let state):
                guard let state else { return .appState(inbox.appState) }
                apply(.expireHeld(at: time.wallNow))
                return apply(.setAppState(state)) ?? .ok
            case .list(let query):
                return .messages(try store.page(query))
            case .subscribe(let topics):
                guard let client else { return .error("subscribe needs a socket connection") }
                if client.topics == nil { subscriberCount += 1 }
                client.topics = Set(topics)
                return .ok
            case .ping:
                return .version(Version.current)
            case .device(let command):
                // Stored messages past their expiry go before a device coming online could get them.
                if case .setOffline = command { apply(.expireHeld(at: time.wallNow)) }
                return apply(.device(command, at: time.wallNow)) ?? .ok
            case .key(let command):
                return apply(.key(command)) ?? .ok
            case .gateway:
                return gatewayReply()
            case .credentials(let query):
                return credentialsReply(query)
            case .reset(let app, let all):
                return apply(.reset(app: app, all: all)) ?? .ok
            }
        } catch let error as WireError {
            return .error(error.message)
        } catch {
            return .error("\(error)")
        }
    }

    /// `push.undelivered`: a held or dropped push with its payload, so `record` sees every push.
    private func publishUndelivered(_ push: Push, _ fate: PushFate) {
        publish(BusEvent(.pushUndelivered, [
            "id": fate.id.map { .number(JSONNumber($0)) } ?? .null, "app": .string(push.app),
            "channel": .string(push.channel.rawValue),
            "payload": (try? JSON.parse(push.payload)) ?? .string(push.payload),
            "held": .bool(fate.isHeld), "reason": .string(orNull: fate.reason),
        ]))
    }

    /// The stored messages with these ids; an unknown id refuses the whole request.
    private func lookUp(_ ids: [Int64]) throws -> [Message] {
        let found = try store.messages(ids: ids)
        if found.count < Set(ids).count {
            let known = Set(found.map(\.id))
            let missing = ids.filter { !known.contains($0) }.prefix(5).map(String.init).joined(separator: ", ")
            throw WireError("no message with id \(missing); nothing was changed")
        }
        return found
    }
}
