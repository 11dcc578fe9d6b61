import Foundation
import PushCore
import PushJSON
import Testing

/// FCM topic subscriptions in the inbox: all or nothing, at most `Device.maxTopics` per device.
@Suite struct DeviceTopicsTests {
    static let at = Date(timeIntervalSince1970: 1_700_000_000)
    static let a = "cK9x:APA91b-a"
    static let b = "cK9x:APA91b-b"

    func inbox() -> Inbox {
        var inbox = Inbox()
        inbox.devices[Self.a] = Device(token: Self.a, app: "com.example.shop", vendor: .fcm)
        inbox.devices[Self.b] = Device(token: Self.b, app: "com.example.shop", vendor: .fcm)
        inbox.devices["abcd"] = Device(token: "abcd", app: "com.example.shop")
        return inbox
    }

    @Test func subscribeAndUnsubscribeWriteTheDevicesThatChanged() {
        var inbox = inbox()
        let effects = reduce(into: &inbox, .device(.topics(tokens: [Self.a, Self.b], topic: "news", subscribe: true), at: Self.at), now: .zero)
        #expect(inbox.devices[Self.a]?.topics == ["news"] && inbox.devices[Self.b]?.topics == ["news"])
        #expect(effects.count == 3 && effects.last == .reply(.ok))
        // Again: no change, nothing written.
        #expect(reduce(into: &inbox, .device(.topics(tokens: [Self.a], topic: "news", subscribe: true), at: Self.at), now: .zero) == [.reply(.ok)])
        #expect(reduce(into: &inbox, .device(.topics(tokens: [Self.a], topic: "other", subscribe: false), at: Self.at), now: .zero) == [.reply(.ok)])
        let removed = reduce(into: &inbox, .device(.topics(tokens: [Self.a], topic: "news", subscribe: false), at: Self.at), now: .zero)
        #expect(inbox.devices[Self.a]?.topics == [])
        #expect(removed == [.store(.device(Device(token: Self.a, app: "com.example.shop", vendor: .fcm))), .reply(.ok)])
    }

    @Test func aTokenThatIsNoFCMDeviceChangesNothing() {
        var inbox = inbox()
        for tokens in [[Self.a, "cK9x:unknown"], [Self.a, "abcd"]] {
            let effects = reduce(into: &inbox, .device(.topics(tokens: tokens, topic: "news", subscribe: true), at: Self.at), now: .zero)
            #expect(effects.count == 1)
            guard case .reply(.error)? = effects.first else { Issue.record("\(effects)"); continue }
            #expect(inbox.devices[Self.a]?.topics == [])
        }
    }

    @Test func theTwoThousandAndFirstTopicIsRefusedAndNothingIsHalfStored() {
        var inbox = inbox()
        inbox.devices[Self.b]?.topics = (0..<Device.maxTopics).map { "t\($0)" }.sorted()
        let effects = reduce(into: &inbox, .device(.topics(tokens: [Self.a, Self.b], topic: "news", subscribe: true), at: Self.at), now: .zero)
        guard case .reply(.error(let message))? = effects.first, effects.count == 1 else { Issue.record("\(effects)"); return }
        #expect(message.contains("2000 topics"))
        #expect(inbox.devices[Self.a]?.topics == [])
        #expect(inbox.devices[Self.b]?.topics.count == Device.maxTopics)
    }

    @Test func theWireCarriesTheCommand() throws {
        let command = DeviceCommand.topics(tokens: [Self.a], topic: "news", subscribe: false)
        #expect(try Request.decode(frame: Array(JSON.object(command.wireObject).compactText.utf8)) == .device(command))
    }
}
