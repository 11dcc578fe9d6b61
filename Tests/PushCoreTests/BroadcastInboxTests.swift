import Foundation
import PushCore
import PushJSON
import Testing

/// Broadcast channels in the engine: a channel with no message storage (policy 0) keeps nothing
/// for an offline device — the push is discarded for that activity, with why — and refuses a
/// non-zero expiration; an unknown channel and the 10 001st are refused whole.
@Suite struct BroadcastInboxTests {
    static let app = "com.example.match"
    static let t0 = Date(timeIntervalSince1970: 1_764_547_200)

    func handle(_ request: Request, _ inbox: inout Inbox, at: Date = t0) -> Reply {
        Engine.handle(request, inbox: &inbox, store: EmptyReading(), now: .zero, wallNow: at).reply
    }

    func broadcast(_ channel: String, expiration: String = "0", timestamp: Int, _ inbox: inout Inbox) -> Reply {
        var request = PushRequest(
            payloadText: #"{"aps":{"timestamp":\#(timestamp),"event":"update","content-state":{"score":"\#(timestamp)"}}}"#,
            app: Self.app, channel: .apns, pushType: "liveactivity", via: .apns, headers: ["apns-expiration": expiration])
        request.broadcastChannel = channel
        return handle(.push(request), &inbox)
    }

    /// A channel of `policy` and two activities subscribed to it, the second one's device offline.
    func subscribed(policy: Int) throws -> (Inbox, String) {
        var inbox = Inbox()
        guard case .channels(let made) = handle(.channel(.create(app: Self.app, storagePolicy: policy)), &inbox),
              let channel = made.first?.id
        else { throw WireError("no channel made") }
        for token in ["5a", "6b"].map({ String(repeating: $0, count: 32) }) {
            inbox.devices[token] = Device(token: token, app: Self.app, kind: .pushToStart)
            let start = #"{"aps":{"timestamp":1764547200,"event":"start","attributes-type":"Match","attributes":{"m":1},"content-state":{"score":"0"},"input-push-channel":"\#(channel)"}}"#
            _ = handle(.push(PushRequest(payloadText: start, app: Self.app, channel: .apns, pushType: "liveactivity", via: .apns, token: token)), &inbox)
        }
        inbox.devices[String(repeating: "6b", count: 32)]?.offline = true
        return (inbox, channel)
    }

    @Test func aChannelWithNoStorageDiscardsTheBroadcastForAnOfflineDeviceAndSaysWhy() throws {
        var (inbox, channel) = try subscribed(policy: 0)
        #expect(broadcast(channel, timestamp: 1_764_547_300, &inbox) == .broadcast(BroadcastReply(channel: channel, reached: 2, stored: 0)))
        let activities = inbox.activities.all
        #expect(activities[0].contentState == ["score": "1764547300"])
        #expect(activities[1].contentState == ["score": "0"] && activities[1].pending == nil)
        #expect(activities[1].history.last?.why == "the device was offline and channel \(channel) stores no message (message-storage-policy 0)")
        #expect(activities[1].history.last?.channel == channel)
        // Online again: nothing was kept for it.
        _ = handle(.device(.setOffline(token: String(repeating: "6b", count: 32), false)), &inbox)
        #expect(inbox.activities.all[1].contentState == ["score": "0"])
    }

    @Test func aChannelThatKeepsTheLatestHandsOnlyTheNewestToTheDeviceWhenItComesOnline() throws {
        var (inbox, channel) = try subscribed(policy: 1)
        #expect(broadcast(channel, expiration: "1764550000", timestamp: 1_764_547_300, &inbox)
            == .broadcast(BroadcastReply(channel: channel, reached: 2, stored: 1)))
        _ = broadcast(channel, expiration: "1764550000", timestamp: 1_764_547_400, &inbox)
        _ = handle(.device(.setOffline(token: String(repeating: "6b", count: 32), false)), &inbox)
        let offline = inbox.activities.all[1]
        #expect(offline.contentState == ["score": "1764547400"] && offline.pending == nil)
        #expect(offline.history.count == 2)
    }

    @Test func refusedBroadcastsAndChannelsChangeNothing() throws {
        var (inbox, channel) = try subscribed(policy: 0)
        let before = inbox
        #expect(broadcast(channel, expiration: "60", timestamp: 1_764_547_300, &inbox).errorMessage?.hasPrefix("BadExpirationDate") == true)
        #expect(broadcast("bm9uZQ==", timestamp: 1_764_547_300, &inbox).errorMessage?.hasPrefix("ChannelNotRegistered") == true)
        #expect(handle(.channel(.delete(app: "com.example.other", id: channel)), &inbox).errorMessage?.hasPrefix("ChannelNotRegistered") == true)
        #expect(handle(.channel(.create(app: Self.app, storagePolicy: 2)), &inbox).isOK == false)
        #expect(inbox == before)

        var full = Inbox()
        for _ in 0..<BroadcastChannel.maxPerApp { _ = handle(.channel(.create(app: Self.app, storagePolicy: 0)), &full) }
        let count = full.channels.byId.count
        #expect(handle(.channel(.create(app: Self.app, storagePolicy: 0)), &full).errorMessage?.hasPrefix("CannotCreateChannelConfig") == true)
        #expect(full.channels.byId.count == count && count == BroadcastChannel.maxPerApp)
    }
}
