import Foundation
import PushCore
import Testing

/// The engine's rules for the team bus, over an empty store: which push is another instance's,
/// what the sender keeps and answers, and how the owner counts a push once by its id.
@Suite struct EngineBusTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)
    static let token = "abcd0123"

    static func push(token: String? = token, payload: String = #"{"aps":{"alert":"Hi"}}"#) -> PushRequest {
        PushRequest(payloadText: payload, app: "com.example.shop", via: .apns, token: token, headers: ["apns-id": "x"])
    }

    static func handle(_ request: PushRequest, _ inbox: inout Inbox, bus: BusLink) -> Engine.Handled {
        Engine.handle(.push(request), inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: at, bus: bus)
    }

    @Test func anUnknownTokenIsForwardedWithABusAndKeptInTheOutbox() throws {
        var inbox = Inbox()
        let handled = Self.handle(Self.push(), &inbox, bus: .connected)
        guard case .forwarded(let id, let topic) = handled.reply else {
            Issue.record("reply \(handled.reply)")
            return
        }
        #expect(topic == "pushdeck/v1/devices/\(Self.token)/push")
        #expect(handled.effects.count == 2)
        guard case .store(.outboxAdd(let remote)) = handled.effects.first, case .forward(let published) = handled.effects.last else {
            Issue.record("effects \(handled.effects)")
            return
        }
        #expect(remote == published && remote.id == id && remote.token == Self.token && remote.via == .apns)
        #expect(remote.expiresAt == Self.at.addingTimeInterval(RemotePush.defaultLifetime))
        #expect(inbox.totalUnread == 0 && inbox.devices.isEmpty)
    }

    @Test func withTheBusDownItIsRefusedAndNothingKept() {
        var inbox = Inbox()
        let handled = Self.handle(Self.push(), &inbox, bus: .disconnected("bus reconnecting (2)"))
        guard case .unavailable(let why) = handled.reply else {
            Issue.record("reply \(handled.reply)")
            return
        }
        #expect(why.contains("bus reconnecting (2)"))
        #expect(handled.effects.isEmpty && !handled.reply.isOK)
    }

    @Test func aRegisteredTokenNoTokenOrNoBusStaysHere() {
        var inbox = Inbox()
        inbox.devices[Self.token] = Device(token: Self.token, app: "com.example.shop", vendor: .apns)
        #expect(Self.handle(Self.push(), &inbox, bus: .connected).reply.pushReply?.fate.isDelivered == true)
        #expect(Self.handle(Self.push(token: nil), &inbox, bus: .connected).reply.pushReply?.fate.isDelivered == true)
        var plain = Inbox()
        #expect(Self.handle(Self.push(token: "ffff"), &plain, bus: .none).reply.pushReply?.fate.isDelivered == true)
    }

    @Test func aPushNamingARegisteredTokenAndNoAppIsItsDevicesApp() throws {
        var inbox = Inbox()
        inbox.devices[Self.token] = Device(token: Self.token, app: "com.example.shop", vendor: .apns)
        let request = PushRequest(payloadText: #"{"aps":{"alert":"Hi"}}"#, via: .mqtt, token: Self.token)
        let handled = Self.handle(request, &inbox, bus: .connected)
        #expect(handled.reply.pushReply?.fate.isDelivered == true)
        #expect(inbox.totalUnread == 1)
        let stored = handled.effects.compactMap { effect -> Message? in
            if case .store(.insert(let message)) = effect { return message }
            return nil
        }
        #expect(stored.map(\.app) == ["com.example.shop"])
    }

    @Test func aPayloadTheOwnerWouldRefuseIsRefusedBeforeTheOutbox() {
        var inbox = Inbox()
        let handled = Self.handle(Self.push(payload: "[1]"), &inbox, bus: .connected)
        #expect(!handled.reply.isOK && handled.effects.isEmpty)
    }

    @Test func theOwnerTakesAPushByTheBusOnceByItsId() throws {
        var inbox = Inbox()
        inbox.devices[Self.token] = Device(token: Self.token, app: "com.example.shop", vendor: .apns)
        let remote = RemotePush(Self.push(), token: Self.token, timeToLive: nil, now: Self.at)
        let request = remote.request(sender: "a")
        #expect(request.via == .mqtt && request.headers["pushdeck-sender"] == "a" && request.headers["pushdeck-via"] == "apns")
        let first = Self.handle(request, &inbox, bus: .connected)
        #expect(first.reply.pushReply?.fate.isDelivered == true)
        #expect(first.effects.contains(.store(.busPushSeen(sender: "a", id: remote.id, at: Self.at))))
        let again = Self.handle(request, &inbox, bus: .connected)
        #expect(again.reply.pushReply?.fate == .dropped(.repeated) && again.effects.isEmpty)
        #expect(inbox.totalUnread == 1)
        #expect(BusReceipt(push: remote.id, reply: first.reply).fate == .stored)
        #expect(BusReceipt(push: remote.id, reply: again.reply) == BusReceipt(push: remote.id, fate: .dropped, reason: PushDrop.repeated.rawValue))
        // The same id from another sender is another push.
        #expect(Self.handle(remote.request(sender: "c"), &inbox, bus: .connected).reply.pushReply?.fate.isDelivered == true)
    }

    @Test func aPublishedPushReadsBackAndBadOnesAreRefused() throws {
        let remote = RemotePush(Self.push(), token: Self.token, timeToLive: 60, now: Self.at)
        var bytes: [UInt8] = []
        remote.wireJSON(sender: "a").write(into: &bytes)
        let read = try RemotePush.decode(wire: bytes, topicToken: Self.token)
        #expect(read.push == remote && read.sender == "a")
        #expect(remote.expiresAt == Self.at.addingTimeInterval(60))
        #expect(throws: WireError.self) { try RemotePush.decode(wire: bytes, topicToken: "other") }
        #expect(throws: WireError.self) { try RemotePush.decode(wire: Array("not json".utf8), topicToken: Self.token) }
        #expect(throws: WireError.self) { try RemotePush.decode(wire: [UInt8](repeating: 0x20, count: 70_000), topicToken: Self.token) }
        var badSender: [UInt8] = []
        RemotePush(Self.push(), token: Self.token, timeToLive: nil, now: Self.at).wireJSON(sender: "a/b").write(into: &badSender)
        #expect(throws: WireError.self) { try RemotePush.decode(wire: badSender, topicToken: Self.token) }
    }
}
