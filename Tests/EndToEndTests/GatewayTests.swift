import Foundation
import Testing
import TestSupport

/// The provider gateway through the real binary and a real port, with clients nobody here wrote.
// Serialized: each test runs a server, curl and openssl; a dozen at once starved the timing-sensitive
// screen tests running beside them on a 2-core machine.
@Suite(.serialized) struct GatewayTests {
    static let payload = #"{"aps":{"alert":{"title":"Gateway","body":"via the gateway"}}}"#

    @Test(arguments: [
        (["--http2"], true, "2"),
        (["--http1.1"], true, "1.1"),
        (["--http2-prior-knowledge"], false, "2"),
        (["--http1.1"], false, "1.1"),
    ])
    func curlPushReachesTheInbox(flags: [String], tls: Bool, version: String) throws {
        let gateway = try GatewayServer()
        let result = try gateway.curl(flags + ["-H", "apns-id: 123e4567-e89b-12d3-a456-426614174000", "-D", "-"],
                                      tls: tls, body: Self.payload, topic: "com.example.\(tls ? "tls" : "clear")")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasSuffix("200 \(version)"), "\(result.output)")
        #expect(result.output.lowercased().contains("apns-id: 123e4567-e89b-12d3-a456-426614174000"))
        let list = try gateway.listJSON()
        #expect(list.contains("via the gateway"), "\(list)")
        #expect(list.contains("com.example.\(tls ? "tls" : "clear")"), "\(list)")
    }

    @Test func unknownPathIsAnsweredAndNothingIsStored() throws {
        let gateway = try GatewayServer()
        let result = try gateway.curl(["--http2"], path: "/3/nothing", tls: true, body: Self.payload)
        #expect(result.output.hasSuffix("404 2"), "\(result.output)")
        #expect(result.output.contains(#"{"reason":"BadPath"}"#))
        #expect(try gateway.listJSON().trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func gatewayCommandNamesAddressAndCA() throws {
        let gateway = try GatewayServer()
        #expect(gateway.address == "127.0.0.1:\(gateway.port)")
        #expect(gateway.ca == gateway.server.folder.file("data") + "/pushdeck/tls/ca.pem")
        // Keys are private to their owner; certificates are not secret.
        for key in ["ca-key.pem", "server-key.pem"] {
            let mode = try FileManager.default.attributesOfItem(atPath: gateway.server.folder.file("data/pushdeck/tls/\(key)"))[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(key) has mode \(String(mode ?? 0, radix: 8))")
        }
        // The certificate is for localhost, 127.0.0.1 and ::1, signed by the CA, a v3 certificate.
        let text = try Spawn.run(["openssl", "x509", "-in", gateway.server.folder.file("data/pushdeck/tls/server.pem"), "-noout", "-text"], captureOutput: true).output
        #expect(text.contains("DNS:localhost") && text.contains("IP Address:127.0.0.1") && text.contains("IP Address:0:0:0:0:0:0:0:1"), "\(text)")
        let verified = try Spawn.run(["openssl", "verify", "-CAfile", gateway.ca, gateway.server.folder.file("data/pushdeck/tls/server.pem")], captureOutput: true)
        #expect(verified.status == 0, "\(verified.output)")
    }

    @Test func certificateIsMadeOnceAndReused() throws {
        let folder = TempFolder()
        let first = try GatewayServer(folder: folder)
        let ca = try String(contentsOfFile: first.ca, encoding: .utf8)
        first.server.stop()
        let second = try GatewayServer(folder: folder)
        #expect(try String(contentsOfFile: second.ca, encoding: .utf8) == ca)
        #expect(try second.curl(["--http2"], tls: true, body: Self.payload).output.hasSuffix("200 2"))
    }

    @Test func gatewayCommandWithoutAGatewaySaysSo() throws {
        let server = try ServerProcess(memory: true)
        let result = try server.run(["gateway"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("runs no gateway; start it with --gateway"), "\(result.stderr)")
        #expect(try server.run(["gateway", "ca"]).status == 1)
    }

    @Test func givenCertificateIsUsedAndHasNoCA() throws {
        let folder = TempFolder()
        // A self-signed certificate made by the openssl tool, not by pushdeck.
        let made = try Spawn.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                  "-keyout", folder.file("key.pem"), "-out", folder.file("cert.pem"), "-days", "1",
                                  "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], captureOutput: true)
        #expect(made.status == 0)
        let gateway = try GatewayServer(extraArguments: ["--tls-cert", folder.file("cert.pem"), "--tls-key", folder.file("key.pem")])
        #expect(gateway.ca.isEmpty)
        let result = try Spawn.run(["curl", "-sS", "--http2", "--cacert", folder.file("cert.pem"), "-o", "/dev/null", "-w", "%{http_code}",
                                    "-H", "apns-topic: a.b", "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "--data-binary", Self.payload, "https://localhost:\(gateway.port)/3/device/00ff"], captureOutput: true)
        #expect(result.output == "200")
    }

    @Test func badGatewayFlagsAreUsageErrors() throws {
        let folder = TempFolder()
        for arguments in [["--gateway", "nohost"], ["--gateway", "127.0.0.1:99999"], ["--tls-cert", "x"], ["--gateway", "--tls-cert", "x"]] {
            let result = try runPushdeck(["serve", "--socket", folder.file("s.sock"), "--memory"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
    }

    @Test func nonLoopbackGatewaySpeaksTLSOnly() throws {
        let gateway = try GatewayServer(host: "0.0.0.0")
        let clear = try gateway.curl(["--http1.1"], tls: false, body: Self.payload)
        #expect(!clear.output.hasSuffix("200 1.1"), "\(clear.output)")
        let tls = try gateway.curl(["--http2"], tls: true, body: Self.payload)
        #expect(tls.output.hasSuffix("200 2"), "\(tls.output)")
    }
}

/// A gateway push on the real screen (tmux): the banner, and the footer naming the gateway.
@Suite struct GatewayScreenTests {
    @Test func gatewayPushShowsABannerAndTheFooterNamesTheGateway() throws {
        let screen = try GatewayScreen(folder: TempFolder())
        let tmux = screen.tmux, address = screen.address, port = screen.port, ca = screen.caPath
        let footer = tmux.waitFor { $0.contains("gateway \(address)") }
        #expect(footer != nil, "footer: \(tmux.capture())")
        let sent = try Spawn.run(["curl", "-sS", "--http2", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}",
                                  "-H", "apns-topic: com.example.banner", "-H", "authorization: \(APNsKeys.wellFormedAuthorization)", "--data-binary",
                                  #"{"aps":{"alert":{"title":"From the backend","body":"over APNs HTTP/2"}}}"#,
                                  "https://localhost:\(port)/3/device/00ff"], captureOutput: true)
        #expect(sent.output == "200")
        let banner = tmux.waitFor(timeout: 2) { $0.contains("From the backend") && $0.contains("over APNs HTTP/2") }
        #expect(banner != nil, "no banner: \(tmux.capture())")
        try tmux.sendKeys("q")
    }
}
