import Foundation
import PushCore
import PushServer
import Testing
import TestSupport

/// Issue 13 end to end: pushes through the real socket of the real binary.
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
}
