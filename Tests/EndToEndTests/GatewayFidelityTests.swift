import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// Platform fidelity through the APNs gateway: its `apns-*` headers drive the rules the socket's fields
/// drive — curl sends them over h2c to the real binary's port.
@Suite(.serialized) struct GatewayFidelityTests {
    func post(_ gateway: GatewayServer, _ headers: [String], _ body: String) throws {
        let arguments = ["--http2-prior-knowledge"] + headers.flatMap { ["-H", $0] }
        let result = try gateway.curl(arguments, tls: false, body: body, topic: "com.example.live")
        #expect(result.status == 0 && result.output.hasSuffix("200 2"), "\(result.output)")
    }

    @Test func collapseIdReplacesAndABackgroundPushIsListedSilent() throws {
        let gateway = try GatewayServer()
        #expect(try gateway.run(["app", "background"]).status == 0)
        try post(gateway, ["apns-collapse-id: m7"], #"{"aps":{"alert":"score 1:0"}}"#)
        try post(gateway, ["apns-collapse-id: m7"], #"{"aps":{"alert":"score 2:0"}}"#)
        var listed = try messages(gateway)
        #expect(listed.count == 1)
        #expect(listed.first?["body"] == "score 2:0")
        #expect(listed.first?["collapseId"] == "m7")
        #expect(try gateway.run(["badge", "--app", "com.example.live"]).output == "1")

        // Push type background at priority 5: silent, no badge, listed read.
        try post(gateway, ["apns-push-type: background", "apns-priority: 5"], #"{"aps":{"content-available":1},"sync":"orders"}"#)
        listed = try messages(gateway)
        #expect(listed.count == 2)
        let silent = listed.first { $0["silent"] == true }
        #expect(silent != nil, "\(listed)")
        #expect(silent?["read"] == true)
        #expect(silent?["apnsHeaders"]?.objectValue?["apns-push-type"] == "background")
        #expect(try gateway.run(["badge", "--app", "com.example.live"]).output == "1")
    }
}
