import Foundation
import PushJSON
import Testing
import TestSupport

/// Faults through the real binary: armed with `pushdeck fault add`, met by real clients (curl
/// over HTTP/2 + TLS for APNs, HTTP/1.1 for JPush, Getui and FCM, nghttp for GOAWAY), each
/// refusal in its vendor's shape, logged with its fault, the inbox unchanged.
@Suite(.serialized) struct FaultEndToEndTests {
    static let payload = #"{"aps":{"alert":{"title":"Faulted","body":"a faulted push"}}}"#
    static let apnsId = "123e4567-e89b-12d3-a456-426614174000"

    static func add(_ gateway: GatewayServer, _ options: [String]) throws {
        let armed = try gateway.server.run(["fault", "add"] + options)
        #expect(armed.status == 0, "\(armed.stderr)")
    }

    /// curl over HTTP/1.1 in cleartext to `path` with `body`: headers, body, then the status.
    static func http1(_ gateway: GatewayServer, _ path: String, body: String, _ extra: [String] = []) throws -> Spawn.Result {
        try Spawn.run(["curl", "-sS", "--max-time", "10", "--http1.1", "-D", "-", "-o", "-", "-w", "\n%{http_code}"] + extra
            + ["--data-binary", body, "http://127.0.0.1:\(gateway.port)\(path)"], captureOutput: true)
    }

    static func lastBodyLine(_ output: String) -> JSONObject? {
        // "\r\n" is one Character: header lines are split on it first.
        let lines = output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let line = lines.last(where: { $0.hasPrefix("{") }) else { return nil }
        return (try? JSON.parse(Array(line.utf8)))?.objectValue
    }

    @Test func apnsAnswersAnInjected429InApplesShapeOnceThenAcceptsAndTheInboxIsUnchanged() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--vendor", "apns", "--token", "0123abcd", "--status", "429", "--reason", "TooManyRequests", "--retry-after", "7", "--count", "1"])
        let refused = try gateway.curl(["--http2", "-D", "-", "-H", "apns-id: \(Self.apnsId)"], tls: true, body: Self.payload)
        #expect(refused.output.hasSuffix("429 2"), "\(refused.output)")
        let headers = refused.output.lowercased()
        #expect(headers.contains("apns-id: \(Self.apnsId)") && headers.contains("apns-unique-id: ") && headers.contains("retry-after: 7"), "\(refused.output)")
        #expect(Self.lastBodyLine(refused.output) == ["reason": "TooManyRequests"], "\(refused.output)")
        #expect(try gateway.listJSON().trimmingCharacters(in: .whitespacesAndNewlines) == "[]")

        let accepted = try gateway.curl(["--http2", "-H", "apns-id: \(Self.apnsId)"], tls: true, body: Self.payload)
        #expect(accepted.output.hasSuffix("200 2"), "\(accepted.output)")
        #expect(try gateway.listJSON().contains("a faulted push"))

        let records = try RequestLogEndToEndTests.records(gateway)
        try #require(records.count == 2)
        #expect(records[0]["status"] == 429 && records[0]["reason"] == "TooManyRequests" && records[0]["retryAfter"] == 7 && records[0]["fault"] == 1)
        #expect(records[1]["status"] == 200 && records[1]["fault"] == nil)
        // The same notification both times: the retry is recognisable in the log.
        #expect(records[0]["notificationKey"] == records[1]["notificationKey"] && records[0]["notificationKey"] != nil)
        #expect(try gateway.server.run(["fault", "list"]).stdout.contains("no faults armed"))

        // The table shows what came of each request first: the status, the reason, the fault.
        let table = try gateway.server.run(["requests"]).stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(table.count == 3, "\(table)")
        #expect(Array(table[0].prefix(6)) == ["TIME", "VENDOR", "STATUS", "REASON", "FAULT", "MS"], "\(table)")
        #expect(Array(table[1].dropFirst().prefix(4)) == ["apns", "429", "TooManyRequests", "#1"], "\(table)")
        #expect(Array(table[2].dropFirst().prefix(4)) == ["apns", "200", "-", "-"], "\(table)")
    }

    @Test func apnsUnregisteredCarriesATimestamp() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--vendor", "apns", "--status", "410"])
        let refused = try gateway.curl(["--http2"], tls: true, body: Self.payload)
        #expect(refused.output.hasSuffix("410 2"), "\(refused.output)")
        let body = try #require(Self.lastBodyLine(refused.output))
        #expect(body["reason"] == "Unregistered" && body["timestamp"]?.intValue != nil, "\(body)")
    }

    @Test func jpushGetuiAndFCMAnswerInTheirOwnShapes() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--vendor", "jpush", "--status", "503"])
        try Self.add(gateway, ["--vendor", "getui", "--status", "401", "--reason", "10001"])
        try Self.add(gateway, ["--vendor", "fcm", "--status", "503", "--reason", "UNAVAILABLE", "--retry-after", "2"])
        let jpush = try Self.http1(gateway, "/v3/push", body: #"{"platform":"all","audience":"all","notification":{"alert":"x"}}"#)
        #expect(jpush.output.hasSuffix("503"), "\(jpush.output)")
        #expect(Self.lastBodyLine(jpush.output)?["error"]?.objectValue?["code"] == 1030, "\(jpush.output)")
        let getui = try Self.http1(gateway, "/v2/appid123/push/single/cid", body: #"{"request_id":"abcdefghij12"}"#)
        #expect(getui.output.hasSuffix("401"), "\(getui.output)")
        let getuiBody = try #require(Self.lastBodyLine(getui.output))
        #expect(getuiBody["code"] == 10001 && getuiBody["msg"] != nil, "\(getuiBody)")
        let fcm = try Spawn.run(["curl", "-sS", "--max-time", "10", "--http1.1", "-D", "-", "-o", "-", "-w", "\n%{http_code}", "--data-binary",
                                 #"{"message":{"token":"fcm-token-1","notification":{"title":"x"}}}"#,
                                 "http://127.0.0.1:\(gateway.port)/v1/projects/demo/messages:send"], captureOutput: true)
        #expect(fcm.output.hasSuffix("503") && fcm.output.lowercased().contains("retry-after: 2"), "\(fcm.output)")
        let fcmText = fcm.output.components(separatedBy: "\r\n\r\n").last ?? ""
        let error = try #require(try JSON.parse(String(fcmText.split(separator: "\n").dropLast().joined(separator: "\n"))).objectValue?["error"]?.objectValue)
        #expect(error["code"] == 503 && error["status"] == "UNAVAILABLE", "\(error)")
        #expect(error["details"]?.arrayValue?.contains { $0.objectValue?["errorCode"] == "UNAVAILABLE" } == true, "\(error)")

        let records = try RequestLogEndToEndTests.records(gateway)
        #expect(records.map { $0["vendor"]?.stringValue } == ["jpush", "getui", "fcm"])
        #expect(records.map { $0["reason"]?.stringValue } == ["1030", "10001 token错误/失效", "UNAVAILABLE"])
        #expect(records.map { $0["fault"]?.intValue } == [1, 2, 3])
        #expect(records[1]["ids"]?.objectValue?["request_id"] == "abcdefghij12" && records[2]["tokens"] == ["fcm-token-1"])
        #expect(try gateway.listJSON().trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        // Nothing registered: the FCM token was not issued, no Getui request_id used up.
        #expect(try gateway.server.run(["device", "list", "--json"]).stdout.contains("fcm-token-1") == false)
    }

    @Test func closeDropsTheConnectionUnansweredOnce() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--close", "--count", "1"])
        let dropped = try gateway.curl(["--http2"], tls: true, body: Self.payload)
        #expect(dropped.status != 0 && !dropped.output.contains("200"), "\(dropped.output)")
        #expect(try gateway.curl(["--http2"], tls: true, body: Self.payload).output.hasSuffix("200 2"))
        let records = try RequestLogEndToEndTests.records(gateway)
        #expect(records.map { $0["status"]?.intValue } == [0, 200] && records[0]["fault"] == 1)
    }

    @Test func latencyDelaysTheAnswerAndThenHandlesTheRequest() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--latency", "400", "--count", "1"])
        let started = Date()
        let answered = try gateway.curl(["--http2"], tls: true, body: Self.payload)
        #expect(answered.output.hasSuffix("200 2"), "\(answered.output)")
        #expect(Date().timeIntervalSince(started) >= 0.4)
        #expect(try gateway.listJSON().contains("a faulted push"))
        let record = try #require(try RequestLogEndToEndTests.records(gateway).first)
        #expect((record["latencyMs"]?.numberValue?.double ?? 0) >= 400 && record["fault"] == 1, "\(record)")
    }

    @Test func goawayWithShutdownLeavesTheLaterStreamsOutAsNghttpShows() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--vendor", "apns", "--goaway", "--shutdown", "--after", "1", "--count", "1"])
        let folder = TempFolder()
        try Self.payload.write(toFile: folder.file("payload.json"), atomically: true, encoding: .utf8)
        let url = "http://127.0.0.1:\(gateway.port)/3/device/0123abcd"
        let run = try Spawn.run(["nghttp", "-v", "-n", "-d", folder.file("payload.json"), "-H", "apns-topic: com.example.gateway",
                                 "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", url, url + "?second"], captureOutput: true)
        #expect(run.output.contains("GOAWAY") && run.output.contains(#"opaque_data(21)=[{"reason":"Shutdown"}]"#), "\(run.output)")
        #expect(run.output.contains("last_stream_id=1"), "\(run.output)")
        // The first stream was handled; the second was not.
        let list = try JSON.parse(try gateway.listJSON()).arrayValue ?? []
        #expect(list.count == 1, "\(list)")
        let records = try RequestLogEndToEndTests.records(gateway)
        #expect(records.map { $0["status"]?.intValue } == [200, 0], "\(records)")
        #expect(records.last?["fault"] == 1)
    }

    @Test("bad faults are refused naming the option, nothing armed", arguments: [
        (["--vendor", "jpush", "--path", "/3/*", "--status", "500"], "can never match"),
        (["--status", "500", "--rate", "2"], "--rate takes a probability from 0 to 1"),
        (["--goaway", "--status", "500"], "--goaway cannot go with --status"),
        (["--status", "500", "--count", "0"], "--count takes a number ≥ 1"),
        (["--vendor", "apns", "--status", "500", "--reason", "Sleepy"], "--reason Sleepy is not one of apns's: BadCollapseId"),
        (["--after", "2", "--status", "503"], "--after goes with --goaway"),
    ])
    func badFaultsAreRefused(options: [String], expected: String) throws {
        let gateway = try GatewayServer()
        let refused = try gateway.server.run(["fault", "add"] + options)
        #expect(refused.status != 0 && refused.stderr.contains(expected), "\(refused.stderr)")
        #expect(try gateway.server.run(["fault", "list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func listClearAndResetDisarm() throws {
        let gateway = try GatewayServer()
        try Self.add(gateway, ["--status", "500"])
        try Self.add(gateway, ["--vendor", "fcm", "--close", "--for", "5m"])
        let listed = try JSON.parse(try gateway.server.run(["fault", "list", "--json"]).stdout).arrayValue ?? []
        #expect(listed.compactMap { $0.objectValue?["id"]?.intValue } == [1, 2])
        #expect(try gateway.server.run(["fault", "clear", "1"]).stdout.contains("cleared 1 fault"))
        #expect(try gateway.server.run(["fault", "clear", "9"]).status == 1)
        #expect(try gateway.server.run(["reset"]).status == 0)
        #expect(try gateway.server.run(["fault", "list"]).stdout.contains("no faults armed"))
    }
}
