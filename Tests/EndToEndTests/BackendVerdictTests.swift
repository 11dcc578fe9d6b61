import Foundation
import Testing
import TestSupport

/// Verdicts about the backend through the real binary: a small Python backend loop
/// (Tests/Clients/backend_loop.py, the standard library's http.client) pushes through the real
/// gateway, and `expect --retried` / `--stopped` / `--requests` judge what it did, both the
/// polite way (it waits and stops) and the rude way (it does not).
@Suite struct BackendVerdictTests {
    static let script = PackagePaths.root.appendingPathComponent("Tests/Clients/backend_loop.py").path

    /// `pushdeck expect ARGUMENTS -- python3 backend_loop.py …`: expect listens first, then the
    /// backend runs.
    static func expect(_ gateway: GatewayServer, _ arguments: [String], backend: [String]) throws -> CommandResult {
        let token = try gateway.server.run(["gateway", "token"]).output
        return try gateway.server.run(
            ["expect"] + arguments + ["--", "python3", script, gateway.address] + backend + ["--provider-token", token])
    }

    @Test func retriedHoldsForABackendThatBacksOffAndFailsForOneThatDoesNot() throws {
        // Strict devices: an unknown token is refused 400 BadDeviceToken, every time.
        let gateway = try GatewayServer(extraArguments: ["--devices", "strict"])
        let polite = try Self.expect(
            gateway, ["--retried", "--min-wait", "0.3", "--timeout", "10"], backend: ["bb22", "polite", "--sends", "2", "--backoff", "0.3"])
        #expect(polite.status == 0, "\(polite.stderr)")
        #expect(polite.stdout.contains("refused 400 BadDeviceToken"), "\(polite.stdout)")
        #expect(polite.stdout.contains("of the 300 ms it had to wait"), "\(polite.stdout)")

        #expect(try gateway.server.run(["reset"]).status == 0)
        let rude = try Self.expect(gateway, ["--retried", "--min-wait", "0.3", "--timeout", "10"], backend: ["bb22", "rude", "--sends", "2"])
        #expect(rude.status == 1)
        #expect(rude.stderr.contains("#1 apns to bb22 refused 400 BadDeviceToken at "), "\(rude.stderr)")
        #expect(rude.stderr.contains("sent again as #2 at "), "\(rude.stderr)")
        #expect(rude.stderr.contains("sooner than the 300 ms it had to wait"), "\(rude.stderr)")

        // The log holds both runs' requests since the reset: the rude loop's two.
        let count = try gateway.server.run(["expect", "--requests", "2", "--vendor", "apns", "--status", "400", "--timeout", "1"])
        #expect(count.status == 0, "\(count.stderr)")
        let more = try gateway.server.run(["expect", "--requests", "3", "--timeout", "0.2"])
        #expect(more.status == 1)
        #expect(more.stderr == "pushdeck expect: timed out after 0.2 s; wanted 3 requests; saw 2 of 2 requests\n")
    }

    @Test func stoppedHoldsForABackendThatStopsAtUnregisteredAndFailsAtOnceForOneThatDoesNot() throws {
        let gateway = try GatewayServer()
        #expect(try gateway.server.run(["device", "add", "aa11", "--app", "com.example.shop"]).status == 0)
        #expect(try gateway.server.run(["device", "unregister", "aa11"]).status == 0)
        let polite = try Self.expect(gateway, ["--stopped", "aa11", "--timeout", "1.5"], backend: ["aa11", "polite", "--sends", "3"])
        #expect(polite.status == 0, "\(polite.stderr)")
        // The backend's own lines first (it shares expect's output), then expect's.
        let lines = polite.stdout.split(separator: "\n")
        #expect(lines.first == "410 Unregistered", "\(polite.stdout)")
        #expect(lines.last?.hasPrefix("aa11 was answered Unregistered at ") == true, "\(polite.stdout)")
        #expect(lines.last?.hasSuffix("(#1); no request to it since") == true, "\(polite.stdout)")

        // The rude loop sends again at once: expect fails as soon as that request arrives, well
        // before its timeout.
        let started = Date()
        let rude = try Self.expect(gateway, ["--stopped", "aa11", "--timeout", "30"], backend: ["aa11", "rude", "--sends", "3"])
        #expect(rude.status == 1)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(rude.stderr.contains("wanted no request to aa11 after it was answered Unregistered at "), "\(rude.stderr)")
        #expect(rude.stderr.contains("; #2 POST /3/device/aa11 came at "), "\(rude.stderr)")

        // A token never answered so: exit 1 at the timeout.
        let never = try gateway.server.run(["expect", "--stopped", "cc33", "--timeout", "0.2"])
        #expect(never.status == 1)
        #expect(never.stderr.contains("it was never answered Unregistered (0 requests to it)"), "\(never.stderr)")

        // The control API's long-poll says the same; after seq 1 the rude run's first answer
        // (#2) is the Unregistered one and #3 came after it.
        let api = try runProgram(["curl", "-sS", "-w", " %{http_code}", "http://\(gateway.address)/pushdeck/v1/expect?stopped=aa11&since=1"])
        #expect(api.stdout.hasSuffix(" 417"), "\(api.stdout)")
        #expect(api.stdout.contains("answered Unregistered at "), "\(api.stdout)")
        #expect(api.stdout.contains(" (#2); #3 POST /3/device/aa11 came at"), "\(api.stdout)")
    }

    @Test func requestVerdictsRefuseWhatCannotBeJudged() throws {
        let server = try ServerProcess()
        for (arguments, words) in [
            (["--requests", "1", "--retried"], "--requests and --retried are separate verdicts"),
            (["--requests", "1", "--title", "x"], "--title is about the inbox"),
            (["--vendor", "apns"], "--vendor goes with --requests"),
            (["--retried", "--min-wait", "-1"], "--min-wait takes seconds from 0 to 86400"),
            (["--requests", "1", "--vendor", "socket"], "--vendor takes apns, jpush, getui, fcm"),
            (["--requests", "0"], "--requests takes a whole number from 1"),
            (["--requests", "1", "--status", "99"], "--status takes a whole number from 100 to 599"),
        ] {
            let result = try server.run(["expect"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
    }

    @Test func anInjected503WithRetryAfterIsWaitedForByThePoliteLoopAndNotByTheRude() throws {
        let gateway = try GatewayServer()
        let base = "http://\(gateway.address)/pushdeck/v1"
        func arm() throws {
            let armed = try ControlAPITests.curl("\(base)/faults", ["-X", "POST", "--data", #"{"vendor":"apns","status":503,"retryAfter":1,"count":1}"#])
            #expect(armed.status == 200, "\(armed.body)")
        }
        try arm()
        let polite = try Self.expect(gateway, ["--retried", "--after-status", "503", "--timeout", "10"], backend: ["aa11", "polite", "--backoff", "0"])
        #expect(polite.status == 0, "\(polite.stderr)")
        #expect(polite.stdout.hasPrefix("503 ServiceUnavailable\n200 \n"), "\(polite.stdout)")
        #expect(polite.stdout.contains("(retry-after 1), sent again as #2 at "), "\(polite.stdout)")

        #expect(try ControlAPITests.curl("\(base)/reset", ["-X", "POST"]).status == 200)
        try arm()
        let rude = try Self.expect(gateway, ["--retried", "--timeout", "10"], backend: ["aa11", "rude"])
        #expect(rude.status == 1)
        #expect(rude.stderr.contains("sooner than the 1000 ms it had to wait"), "\(rude.stderr)")
        // The fault was used up: the log shows the one faulted request and the accepted resend.
        let listed = try ControlAPITests.curl("\(base)/requests")
        #expect(listed.body.contains(#""status":503"#) && listed.body.contains(#""status":200"#), "\(listed.body)")
        #expect(!(try ControlAPITests.curl("\(base)/faults").body.contains(#""remaining":1"#)))
    }
}
