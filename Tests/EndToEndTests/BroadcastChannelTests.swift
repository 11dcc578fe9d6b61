import Foundation
import PushCore
import PushJSON
import Testing
import TestSupport

/// Broadcast channels end to end: curl over HTTP/2 and TLS with a provider token from
/// `pushdeck gateway token` (signed with a registered key), against the real binary's gateway —
/// channel management, a broadcast reaching every subscribed activity, the storage policy for
/// an offline device, and each refusal with Apple's reason and status.
extension APNsGatewayTests {
    /// One HTTP/2 + TLS exchange: status, headers (names lower-cased), body.
    struct Exchange {
        var status: Int
        var headers: [String: String]
        var body: JSON?
        var reason: String? { body?.objectValue?["reason"]?.stringValue }
    }

    func exchange(_ gateway: GatewayServer, _ method: String, _ path: String, token: String?, headers: [String] = [], body: String? = nil) throws -> Exchange {
        var arguments = ["curl", "-sS", "-D", "-", "-X", method, "--http2", "--cacert", gateway.caPath]
        if let token { arguments += ["-H", "authorization: bearer \(token)"] }
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        arguments.append("https://localhost:\(gateway.port)\(path)")
        let result = try runProgram(arguments)
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let lines = (parts.first ?? "").split(separator: "\r\n")
        #expect(lines.first?.hasPrefix("HTTP/2 ") == true, "\(result.stdout) \(result.stderr)")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var named: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            named[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let text = parts.dropFirst().joined(separator: "\r\n\r\n")
        return Exchange(status: status, headers: named, body: text.isEmpty ? nil : try? JSON.parse(text))
    }

    @Test func channelsAreMadeReadListedAndDeletedAndABroadcastReachesEverySubscribedActivity() throws {
        let gateway = try GatewayServer()
        _ = try makeKey(in: gateway, register: true)
        let token = try gateway.run(["gateway", "token"]).output
        let channels = "/1/apps/\(Self.food)/channels"
        let create = #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#

        let made = try exchange(gateway, "POST", channels, token: token, headers: ["apns-request-id: 0f4ee1b6-64b8-4a4e-9a46-2c3b1f5e2a10"], body: create)
        #expect(made.status == 201)
        #expect(made.headers["apns-request-id"] == "0f4ee1b6-64b8-4a4e-9a46-2c3b1f5e2a10")
        let kept = try #require(made.headers["apns-channel-id"])
        #expect(BroadcastChannel.isWellFormed(kept))
        let none = try #require(try exchange(gateway, "POST", channels, token: token,
                                             body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#).headers["apns-channel-id"])
        #expect(none != kept)

        let read = try exchange(gateway, "GET", channels, token: token, headers: ["apns-channel-id: \(kept)"])
        #expect(read.status == 200 && read.body == ["message-storage-policy": 1, "push-type": "LiveActivity"])
        #expect(read.headers["apns-request-id"].flatMap(UUID.init(uuidString:)) != nil)
        let all = try exchange(gateway, "GET", "/1/apps/\(Self.food)/all-channels", token: token)
        #expect(all.status == 200 && all.body == ["channels": [.string(kept), .string(none)]])
        // Another app has none of them.
        #expect(try exchange(gateway, "GET", "/1/apps/com.example.other/all-channels", token: token).body == ["channels": []])

        // Two activities started by push-to-start, each subscribed to the channel that keeps a message.
        let starts = [String(repeating: "5a", count: 32), String(repeating: "6b", count: 32)]
        let live = ["apns-topic: \(Self.liveTopic)", "apns-push-type: liveactivity"]
        for start in starts {
            let body = #"{"aps":{"timestamp":1764547200,"event":"start","attributes-type":"Match","attributes":{"match":"A-B"},"content-state":{"score":"0-0"},"input-push-channel":"\#(kept)"}}"#
            #expect(try exchange(gateway, "POST", "/3/device/\(start)", token: token, headers: live, body: body).status == 200)
        }
        #expect(try gateway.run(["device", "offline", starts[1]]).status == 0)

        let broadcast = "/4/broadcasts/apps/\(Self.food)"
        let headers = ["apns-channel-id: \(kept)", "apns-push-type: liveactivity", "apns-priority: 10", "apns-expiration: 1764550000"]
        func update(_ timestamp: Int, _ score: String) -> String {
            #"{"aps":{"timestamp":\#(timestamp),"event":"update","content-state":{"score":"\#(score)"}}}"#
        }
        let sent = try exchange(gateway, "POST", broadcast, token: token, headers: headers, body: update(1764547300, "1-0"))
        #expect(sent.status == 200 && sent.body == nil)
        #expect(sent.headers["apns-request-id"] != nil && sent.headers["apns-unique-id"] != nil)
        #expect(try exchange(gateway, "POST", broadcast, token: token, headers: headers, body: update(1764547400, "2-0")).status == 200)

        var listed = try #require(try activityList(gateway)["activities"]?.arrayValue).compactMap(\.objectValue)
        #expect(listed.map { $0["contentState"] } == [["score": "2-0"], ["score": "0-0"]])
        #expect(listed[0]["history"]?.arrayValue?.last?.objectValue?["channel"] == .string(kept))
        // The offline device's activity waits with the most recent broadcast only.
        #expect(listed[1]["pending"]?.objectValue?["aps"]?.objectValue?["content-state"] == ["score": "2-0"])
        #expect(try gateway.run(["device", "online", starts[1]]).status == 0)
        listed = try #require(try activityList(gateway)["activities"]?.arrayValue).compactMap(\.objectValue)
        #expect(listed[1]["contentState"] == ["score": "2-0"] && listed[1]["pending"] == nil)
        #expect(listed[1]["history"]?.arrayValue?.count == 2)

        // Deleted: 204, then the channel is not registered for a read or a broadcast.
        let deleted = try exchange(gateway, "DELETE", channels, token: token, headers: ["apns-channel-id: \(kept)"])
        #expect(deleted.status == 204 && deleted.headers["apns-request-id"] != nil)
        let gone = try exchange(gateway, "POST", broadcast, token: token, headers: headers, body: update(1764547500, "3-0"))
        #expect(gone.status == 400 && gone.reason == "ChannelNotRegistered")
        #expect(try exchange(gateway, "GET", channels, token: token, headers: ["apns-channel-id: \(kept)"]).reason == "ChannelNotRegistered")
        #expect(try exchange(gateway, "DELETE", channels, token: token, headers: ["apns-channel-id: \(kept)"]).status == 400)
        let after = try #require(try activityList(gateway)["activities"]?.arrayValue).compactMap(\.objectValue)
        #expect(after.map { $0["contentState"] } == [["score": "2-0"], ["score": "2-0"]])
    }

    @Test func eachBroadcastRefusalHasApplesReasonAndStatusAndChangesNothing() throws {
        let gateway = try GatewayServer()
        _ = try makeKey(in: gateway, register: true)
        let token = try gateway.run(["gateway", "token"]).output
        let channels = "/1/apps/\(Self.food)/channels"
        let none = try #require(try exchange(gateway, "POST", channels, token: token,
                                             body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#).headers["apns-channel-id"])
        let broadcast = "/4/broadcasts/apps/\(Self.food)"
        let body = #"{"aps":{"timestamp":1764547300,"event":"update","content-state":{"score":"1-0"}}}"#
        let good = ["apns-channel-id: \(none)", "apns-push-type: liveactivity", "apns-priority: 10", "apns-expiration: 0"]
        func without(_ name: String) -> [String] { good.filter { !$0.hasPrefix(name + ":") } }
        func replacing(_ name: String, _ value: String) -> [String] { without(name) + ["\(name): \(value)"] }
        let unknown = Data("no-such-channel".utf8).base64EncodedString()
        let cases: [(String, String?, [String], String, Int, String)] = [
            ("POST", nil, good, body, 403, "MissingProviderToken"),
            ("POST", "x.y.z", good, body, 403, "InvalidProviderToken"),
            ("POST", token, without("apns-channel-id"), body, 400, "MissingChannelId"),
            ("POST", token, replacing("apns-channel-id", "not base64!"), body, 400, "BadChannelId"),
            ("POST", token, replacing("apns-channel-id", unknown), body, 400, "ChannelNotRegistered"),
            ("POST", token, without("apns-push-type"), body, 400, "MissingPushType"),
            ("POST", token, replacing("apns-push-type", "alert"), body, 400, "InvalidPushType"),
            ("POST", token, without("apns-priority"), body, 400, "BadPriority"),
            ("POST", token, without("apns-expiration"), body, 400, "BadExpirationDate"),
            // A channel with no message storage takes apns-expiration 0 only.
            ("POST", token, replacing("apns-expiration", "1764550000"), body, 400, "BadExpirationDate"),
            ("POST", token, good, #"{"aps":{"pad":"\#(String(repeating: "x", count: 5120))"}}"#, 413, "PayloadTooLarge"),
            ("GET", token, good, body, 405, "MethodNotAllowed"),
        ]
        for (method, credential, headers, payload, status, reason) in cases {
            let answer = try exchange(gateway, method, broadcast, token: credential, headers: headers, body: method == "GET" ? nil : payload)
            #expect(answer.status == status && answer.reason == reason, "\(reason): \(answer)")
            #expect(answer.headers["apns-request-id"] != nil)
        }
        // Channel management's own.
        let made: [(String, Int, String)] = [
            (#"{"message-storage-policy":1}"#, 400, "MissingPushType"),
            (#"{"message-storage-policy":1,"push-type":"Alert"}"#, 400, "InvalidPushType"),
            (#"{"message-storage-policy":7,"push-type":"LiveActivity"}"#, 400, "BadPayload"),
            ("[1]", 400, "BadPayload"),
        ]
        for (payload, status, reason) in made {
            let answer = try exchange(gateway, "POST", channels, token: token, body: payload)
            #expect(answer.status == status && answer.reason == reason, "\(reason): \(answer)")
        }
        #expect(try exchange(gateway, "GET", channels, token: token).reason == "MissingChannelId")
        #expect(try exchange(gateway, "PUT", channels, token: token, body: "{}").status == 405)
        #expect(try exchange(gateway, "GET", "/1/apps/\(Self.food)/nothing", token: token).status == 404)
        // Nothing was made or lost: the one channel is still the only one.
        #expect(try exchange(gateway, "GET", "/1/apps/\(Self.food)/all-channels", token: token).body == ["channels": [.string(none)]])
    }

    @Test func anAppHasAtMostTenThousandChannelsAsAPNsAllows() throws {
        let gateway = try GatewayServer()
        let token = try gateway.run(["gateway", "token"]).output
        let body = gateway.server.folder.file("channel.json")
        try #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#.write(toFile: body, atomically: true, encoding: .utf8)
        // h2load (nghttp2's client): 10 000 creations over HTTP/2, 100 streams at a time.
        let load = try runProgram([
            "h2load", "-n", "\(BroadcastChannel.maxPerApp)", "-c", "1", "-m", "100", "-d", body,
            "-H", "authorization: bearer \(token)", "http://\(gateway.address)/1/apps/\(Self.food)/channels",
        ])
        #expect(load.stdout.contains("\(BroadcastChannel.maxPerApp) succeeded"), "\(load.stdout)")
        #expect(load.stdout.contains("\(BroadcastChannel.maxPerApp) 2xx"), "\(load.stdout)")
        let over = try exchange(gateway, "POST", "/1/apps/\(Self.food)/channels", token: token,
                                body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(over.status == 400 && over.reason == "CannotCreateChannelConfig")
        let all = try exchange(gateway, "GET", "/1/apps/\(Self.food)/all-channels", token: token)
        #expect(all.body?.objectValue?["channels"]?.arrayValue?.count == BroadcastChannel.maxPerApp)
        // Another app still may make its own.
        #expect(try exchange(gateway, "POST", "/1/apps/com.example.other/channels", token: token,
                             body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#).status == 201)
    }
}

extension APNsGatewayTests {
    @Test func theChannelCommandMakesListsAndRemovesTheChannelsTheGatewayServes() throws {
        let gateway = try GatewayServer()
        let token = try gateway.run(["gateway", "token"]).output
        let added = try gateway.run(["channel", "add", "--app", Self.food, "--policy", "1"])
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.output
        #expect(BroadcastChannel.isWellFormed(id))
        let read = try exchange(gateway, "GET", "/1/apps/\(Self.food)/channels", token: token, headers: ["apns-channel-id: \(id)"])
        #expect(read.body == ["message-storage-policy": 1, "push-type": "LiveActivity"])
        let table = try gateway.run(["channel", "list"])
        #expect(table.stdout.contains(id) && table.stdout.contains(Self.food), "\(table.stdout)")
        let listed = try JSON.parse(try gateway.run(["channel", "list", "--json", "--app", Self.food]).stdout)
        #expect(listed.objectValue?["channels"]?.arrayValue?.first?.objectValue?["id"] == .string(id))
        #expect(try gateway.run(["channel", "add", "--app", Self.food, "--policy", "2"]).status == 2)
        #expect(try gateway.run(["channel", "remove", id, "--app", "com.example.other"]).stderr.contains("ChannelNotRegistered"))
        #expect(try gateway.run(["channel", "remove", id, "--app", Self.food]).status == 0)
        let again = try gateway.run(["channel", "remove", id, "--app", Self.food])
        #expect(again.status != 0 && again.stderr.contains("ChannelNotRegistered"), "\(again.stderr)")
        #expect(try exchange(gateway, "GET", "/1/apps/\(Self.food)/all-channels", token: token).body == ["channels": []])
    }
}
