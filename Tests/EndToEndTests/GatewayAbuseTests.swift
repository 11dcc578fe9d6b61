import Foundation
import PushGateway
import Testing
import TestSupport

/// Bad input at the gateway: each gets a protocol-correct refusal or close, and the gateway goes
/// on serving everyone else.
// Serialized for the same reason as GatewayTests: floods and handshakes, one server at a time.
@Suite(.serialized) struct GatewayAbuseTests {
    static let payload = #"{"aps":{"alert":"still served"}}"#

    /// A good client still gets its push through (and it is stored).
    func stillServes(_ gateway: GatewayServer, _ context: String) throws {
        let result = try gateway.curl(["--http2"], tls: true, body: Self.payload)
        #expect(result.output.hasSuffix("200 2"), "after \(context): \(result.output)")
    }

    @Test func http1GarbageIsAnswered400AndClosed() throws {
        let gateway = try GatewayServer()
        let raw = try RawTCP(port: gateway.port)
        // Not HTTP/1.1 past the method (a method the parser does not know is VendorRefusalTests').
        raw.send("POST /3/device/00ff HTTP/1.1\r\nContent-Length: zz\r\n\r\n")
        let (bytes, closed) = raw.readUntilClosed()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(text)")
        #expect(text.hasSuffix(#"{"reason":"MalformedRequest"}"#), "\(text)")
        #expect(closed)
        try stillServes(gateway, "garbage")
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let gateway = try GatewayServer()
        let raw = try RawTCP(port: gateway.port)
        let body = Self.payload
        raw.send("GET /nope HTTP/1.1\r\nHost: a\r\n\r\n"
                 // Header names in any case: HTTP/1.1's are case-insensitive.
                 + "POST /3/device/00ff HTTP/1.1\r\nHost: a\r\nAPNS-Topic: a.b\r\nAuthorization: \(APNsKeys.wellFormedAuthorization)\r\nContent-LENGTH: \(body.utf8.count)\r\n\r\n\(body)"
                 + "GET /again HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let text = String(decoding: raw.readUntilClosed().bytes, as: UTF8.self)
        // Bodies have no line end after them: find every status line wherever it starts.
        let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + ($0.components(separatedBy: "\r\n").first ?? "") }
        #expect(statuses == ["HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"], "\(text)")
    }

    @Test(arguments: [(["--http1.1"], false, "1.1"), (["--http2-prior-knowledge"], false, "2"), (["--http2"], true, "2")])
    func oversizedHeadersAndBodiesAreRefused(flags: [String], tls: Bool, version: String) throws {
        let gateway = try GatewayServer()
        let big = try gateway.curl(flags + ["-H", "x-big: " + String(repeating: "h", count: 20_000)], tls: tls, body: Self.payload)
        #expect(big.output.hasSuffix("431 \(version)"), "\(big.output)")
        let huge = try gateway.curl(flags, tls: tls, body: String(repeating: "b", count: 70_000))
        #expect(huge.output.hasSuffix("413 \(version)"), "\(huge.output)")
        #expect(try gateway.listJSON().trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        try stillServes(gateway, "oversized requests")
    }

    @Test func garbageInsteadOfAClientHelloIsClosed() throws {
        let gateway = try GatewayServer()
        let raw = try RawTCP(port: gateway.port)
        raw.send([0x16, 0x03, 0x01, 0x00, 0x05] + Array("junk!junk!junk!".utf8))
        let (_, closed) = raw.readUntilClosed()
        #expect(closed)
        try stillServes(gateway, "a bad ClientHello")
    }

    @Test func aClientHelloWithNoCommonALPNIsRefusedWithTheAlert() throws {
        let gateway = try GatewayServer()
        let result = try Spawn.run(
            ["sh", "-c", "openssl s_client -connect 127.0.0.1:\(gateway.port) -alpn spdy/3 -CAfile \(gateway.ca) </dev/null 2>&1"],
            captureOutput: true)
        #expect(result.output.contains("no application protocol"), "\(result.output)")
        // Offering no ALPN at all is fine: HTTP/1.1.
        let plain = try Spawn.run(["curl", "-sS", "--no-alpn", "--http1.1", "--cacert", gateway.ca, "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
                                   "-H", "apns-topic: a.b", "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "--data-binary", Self.payload, "https://localhost:\(gateway.port)/3/device/00ff"], captureOutput: true)
        #expect(plain.output == "200 1.1", "\(plain.output)")
        try stillServes(gateway, "no common ALPN")
    }

    @Test(arguments: ["garbage", "rapid-reset", "continuation", "tls-garbage"])
    func http2AbuseEndsTheConnection(mode: String) throws {
        let gateway = try GatewayServer()
        let result = try TestVenv.run("h2_abuse.py", [mode, String(gateway.port)])
        let outcome = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        // GOAWAY (nghttp2's verdict) or the connection closed; never left open, never a crash.
        #expect(outcome.hasPrefix("goaway") || outcome == "closed", "\(mode): \(result.output)")
        try stillServes(gateway, mode)
        #expect(try gateway.listJSON().contains("still served"))
    }

    @Test func aSettingsFloodThatNeverReadsStaysBoundedAndOthersGoOn() throws {
        let gateway = try GatewayServer()
        let result = try TestVenv.run("h2_abuse.py", ["settings-flood", String(gateway.port)])
        #expect(result.output.hasPrefix("sent"), "\(result.output)")
        try stillServes(gateway, "a SETTINGS flood")
        let rss = try String(contentsOfFile: "/proc/\(gateway.server.process.processIdentifier)/status", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        #expect((rss ?? Int.max) < 128 * 1024, "RSS \(rss ?? -1) kB")
    }

    /// Bodies that never end are held within the connection's flow-control window: a client
    /// that keeps to flow control gets to send at most that much per connection, and the
    /// server's memory grows by about that much, not by everything 128 streams would send.
    @Test func unfinishedHTTP2BodiesAreBoundedByTheConnectionWindow() throws {
        let gateway = try GatewayServer()
        let pid = gateway.server.process.processIdentifier
        let connections = 12
        let result = try TestVenv.run("h2_abuse.py", ["unfinished-bodies", String(gateway.port), String(connections), String(pid)])
        let report = try #require(try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let sent = try #require(report["sent"] as? [Int], "\(result.output)")
        let before = try #require(report["rss_before_kb"] as? Int)
        let held = try #require(report["rss_held_kb"] as? Int)
        let cap = GatewayLimits().maxBufferedRequestBytes
        print("unfinished bodies: \(connections) connections sent \(sent.max() ?? 0) bytes at most each; RSS \(before) → \(held) kB")
        #expect(sent.count == connections)
        #expect(sent.allSatisfy { $0 <= cap }, "a connection sent more than its \(cap)-byte window: \(sent)")
        // The bodies held (12 × 1 MiB) plus what the connections cost.
        #expect(held - before < connections * (cap / 1024) + 16 * 1024, "RSS \(before) → \(held) kB")
        try stillServes(gateway, "unfinished bodies")
    }

    /// RFC 9113 §6.8: once nghttp2's reset limit has queued a GOAWAY, streams above its
    /// last_stream_id are not processed — the client retries them, so storing them would be a
    /// duplicate. None of the 50 pushes after the resets is stored; every push answered 200 is.
    @Test func streamsPastTheGoawayAreNotStored() throws {
        let gateway = try GatewayServer()
        let result = try TestVenv.run("h2_abuse.py", ["resets-then-pushes", String(gateway.port), APNsKeys.wellFormedAuthorization])
        let report = try #require(try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let last = try #require(report["last_stream_id"] as? Int, "no GOAWAY: \(result.output)")
        let answered = try #require(report["ok"] as? [Int])
        let listed = try gateway.listJSON()
        let stored = (0..<50).map { 601 + 2 * $0 }.filter { listed.contains("after-\($0)\"") }
        print("streams past GOAWAY: last_stream_id \(last), \(stored.count) of the 50 later pushes stored, \(answered.count) answered")
        #expect(stored.allSatisfy { $0 <= last }, "stored past last_stream_id \(last): \(stored)")
        #expect(stored.isEmpty, "\(stored)")
        // Nothing acknowledged is lost: every stream answered 200 is stored.
        for stream in answered where stream >= 601 {
            #expect(listed.contains("after-\(stream)\""), "stream \(stream) was answered 200 but is not stored")
        }
        try stillServes(gateway, "resets then pushes")
    }

    /// A request is timed from its first byte: a body trickling in (HTTP/1.1) or an unfinished
    /// stream kept company by PINGs (HTTP/2) is closed once the request timeout has passed,
    /// however often bytes come.
    @Test(arguments: ["http1-trickle", "h2-trickle"])
    func aTrickleIsClosedAtTheRequestTimeout(mode: String) throws {
        let gateway = try GatewayServer(extraArguments: ["--request-timeout", "2"])
        let result = try TestVenv.run("h2_abuse.py", [mode, String(gateway.port), "8"])
        // The first line: how long until the close (the answer before it is VendorRefusalTests').
        let outcome = result.output.components(separatedBy: "\n").first ?? ""
        print("\(mode) with --request-timeout 2: \(result.output)")
        #expect(outcome.hasPrefix("closed after "), "\(mode): \(result.output)")
        // The sweep runs once a second: closed between 2 and 4 s after the first byte.
        let seconds = Double(outcome.dropFirst("closed after ".count)) ?? 99
        #expect(seconds >= 1.9 && seconds < 4.5, "\(mode): \(outcome)")
        try stillServes(gateway, mode)
    }
}

