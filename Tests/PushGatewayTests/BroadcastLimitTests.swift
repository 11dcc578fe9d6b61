import Foundation
import PushCore
@testable import PushGateway
import Testing
import TestSupport

/// The payload limits of a Live Activity push, on each side of the line: Apple's "Sending
/// broadcast push notification requests to APNs" takes a broadcast payload of at most 5120
/// bytes, while a push to one activity's token is held to the 4096 bytes of every push type but
/// VoIP ("Sending notification requests to APNs"). Refused whole (413 `PayloadTooLarge`), with
/// nothing handed to the engine.
@Suite struct BroadcastLimitTests {
    static let app = "com.example.shop"
    static let channel = "dGVzdA=="

    func context() -> GatewayContext {
        var inbox = Inbox()
        inbox.channels.put(BroadcastChannel(id: Self.channel, app: Self.app, storagePolicy: 1, createdAt: now))
        inbox.devices[deviceToken] = Device(token: deviceToken, app: Self.app, kind: .activity)
        return GatewayContext(inbox: inbox, now: now)
    }

    func broadcast(_ size: Int) -> HTTPRequest {
        apnsRequest(
            path: "/4/broadcasts/apps/\(Self.app)",
            headers: [HTTPHeader("authorization", unsignedToken), HTTPHeader("apns-channel-id", Self.channel),
                      HTTPHeader("apns-push-type", "liveactivity"), HTTPHeader("apns-priority", "10"), HTTPHeader("apns-expiration", "0")],
            body: bigPayload(size))
    }

    func update(_ size: Int) -> HTTPRequest {
        apnsRequest(
            headers: [HTTPHeader("apns-topic", "\(Self.app).push-type.liveactivity"), HTTPHeader("authorization", unsignedToken),
                      HTTPHeader("apns-push-type", "liveactivity")],
            body: bigPayload(size))
    }

    @Test func aBroadcastOf5120BytesGoesOutAndOneByteMoreIsRefusedWhole() {
        guard case .request = APNsRoutes().decide(broadcast(5120), context: context()) else {
            Issue.record("5120 bytes refused: \(reasonAndStatus(APNsRoutes().decide(broadcast(5120), context: context())))")
            return
        }
        let over = APNsRoutes().decide(broadcast(5121), context: context())
        #expect(reasonAndStatus(over).status == 413 && reasonAndStatus(over).reason == "PayloadTooLarge")
        guard case .respond(let response) = over else { return }
        #expect(response.headers.contains { $0.name == "apns-request-id" })
    }

    /// A header the broadcast API takes once, sent twice: `400 DuplicateHeaders`, whichever it
    /// is and wherever the second one comes; headers sent once each go through.
    @Test(arguments: ["apns-channel-id", "apns-request-id", "authorization", "apns-priority"])
    func aHeaderItTakesOnceSentTwiceIsRefused(name: String) {
        var request = broadcast(100)
        request.headers.append(HTTPHeader("apns-request-id", "f4c9c2e4-1d5b-4c55-9d22-0a6f1c1b2a3d"))
        guard case .request = APNsRoutes().decide(request, context: context()) else {
            Issue.record("headers once each refused: \(reasonAndStatus(APNsRoutes().decide(request, context: context())))")
            return
        }
        let value = request.headers.first { $0.name == name }?.value ?? ""
        request.headers.insert(HTTPHeader(name, value), at: 1)
        let refused = reasonAndStatus(APNsRoutes().decide(request, context: context()))
        #expect(refused.status == 400 && refused.reason == "DuplicateHeaders", "\(name) twice")
    }

    @Test func aPushToOneActivitysTokenIsHeldTo4096Bytes() {
        guard case .request = APNsRoutes().decide(update(4096), context: context()) else {
            Issue.record("4096 bytes refused: \(reasonAndStatus(APNsRoutes().decide(update(4096), context: context())))")
            return
        }
        for size in [4097, 5120] {
            let refused = reasonAndStatus(APNsRoutes().decide(update(size), context: context()))
            #expect(refused.status == 413 && refused.reason == "PayloadTooLarge", "\(size) bytes")
        }
    }
}
