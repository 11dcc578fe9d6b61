import Foundation
import PushGateway
import PushJSON
import Testing
import TestSupport

/// The provider request log through the real binary: curl's requests to a real gateway port,
/// then `pushdeck requests`, the bus topic `request`, and `reset`.
@Suite(.serialized) struct RequestLogEndToEndTests {
    static let payload = #"{"aps":{"alert":{"title":"Logged","body":"a logged push"}}}"#
    static let apnsId = "123e4567-e89b-12d3-a456-426614174000"

    /// The log's records, as `requests --json` prints them (one object a line).
    static func records(_ gateway: GatewayServer, _ extra: [String] = []) throws -> [JSONObject] {
        let result = try gateway.server.run(["requests", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { line in try #require(try JSON.parse(String(line)).objectValue) }
    }

    /// JPush's push API over HTTP/1.1 with the sample appKey, to `registrationId`.
    static func jpushPush(_ gateway: GatewayServer, sendno: Int) throws -> Spawn.Result {
        let body = #"{"platform":"all","audience":{"registration_id":["\#(SampleCredentials.jpushRegistrationId)"]},"notification":{"alert":"hi"},"options":{"sendno":\#(sendno)}}"#
        return try Spawn.run([
            "curl", "-sS", "--max-time", "10", "--http1.1", "-u", "\(SampleCredentials.jpushAppKey):\(SampleCredentials.jpushMasterSecret)",
            "-o", "-", "-w", "\n%{http_code}", "--data-binary", body, "http://127.0.0.1:\(gateway.port)/v3/push",
        ], captureOutput: true)
    }

    @Test func everyProviderRequestIsLoggedInArrivalOrderAndResetEmptiesTheLog() throws {
        let gateway = try GatewayServer()
        #expect(try gateway.server.run(["requests"]).stdout.contains("no provider requests since the last reset"))
        let pushed = try gateway.curl(["--http2", "-H", "apns-id: \(Self.apnsId)"], path: "/3/device/0123abcd", tls: true, body: Self.payload)
        #expect(pushed.output.hasSuffix("200 2"), "\(pushed.output)")
        let refused = try gateway.curl(["--http2"], path: "/3/nothing?x=1", tls: true, body: Self.payload)
        #expect(refused.output.hasSuffix("404 2"), "\(refused.output)")
        let jpush = try Self.jpushPush(gateway, sendno: 7)
        #expect(jpush.output.hasSuffix("200"), "\(jpush.output)")

        let records = try Self.records(gateway)
        try #require(records.count == 3, "\(records)")
        #expect(records.map { $0["seq"]?.intValue } == [1, 2, 3])
        #expect(records[0]["vendor"] == "apns" && records[0]["method"] == "POST" && records[0]["path"] == "/3/device/0123abcd")
        #expect(records[0]["tokens"] == ["0123abcd"] && records[0]["app"] == "com.example.gateway" && records[0]["status"] == 200)
        #expect(records[0]["reason"] == nil && records[0]["fault"] == nil)
        #expect(records[0]["ids"]?.objectValue?["apns-id"] == .string(Self.apnsId))
        #expect(records[0]["notificationKey"] == .string("apns-id:\(Self.apnsId)"))
        #expect((records[0]["latencyMs"]?.numberValue?.double ?? -1) >= 0)
        #expect(records[1]["path"] == "/3/nothing?x=1" && records[1]["status"] == 404 && records[1]["reason"] == "BadPath")
        #expect(records[2]["vendor"] == "jpush" && records[2]["status"] == 200)
        #expect(records[2]["tokens"] == .array([.string(SampleCredentials.jpushRegistrationId)]))
        #expect(records[2]["ids"]?.objectValue?["sendno"] == "7" && records[2]["notificationKey"] == "sendno:7")

        #expect(try Self.records(gateway, ["--vendor", "jpush"]).map { $0["seq"]?.intValue } == [3])
        #expect(try Self.records(gateway, ["--since", "1"]).map { $0["seq"]?.intValue } == [2, 3])
        let table = try gateway.server.run(["requests"]).stdout
        #expect(table.contains("TIME") && table.contains("BadPath") && table.contains("/3/nothing?x=1"), "\(table)")

        let bad = try gateway.server.run(["requests", "--vendor", "socket"])
        #expect(bad.status == 2 && bad.stderr.contains("--vendor takes apns, jpush, getui, fcm"), "\(bad.stderr)")

        #expect(try gateway.server.run(["reset"]).status == 0)
        #expect(try Self.records(gateway).isEmpty)
        _ = try gateway.curl(["--http2"], tls: true, body: Self.payload)
        #expect(try Self.records(gateway).map { $0["seq"]?.intValue } == [1])
    }

    @Test func theBusCarriesEachRecordOnTopicRequest() throws {
        let gateway = try GatewayServer()
        let watcher = try BackgroundCommand(["watch", "--topic", "request"], socket: gateway.server.socket, folder: gateway.server.folder)
        defer { watcher.interrupt() }
        // Subscribed once its first line shows: push until one does.
        var lines: [Substring] = []
        for _ in 0..<50 where lines.isEmpty {
            _ = try gateway.curl(["--http2"], tls: true, body: Self.payload)
            usleep(100_000)
            lines = watcher.stdoutSoFar.split(separator: "\n")
        }
        let event = try #require(lines.first.flatMap { try? JSON.parse(String($0)).objectValue })
        #expect(event["topic"] == "request" && event["vendor"] == "apns" && event["status"] == 200, "\(event)")
        let logged = try Self.records(gateway)
        #expect(logged.contains { $0["seq"] == event["seq"] && $0["time"] == event["time"] })
    }

    /// h2load keeping 4 × 32 streams in flight against a database file: turns large enough to be
    /// committed on the store's thread, while the gateway reads the next requests ahead and
    /// routes them the turn after. Every push is answered 200, stored once and logged once, in
    /// arrival order, keyed by its payload's digest.
    @Test func concurrentStreamsAreEachAnsweredStoredAndLoggedOnceInOrder() throws {
        let gateway = try GatewayServer(memory: false)
        let count = 3000
        let body = gateway.server.folder.file("push.json")
        try Self.payload.write(toFile: body, atomically: true, encoding: .utf8)
        let load = try runProgram([
            "h2load", "-n", "\(count)", "-c", "4", "-m", "32", "-d", body, "-H", "apns-topic: com.example.gateway",
            "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "http://\(gateway.address)/3/device/0123abcd",
        ])
        #expect(load.stdout.contains("\(count) succeeded") && load.stdout.contains("\(count) 2xx"), "\(load.stdout)")

        let records = try Self.records(gateway)
        #expect(records.map { $0["seq"]?.intValue } == (1...count).map { $0 })
        let key = "token:0123abcd:\(RequestSummary.digest(Array(Self.payload.utf8)))"
        #expect(records.filter { $0["status"] == 200 && $0["notificationKey"] == .string(key) }.count == count)

        var ids: [Int] = []
        var before: [String] = []
        while true {
            let page = try gateway.server.run(["list", "--json", "--limit", "1000"] + before)
            let listed = try JSON.parse(page.stdout).arrayValue ?? []
            guard let last = listed.last?.objectValue?["id"]?.intValue else { break }
            ids += listed.compactMap { $0.objectValue?["id"]?.intValue }
            before = ["--before", "\(last)"]
        }
        #expect(ids == Array((1...count).reversed()))
    }
}
