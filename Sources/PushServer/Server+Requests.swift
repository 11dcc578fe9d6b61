import Foundation
import PushCore
import PushJSON
import PushStore

// MARK: - Request handling: the engine's rules over this server's store and clock

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

    /// What only a server has (a connection to subscribe, a gateway to name) is answered here;
    /// every other request goes through the engine, and its effects are carried out in order.
    func handle(_ request: Request, from client: Connection?) -> Reply {
        switch request {
        case .subscribe(let topics):
            guard let client else { return .error("subscribe needs a socket connection") }
            if client.topics == nil { subscriberCount += 1 }
            client.topics = Set(topics)
            return .ok
        case .gateway:
            return gatewayReply()
        case .credentials(let query):
            return credentialsReply(query)
        case .bus:
            guard let bus else { return .error("this pushdeck is on no team bus; start it with --mqtt mqtt://HOST:PORT") }
            return bus.busReply()
        case .clock(let advance):
            guard let manual = time as? ManualTime else {
                guard advance == nil else { return .error("this pushdeck runs on the system clock; start it with --clock manual to move its clock") }
                return .clock(elapsed: nil)
            }
            if let advance { moveClock(manual, to: manual.now + advance) }
            return .clock(elapsed: manual.elapsed)
        default:
            let handled = Engine.handle(
                request, inbox: &inbox, store: SettledReads(server: self), now: time.now, wallNow: time.wallNow, announce: announces,
                bus: bus?.link ?? .none)
            carryOut(handled.effects)
            return handled.reply
        }
    }

    /// Moves a manual clock on to `target`, stopping at each deadline on the way so the banner's
    /// timeline, expiries and mutes run in order, as they would have as the time passed.
    func moveClock(_ clock: ManualTime, to target: Instant) {
        while let deadline = inbox.nextDeadline(after: clock.now), deadline <= target {
            clock.advance(to: deadline)
            apply(.tick)
            // A deadline the tick did not move on would be met forever.
            if inbox.nextDeadline(after: clock.now) == deadline { break }
        }
        clock.advance(to: target)
    }
}

/// The engine's lookups over the server's store, each made once every write of the turn so far
/// is in it: a request that reads nothing (most pushes) leaves the writer's thread at work.
struct SettledReads: InboxReading {
    unowned let server: Server

    func replaceable(app: String, collapseId: String) throws -> ReplacedMessage? {
        try server.store.replaceable(app: app, collapseId: collapseId)
    }

    func messages(ids: [Int64], includeHeld: Bool) throws -> [Message] {
        try server.store.messages(ids: ids, includeHeld: includeHeld)
    }

    func page(_ query: ListQuery) throws -> [Message] {
        try server.store.page(query)
    }
}
