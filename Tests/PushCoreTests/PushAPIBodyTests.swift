import Foundation
import PushCore
import Testing

/// JPush v3 and Getui v2 push-API request bodies: which parts go through
/// APNs, which are pass-through, and how `notification.ios.badge` moves the badge.
@Suite("Push-API bodies")
struct PushAPIBodyTests {
    private func decode(_ text: String, channel: Channel? = nil) throws -> Push {
        try PushDecoder().decode(PushRequest(payloadText: text, channel: channel))
    }

    @Test func aJPushNotificationIsAnAPNsNotification() throws {
        let push = try decode(#"{"platform":"ios","audience":"all","notification":{"alert":"common","ios":{"alert":"Hi, iOS"}}}"#)
        #expect(push.channel == .apns)
        #expect(push.body == "Hi, iOS")
        #expect(push.also.isEmpty)
    }

    @Test func theIOSAlertComesBeforeTheCommonOneAndAndroidTitleIsNeverUsed() throws {
        let object = try decode(#"{"notification":{"alert":"common","android":{"title":"Android title","alert":"a"},"ios":{"alert":{"title":"T","subtitle":"S","body":"B"}}}}"#)
        #expect(object.title == "T" && object.subtitle == "S" && object.body == "B")
        let common = try decode(#"{"notification":{"alert":"common","android":{"title":"Android title","alert":"a"},"ios":{}}}"#)
        #expect(common.title == nil && common.body == "common")
    }

    @Test func iosBadgeSetsOrMovesTheServerBadge() throws {
        #expect(try decode(#"{"notification":{"ios":{"alert":"x","badge":4}}}"#).badge == .set(4))
        #expect(try decode(#"{"notification":{"ios":{"alert":"x","badge":"+2"}}}"#).badge == .autoAdd(2))
        #expect(try decode(#"{"notification":{"ios":{"alert":"x","badge":"-1"}}}"#).badge == .autoAdd(-1))
        #expect(try decode(#"{"notification":{"ios":{"alert":"x","badge":"3"}}}"#).badge == .set(3))
        #expect(try decode(#"{"notification":{"ios":{"alert":"x"}}}"#).badge == nil)
    }

    @Test func aBadIOSBadgeIsRefusedWithItsPath() {
        #expect(throws: WireError.self) { try decode(#"{"notification":{"ios":{"badge":-3}}}"#) }
        do {
            _ = try decode(#"{"notification":{"ios":{"badge":"lots"}}}"#)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("notification.ios.badge must be"))
        }
    }

    @Test func aJPushMessageIsPassThrough() throws {
        let push = try decode(#"{"message":{"title":"m","msg_content":"in-app","extras":{"url":"https://x"}}}"#)
        #expect(push.channel == .transparent && push.title == "m" && push.body == "in-app" && push.url == "https://x")
        #expect(push.also.isEmpty)
    }

    @Test func aBodyWithBothDeliversBoth() throws {
        let push = try decode(#"{"notification":{"ios":{"alert":"note","badge":"+1"}},"message":{"msg_content":"in-app"}}"#)
        #expect(push.channel == .apns && push.body == "note" && push.badge == .autoAdd(1))
        #expect(push.also.count == 1)
        let message = try #require(push.also.first)
        #expect(message.channel == .transparent && message.body == "in-app" && message.badge == nil)
        #expect(message.payload == push.payload)
    }

    @Test func aRequestChannelPicksThatPart() throws {
        let text = #"{"notification":{"ios":{"alert":"note","badge":2}},"message":{"msg_content":"in-app"}}"#
        let passThrough = try decode(text, channel: .transparent)
        #expect(passThrough.channel == .transparent && passThrough.body == "in-app" && passThrough.badge == nil && passThrough.also.isEmpty)
        let notification = try decode(text, channel: .apns)
        #expect(notification.body == "note" && notification.badge == .set(2) && notification.also.isEmpty)
    }

    @Test func getuiNotificationAndIOSChannelAreAPNs() throws {
        let notification = try decode(#"{"push_message":{"notification":{"title":"t","body":"b","click_type":"url","url":"u"}}}"#)
        #expect(notification.channel == .apns && notification.title == "t" && notification.body == "b" && notification.url == "u")
        let ios = try decode(#"{"push_channel":{"ios":{"type":"notify","aps":{"alert":{"title":"T","body":"B"}},"auto_badge":"+1"}}}"#)
        #expect(ios.channel == .apns && ios.title == "T" && ios.body == "B" && ios.badge == .autoAdd(1))
    }

    @Test func getuiTransmissionIsPassThroughParsedAsAPushModel() throws {
        let model = try decode(#"{"push_message":{"transmission":"{\"title\":\"T\",\"content\":\"C\",\"url\":\"u\"}"},"push_channel":{"ios":{"aps":{"alert":"fallback"},"auto_badge":"+1"}}}"#)
        #expect(model.channel == .transparent && model.title == "T" && model.body == "C" && model.url == "u")
        #expect(model.badge == nil && model.also.isEmpty)
        let text = try decode(#"{"push_message":{"transmission":"plain text"}}"#)
        #expect(text.channel == .transparent && text.body == "plain text")
    }
}
