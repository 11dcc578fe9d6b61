import Foundation
import PushJSON
import Testing
import TestSupport

/// The control API through the real binary's gateway port, with curl: the messages the socket
/// lists, reset, the long-poll expect, and who may call it.
@Suite struct ControlAPITests {
    /// curl's answer: the body, then the status on the last line.
    static func curl(_ url: String, _ extra: [String] = []) throws -> (status: Int, body: String) {
        let result = try runProgram(["curl", "-sS", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}"] + extra + [url])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func messagesAreTheSocketsListAndResetClearsThem() throws {
        let gateway = try GatewayServer()
        let base = "http://\(gateway.address)/pushdeck/v1"
        for title in ["one", "two", "three"] {
            #expect(try gateway.server.run(["send", "--app", "com.example.shop", "--title", title, "--body", "b"]).status == 0)
        }
        #expect(try gateway.server.run(["send", "--app", "com.example.news", "--title", "news", "--body", "b"]).status == 0)
        let listed = try #require(try JSON.parse(gateway.server.run(["list", "--json", "--app", "com.example.shop", "--limit", "2"]).output).arrayValue)
        let answer = try Self.curl("\(base)/messages?app=com.example.shop&limit=2")
        #expect(answer.status == 200)
        let object = try #require(try JSON.parse(answer.body).objectValue)
        #expect(object["ok"] == .bool(true))
        #expect(object["messages"]?.arrayValue == listed)

        let bad = try Self.curl("\(base)/messages?limit=5000")
        #expect(bad.status == 400)
        #expect(bad.body.contains(#""ok":false"#) && bad.body.contains("from 1 to 1000"), "\(bad.body)")

        let reset = try Self.curl("\(base)/reset", ["-X", "POST"])
        #expect(reset.status == 200)
        #expect(reset.body == #"{"ok":true,"badge":0}"#)
        #expect(try gateway.server.run(["list", "--json"]).output == "[]")
    }

    @Test func expectHoldsAfterTheCommitThatMakesItTrueAndTimesOutWithExpectsLine() throws {
        let gateway = try GatewayServer()
        let base = "http://\(gateway.address)/pushdeck/v1"
        // The push is sent while the long-poll waits (or just before it asks: unread is a ledger,
        // judged when it starts too).
        let script = """
            curl -sS --max-time 20 -o - -w '\\n%{http_code}' '\(base)/expect?unread=2&app=com.example.shop&timeout=15' &
            "$PUSHDECK" send --app com.example.shop --title one --body b >/dev/null
            "$PUSHDECK" send --app com.example.shop --title two --body b >/dev/null
            wait
            """
        let held = try runProgram(
            ["bash", "-c", script], environment: ["PUSHDECK": PackagePaths.pushdeckBinary, "PUSHDECK_SOCKET": gateway.server.socket])
        #expect(held.stdout == "{\"ok\":true}\n200", "\(held.stdout) \(held.stderr)")

        let started = Date()
        let timedOut = try Self.curl("\(base)/expect?title=never&timeout=0.3")
        #expect(timedOut.status == 408)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        let expected = "timed out after 0.3 s; wanted 1 message (title /never/); saw 0 matching of 0 messages; badge 2, server badge 2, unread 2"
        #expect(timedOut.body == JSON.object(["ok": false, "error": .string(expected)]).compactText)
        // The same line the command prints.
        let command = try gateway.server.run(["expect", "--title", "never", "--timeout", "0.3"])
        #expect(command.status == 1)
        #expect(command.stderr == "pushdeck expect: \(expected)\n")

        let already = try Self.curl("\(base)/expect?since=0&count=2&title=o")
        #expect(already.status == 200, "\(already.body)")
        for (query, words) in [("unread=x", "unread takes a whole number"), ("colour=red", "unknown parameter colour"),
                               ("timeout=4000", "timeout takes seconds from 0 to 3600"), ("banner=maybe", "banner takes true or false")] {
            let refused = try Self.curl("\(base)/expect?\(query)")
            #expect(refused.status == 400, "\(query)")
            #expect(refused.body.contains(words), "\(query): \(refused.body)")
        }
    }

    /// This machine's first address that is not loopback, if it has one.
    static func outsideAddress() throws -> String? {
        let addresses = try runProgram(["hostname", "-I"]).output.split(separator: " ").map(String.init)
        return addresses.first { $0.contains(".") && !$0.hasPrefix("127.") }
    }

    @Test func onlyLoopbackPeersWithoutATokenAndEveryPeerMustSendOneWhenSet() throws {
        guard let outside = try Self.outsideAddress() else { return }
        for token in [nil, "ci-token-123"] {
            let gateway = try GatewayServer(host: "0.0.0.0", extraArguments: token.map { ["--control-token", $0] } ?? [])
            // The gateway listens beyond loopback: TLS only, its certificate names localhost.
            func call(from host: String, _ header: String?) throws -> (status: Int, body: String) {
                var extra = ["--cacert", gateway.ca, "--resolve", "localhost:\(gateway.port):\(host)"]
                if let header { extra += ["-H", header] }
                return try Self.curl("https://localhost:\(gateway.port)/pushdeck/v1/messages", extra)
            }
            if let token {
                for host in ["127.0.0.1", outside] {
                    #expect(try call(from: host, nil).status == 401, "\(host)")
                    #expect(try call(from: host, "authorization: Bearer wrong").status == 401, "\(host)")
                    #expect(try call(from: host, "authorization: Bearer \(token)").status == 200, "\(host)")
                }
            } else {
                #expect(try call(from: "127.0.0.1", nil).status == 200)
                let refused = try call(from: outside, nil)
                #expect(refused.status == 403)
                #expect(refused.body.contains("--control-token"), "\(refused.body)")
            }
        }
    }

    @Test func faultsAreArmedListedAndClearedAndResetDisarmsThem() throws {
        let gateway = try GatewayServer()
        let base = "http://\(gateway.address)/pushdeck/v1"
        let armed = try Self.curl("\(base)/faults", ["-X", "POST", "--data", #"{"vendor":"jpush","status":503,"count":2}"#])
        #expect(armed.status == 200)
        #expect(armed.body.hasPrefix(#"{"ok":true,"fault":{"id":1,"vendor":"jpush","status":503,"count":2"#), "\(armed.body)")
        #expect(try Self.curl("\(base)/faults").body.contains(#""id":1"#))
        // The socket's own checks, in its words; nothing armed by a refused one.
        let bad = try Self.curl("\(base)/faults", ["-X", "POST", "--data", #"{"vendor":"jpush","status":503,"rate":2}"#])
        #expect(bad.status == 400, "\(bad.body)")
        #expect(try Self.curl("\(base)/faults", ["-X", "POST", "--data", "[1]"]).status == 400)
        #expect(try Self.curl("\(base)/faults/1", ["-X", "POST"]).status == 404)
        #expect(try gateway.server.run(["fault", "list", "--json"]).output.contains(#""id":1"#))
        #expect(try Self.curl("\(base)/faults/1", ["-X", "DELETE"]).body == #"{"ok":true,"cleared":1}"#)
        _ = try Self.curl("\(base)/faults", ["-X", "POST", "--data", #"{"vendor":"jpush","status":503}"#])
        #expect(try Self.curl("\(base)/reset", ["-X", "POST"]).status == 200)
        #expect(try Self.curl("\(base)/faults").body == #"{"ok":true,"faults":[]}"#)
        // Control API requests are not provider requests: the log has none of them.
        #expect(try Self.curl("\(base)/requests").body == #"{"ok":true,"requests":[]}"#)
    }

    @Test func theConfigFilesControlTokenIsWantedToo() throws {
        let folder = TempFolder()
        try FileManager.default.createDirectory(atPath: folder.file("config/pushdeck"), withIntermediateDirectories: true)
        try #"{"control_token": "from-the-file"}"#.write(toFile: folder.file("config/pushdeck/config.json"), atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            folder: folder, extraArguments: ["--gateway", "127.0.0.1:0"],
            environment: ["XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data")])
        let address = try server.run(["gateway"]).output
        #expect(try Self.curl("http://\(address)/pushdeck/v1/messages").status == 401)
        #expect(try Self.curl("http://\(address)/pushdeck/v1/messages", ["-H", "authorization: Bearer from-the-file"]).status == 200)
    }

    @Test func aControlTokenIsABearerTokenAndGoesWithTheGateway() throws {
        let bad = try runPushdeck(["serve", "--memory", "--gateway", "127.0.0.1:0", "--control-token", "has space"], timeout: 10)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--control-token takes a bearer token"), "\(bad.stderr)")
        let alone = try runPushdeck(["serve", "--memory", "--control-token", "abc"], timeout: 10)
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--control-token goes with --gateway"), "\(alone.stderr)")
    }
}
