import Foundation
import PushCore
import PushServer
import Testing
import TestSupport
import PushJSON

/// Platform fidelity end to end (badge policies, collapse, silent pushes, mute, quiet hours,
/// expiry): pushes through the real socket of the real binary.
@Suite struct FidelityTests {
    @Test func aJPushBodyWithBothIsAnAPNsNotificationAndAnInAppMessage() throws {
        let server = try ServerProcess()
        let client = try RawClient(path: server.socket)
        #expect(try client.request(#"{"op":"app","state":"background"}"#)["ok"] == true)
        let reply = try client.request(
            #"{"op":"push","app":"com.example.shop","payload":{"platform":"ios","audience":"all","notification":{"android":{"title":"Android only","alert":"a"},"ios":{"alert":{"title":"T","body":"note"},"badge":5}},"message":{"title":"m","msg_content":"in-app"}}}"#)
        #expect(reply["id"] == 1)
        #expect(reply["also"] == [["channel": "transparent", "id": 2, "delivered": true]])
        #expect(reply["badge"] == 6)
        let list = try client.request(#"{"op":"list"}"#)
        let messages = try #require(list["messages"]?.arrayValue).compactMap(\.objectValue)
        #expect(messages.map { $0["channel"] } == ["transparent", "apns"])
        #expect(messages.map { $0["title"] } == ["m", "T"])
        #expect(messages.map { $0["body"] } == ["in-app", "note"])
    }

    @Test func badgePolicyIsSetPrintedStoredAndObeyed() throws {
        let folder = TempFolder()
        do {
            let server = try ServerProcess(folder: folder)
            #expect(try server.run(["badge", "--app", "com.example.shop", "--policy"]).output == "app")
            let set = try server.run(["badge", "--app", "com.example.shop", "--policy", "platform"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.output == "platform")
            #expect(try server.run(["app", "background"]).status == 0)
            // No badge in the push: the icon stays; one that says so sets it; reading leaves it.
            #expect(try server.run(["send", "--app", "com.example.shop", "--title", "plain"]).status == 0)
            #expect(try server.run(["badge", "--app", "com.example.shop"]).output == "0")
            #expect(try server.run(["send", "--app", "com.example.shop", "--title", "five", "--badge", "5"]).status == 0)
            #expect(try server.run(["read", "--all"]).status == 0)
            #expect(try server.run(["badge", "--app", "com.example.shop"]).output == "5")
            server.stop()
        }
        let again = try ServerProcess(folder: folder)
        #expect(try again.run(["badge", "--app", "com.example.shop", "--policy"]).output == "platform")
        let bad = try again.run(["badge", "--app", "x", "--policy", "device"])
        #expect(bad.status == 2)
    }

    @Test func sdkBadgeCallsMoveOnlyTheirLedger() throws {
        let server = try ServerProcess()
        #expect(try server.run(["send", "--app", "a", "--title", "six", "--badge", "6"]).status == 0)
        let jpush = try server.run(["badge", "--app", "a", "--sdk", "jpush", "setBadge", "0"])
        #expect(jpush.status == 0, "\(jpush.stderr)")
        #expect(jpush.output == "6")
        #expect(try server.run(["badge", "--app", "a", "--server"]).output == "0")
        let local = try server.run(["badge", "--app", "a", "--sdk", "getui", "setLocalBadge", "3"])
        #expect(local.output == "3")
        #expect(try server.run(["badge", "--app", "a", "--server"]).output == "0")
        let wrong = try server.run(["badge", "--app", "a", "--sdk", "jpush", "setLocalBadge", "3"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("jpush has no badge call 'setLocalBadge'"))
    }

    @Test func aCollapseIdReplacesTheRowAndCountsOnceAcrossARestart() throws {
        let folder = TempFolder()
        do {
            let server = try ServerProcess(folder: folder)
            let first = try server.run(["send", "--app", "a", "--title", "Score", "--body", "1:0", "--collapse-id", "match-7"])
            #expect(first.status == 0, "\(first.stderr)")
            server.stop()
        }
        let server = try ServerProcess(folder: folder)
        let second = try server.run(["send", "--app", "a", "--title", "Score", "--body", "2:0", "--collapse-id", "match-7"])
        let reply = try #require(try JSON.parse(second.output).objectValue)
        #expect(reply["id"] == 1 && reply["replaced"] == true && reply["badge"] == 1)
        // Another app's same id is another message.
        #expect(try server.run(["send", "--app", "b", "--body", "x", "--collapse-id", "match-7"]).output.contains(#""id":2"#))
        let listed = try #require(try JSON.parse(server.run(["list", "--json", "--app", "a"]).output).arrayValue)
        #expect(listed.count == 1)
        #expect(listed.first?.objectValue?["body"] == "2:0")
        #expect(listed.first?.objectValue?["collapseId"] == "match-7")
        #expect(try server.run(["badge", "--app", "a"]).output == "1")
        // A JPush body's apns_collapse_id does the same.
        let client = try RawClient(path: server.socket)
        let jpush = try client.request(#"{"op":"push","app":"a","payload":{"notification":{"ios":{"alert":"3:0"}},"options":{"apns_collapse_id":"match-7"}}}"#)
        #expect(jpush["id"] == 1 && jpush["replaced"] == true)
        let bad = try client.request(#"{"op":"push","collapseId":7,"payload":{"aps":{}}}"#)
        #expect(bad["ok"] == false)
        #expect(bad["error"]?.stringValue?.contains("collapseId") == true)
    }

    @Test func aSilentPushIsListedWithItsCallbackAndMovesNothing() throws {
        let server = try ServerProcess()
        let client = try RawClient(path: server.socket)
        let silent = try client.request(#"{"op":"push","app":"a","payload":{"aps":{"content-available":1},"refresh":"inbox"}}"#)
        #expect(silent["delivered"] == true && silent["badge"] == 0)
        let background = try client.request(#"{"op":"push","app":"a","pushType":"background","priority":5,"payload":{"aps":{"alert":"x"}}}"#)
        #expect(background["badge"] == 0)
        let listed = try #require(try JSON.parse(server.run(["list", "--json"]).output).arrayValue).compactMap(\.objectValue)
        #expect(listed.count == 2)
        #expect(listed.allSatisfy { $0["silent"] == true && $0["read"] == true })
        #expect(try server.run(["badge"]).output == "0")
        let wrong = try client.request(#"{"op":"push","priority":7,"payload":{"aps":{}}}"#)
        #expect(wrong["error"]?.stringValue?.contains("priority") == true)
    }

    @Test func muteAndQuietAreSetPrintedAndStored() throws {
        let folder = TempFolder()
        do {
            let server = try ServerProcess(folder: folder)
            let muted = try server.run(["mute", "com.example.shop", "--for", "1h", "--json"])
            #expect(muted.status == 0, "\(muted.stderr)")
            let reply = try #require(try JSON.parse(muted.output).objectValue)
            #expect(reply["muted"] == true && reply["until"]?.stringValue != nil)
            #expect(try server.run(["mute", "com.example.news"]).status == 0)
            #expect(try server.run(["quiet"]).output == "off")
            #expect(try server.run(["quiet", "22:00-07:00"]).output == "22:00-07:00")
            #expect(try server.run(["quiet", "25:00-07:00"]).status == 2)
            #expect(try server.run(["mute", "x", "--for", "soon"]).status == 2)
            // Muted still lists and counts.
            #expect(try server.run(["send", "--app", "com.example.shop", "--title", "t"]).status == 0)
            #expect(try server.run(["badge", "--app", "com.example.shop"]).output == "1")
            server.stop()
        }
        let again = try ServerProcess(folder: folder)
        #expect(try again.run(["quiet"]).output == "22:00-07:00")
        let unmuted = try again.run(["unmute", "com.example.news", "--json"])
        #expect(unmuted.output == #"{"ok":true,"app":"com.example.news","muted":false}"#)
        #expect(try again.run(["quiet", "off"]).output == "off")
    }

    @Test func aHeldMessagePastItsTTLIsListedExpiredNotDelivered() throws {
        let server = try ServerProcess()
        let client = try RawClient(path: server.socket)
        #expect(try client.request(#"{"op":"app","state":"terminated"}"#)["ok"] == true)
        let short = try client.request(#"{"op":"push","app":"n","payload":{"message":{"msg_content":"gone"},"options":{"time_to_live":0}}}"#)
        #expect(short["held"] == true)
        let long = try client.request(#"{"op":"push","app":"n","payload":{"push_message":{"transmission":"kept"},"settings":{"ttl":3600000}}}"#)
        #expect(long["held"] == true)
        #expect(try client.request(#"{"op":"app","state":"foreground"}"#)["ok"] == true)
        let listed = try #require(try JSON.parse(server.run(["list", "--json"]).output).arrayValue).compactMap(\.objectValue)
        #expect(listed.map { $0["body"] } == ["kept", "gone"])
        #expect(listed.map { $0["expired"] } == [false, true])
        #expect(listed.map { $0["read"] } == [false, true])
        #expect(try server.run(["badge", "--app", "n"]).output == "1")
    }
}
