import Foundation
import PushCore
import TestSupport
import Testing

@Suite("Real-world corpus")
struct CorpusTests {
    static let folders = ["real-world", "lenient"]

    static func corpusFiles() throws -> [URL] {
        try folders.flatMap { folder in
            try PackagePaths.files(in: PackagePaths.corpus.appendingPathComponent(folder), endingWith: [".apns", ".json"])
        }
    }

    @Test func theCorpusIsThere() throws {
        let files = try Self.corpusFiles()
        #expect(files.count == 55)
    }

    @Test func everyFileIsAcceptedAsItIs() throws {
        for url in try Self.corpusFiles() {
            let bytes = try PackagePaths.bytes(of: url)
            do {
                let push = try PushDecoder().decode(payload: bytes)
                #expect(push.payload == String(decoding: bytes, as: UTF8.self))
                // Through the wire too: the file's text back to back with a ping, in small reads.
                var framer = StreamFramer()
                var frames: [[UInt8]] = []
                for chunk in (bytes + Array("\n{\"op\":\"ping\"}".utf8)).chunks(of: 7) {
                    framer.append(chunk)
                    while let frame = try framer.next() { frames.append(frame) }
                }
                #expect(frames.count == 2, "\(url.lastPathComponent)")
                guard case .push(let request)? = try frames.first.map(Request.decode(frame:)) else {
                    Issue.record("\(url.lastPathComponent) did not frame as a push")
                    continue
                }
                let pushed = try PushDecoder().decode(request)
                #expect(pushed.title == push.title && pushed.body == push.body && pushed.app == push.app)
            } catch {
                Issue.record("\(url.lastPathComponent) refused: \(error)")
            }
        }
    }

    @Test func everyNonSilentFileShowsSomething() throws {
        let silent: Set = [
            "apns-Viranchee-SwiftDemoProjects-silentNotification.apns",
            "apns-AnTseng-LiveActivitiesDemo-liveActivityUpdate.apns",
            "apns-vietnguyentuan2019-KMPTaskManager-push.apns",
        ]
        for url in try Self.corpusFiles() where !silent.contains(url.lastPathComponent) {
            let push = try PushDecoder().decode(payload: try PackagePaths.bytes(of: url))
            #expect(push.title != nil || push.body != nil, "\(url.lastPathComponent) shows nothing")
        }
    }

    private func decode(_ folder: String, _ name: String) throws -> Push {
        try PushDecoder().decode(payload: try PackagePaths.bytes(of: PackagePaths.corpus.appendingPathComponent("\(folder)/\(name)")))
    }

    @Test func spotChecks() throws {
        let misspelled = try decode("real-world", "apns-vinaylalwani-positiveminds-test.apns")
        #expect(misspelled.app == "com.seventhrock.positiveminds")
        #expect(misspelled.title == "Prashen ios nontification")

        let placeholder = try decode("lenient", "apns-donggyushin-PushTestApnsFile-test.apns")
        #expect(placeholder.app == "{app_bundle_id}")
        #expect(placeholder.title == "{title}" && placeholder.body == "{message}")
        #expect(placeholder.badge == .set(1))

        let zulip = try decode("real-world", "apns-zulip-zulip-flutter-dm.apns")
        #expect(zulip.app == "default")
        #expect(zulip.subtitle == "Zoe:")
        #expect(zulip.badge == .set(0))

        let republik = try decode("real-world", "apns-republik-app-notification.apns")
        #expect(republik.title == "«Was diese Woche wichtig war» jetzt online")
        #expect(republik.url?.hasPrefix("https://republik.ch/2020/10/30/") == true)

        let expo = try decode("real-world", "apns-sheikhhamza012-sports_drive_react_native-notification.apns")
        #expect(expo.body == "It works!")

        let jpushAPNs = try decode("real-world", "jpush-jpush-jpush-phonegap-plugin-iOS_API-openNotification-event.json")
        #expect(jpushAPNs.channel == .apns)
        #expect(jpushAPNs.body == "今天去哪儿")
        #expect(jpushAPNs.msgId == "154604475")
        #expect(jpushAPNs.badge == .set(1))

        let jpushMessage = try decode("real-world", "jpush-jpush-jpush-phonegap-plugin-iOS_API-receiveMessage-event.json")
        #expect(jpushMessage.channel == .transparent)
        #expect(jpushMessage.body == "今天去哪儿")

        let android = try decode("real-world", "jpush-jpush-jpush-phonegap-plugin-Common_detail_api-android-notification-event.json")
        #expect(android.title == "title" && android.body == "ding")

        // A JPush push-API body: the notification is an APNs one (its iOS part, never Android's title, and
        // the "+1" badge), and the message a second, pass-through one.
        let jpushREST = try decode("real-world", "jpush-jpush-jpush-docs-rest_api_v3_push-full-example.json")
        #expect(jpushREST.channel == .apns && jpushREST.title == nil && jpushREST.body == "Hi, JPush!")
        #expect(jpushREST.badge == .autoAdd(1))
        let inApp = try #require(jpushREST.also.first)
        #expect(jpushREST.also.count == 1)
        #expect(inApp.channel == .transparent && inApp.title == "msg" && inApp.body == "Hi,JPush" && inApp.badge == nil)
        let broadcast = try decode("real-world", "jpush-jpush-jpush-docs-rest_api_v3_push-broadcast-example.json")
        #expect(broadcast.channel == .apns && broadcast.body == "Hi, JPush!" && broadcast.also.isEmpty)

        let getuiREST = try decode("real-world", "getui-docs.getui.com-rest_v2-push-toSingle-example.json")
        #expect(getuiREST.title == "请填写通知标题" && getuiREST.body == "请填写通知内容" && getuiREST.url == "https//:xxx")
        #expect(getuiREST.channel == .apns)
        #expect(jpushREST.collapseId == "jiguang_test_201706011100" && inApp.collapseId == nil)

        // What else the platform reads from these files: silent pushes and threads.
        #expect(try decode("lenient", "apns-Viranchee-SwiftDemoProjects-silentNotification.apns").silent)
        #expect(try decode("real-world", "apns-vietnguyentuan2019-KMPTaskManager-push.apns").silent)
        #expect(try decode("real-world", "apns-marcossevilla-landmarks-PushNotificationPayload.apns").threadId == "5280")
        #expect(try !decode("real-world", "apns-republik-app-notification.apns").silent)

        let getuiRoom = try decode("real-world", "getui-GetuiLaboratory-react-native-getui-issue66-android-payload.json")
        #expect(getuiRoom.body == #"{"roomId":15152}"#)

        let getuiModel = try decode("real-world", "getui-GetuiLaboratory-getui-pushapi-java-client-v2-issue4-received-payload.json")
        #expect(getuiModel.title == "xxx" && getuiModel.body == "xxx")

        let live = try decode("real-world", "apns-AnTseng-LiveActivitiesDemo-liveActivityUpdate.apns")
        #expect(live.app == "com.ann.LiveActivities" && live.title == nil && live.body == nil && live.badge == nil)
    }
}

extension Array {
    /// The array cut into pieces of `size` elements (the last may be shorter).
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
