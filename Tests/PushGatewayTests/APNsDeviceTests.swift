import Foundation
import PushCore
@testable import PushGateway
import Testing

/// The gateway's device rules (a token belongs to one app; open registers an unknown one, strict
/// refuses it; an unregistered one is answered 410), as the APNs route applies them.
@Suite struct APNsDeviceTests {
    func decide(_ inbox: Inbox, policy: DevicePolicy = .open, topic: String = "com.example.shop") -> GatewayDecision {
        APNsRoutes(devices: policy).decide(
            apnsRequest(headers: replacing("apns-topic", with: topic)), context: GatewayContext(inbox: inbox, now: now))
    }

    func inbox(with device: Device) -> Inbox {
        var inbox = Inbox()
        inbox.devices[device.token] = device
        return inbox
    }

    @Test func openAcceptsAnUnknownTokenAndStrictRefusesIt() {
        guard case .request = decide(Inbox(), policy: .open) else { Issue.record("open refused an unknown token"); return }
        let strict = reasonAndStatus(decide(Inbox(), policy: .strict))
        #expect(strict.status == 400 && strict.reason == "BadDeviceToken")
    }

    @Test func strictAcceptsARegisteredToken() {
        guard case .request = decide(inbox(with: Device(token: deviceToken, app: "com.example.shop")), policy: .strict)
        else { Issue.record("strict refused a registered token"); return }
    }

    @Test func aTokenOfAnotherAppIsNotForTheTopic() {
        let answer = reasonAndStatus(decide(inbox(with: Device(token: deviceToken, app: "com.example.other"))))
        #expect(answer.status == 400 && answer.reason == "DeviceTokenNotForTopic")
    }

    @Test func theVoIPTopicOfTheDevicesAppIsItsTopic() {
        let request = apnsRequest(headers: replacing("apns-topic", with: "com.example.shop.voip") + [HTTPHeader("apns-push-type", "voip")])
        guard case .request = APNsRoutes().decide(
            request, context: GatewayContext(inbox: inbox(with: Device(token: deviceToken, app: "com.example.shop")), now: now))
        else { Issue.record("refused the VoIP topic of the device's app"); return }
    }

    @Test func aJPushTokenIsNoAPNsToken() {
        let answer = reasonAndStatus(decide(inbox(with: Device(token: deviceToken, app: "com.example.shop", vendor: .jpush))))
        #expect(answer.reason == "BadDeviceToken")
    }

    @Test func anUnregisteredTokenIsGoneSinceThen() {
        let at = Date(timeIntervalSince1970: 1_700_000_000.123)
        let answer = reasonAndStatus(decide(inbox(with: Device(token: deviceToken, app: "com.example.shop", unregisteredAt: at))))
        #expect(answer.status == 410)
        #expect(answer.reason == "Unregistered")
        #expect(answer.timestamp == 1_700_000_000_123)
    }
}
