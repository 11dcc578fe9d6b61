import Foundation
import Testing
import TestSupport

/// A scenario is a verdict a CI job trusts, so it must mean the same played instantly (the
/// engine over memory on a manual clock) and live (the same engine in the running server).
@Suite struct PlayBothWaysTests {
    /// A Getui pass-through held while the app is terminated outlives its `offLineExpireTime`
    /// (milliseconds) before the app comes back: it expires unread, as the server decides it.
    static let heldPastItsTimeToLive = """
        {"name":"held past its time to live","steps":[
          {"state":"terminated"},
          {"app":"com.example.news","push":{"payload":{"taskId":"T1","msgId":"M1","payload":"早報","offLineExpireTime":300}}},
          {"at":0.05,"app":"com.example.news","expect":{"unread":0,"held":1,"delivered":false,"reason":"held"}},
          {"at":1.0,"state":"foreground"},
          {"at":1.1,"app":"com.example.news","expect":{"unread":0,"badge":0,"held":0}}
        ]}
        """

    @Test("a held message past its time to live expires, instantly and live")
    func aHeldMessagePastItsTimeToLiveExpiresBothWays() throws {
        let server = try ServerProcess()
        let file = server.folder.file("ttl.json")
        try Data(Self.heldPastItsTimeToLive.utf8).write(to: URL(fileURLWithPath: file))
        let instant = try runPushdeck(["play", file])
        #expect(instant.status == 0, "instant: \(instant.stdout)\(instant.stderr)")
        let live = try server.run(["play", "--live", file])
        #expect(live.status == 0, "live: \(live.stdout)\(live.stderr)")
        #expect(try server.run(["list", "--json"]).stdout.contains(#""expired":true"#))
    }

    /// The scenarios whose expects hold only as time passes (a banner's stay, an hour later):
    /// they play live onto a server on a manual clock, which the player moves to each step's time.
    /// The rest play live with `--instant` onto the system clock.
    static let timed: Set<String> = ["004-banner-timing.json"]

    @Test("a timed scenario reports the same instantly and live on a manual clock", arguments: timed.sorted())
    func aTimedScenarioReportsTheSameOnAManualClock(name: String) throws {
        let file = PackagePaths.resources.appendingPathComponent("scenarios/\(name)").path
        let server = try ServerProcess(extraArguments: ["--clock", "manual"])
        let instant = try runPushdeck(["play", "--json", file])
        #expect(instant.status == 0, "instant: \(instant.stdout)\(instant.stderr)")
        let started = Date()
        let live = try server.run(["play", "--live", "--allow-reset", "--json", file])
        #expect(live.stdout == instant.stdout, "live: \(live.stdout)\(live.stderr)\ninstant: \(instant.stdout)")
        #expect(live.status == instant.status)
        // An hour of scenario, played without waiting for it.
        #expect(Date().timeIntervalSince(started) < 30)
        let clock = try server.run(["clock", "--json"])
        #expect(clock.stdout.contains(#""clock":"manual""#), "\(clock.stdout)\(clock.stderr)")
    }

    /// The same scenario live onto the system clock without waiting is a different story: its
    /// banner never leaves, and the report says so (the manual clock is what makes it hold).
    @Test func aTimedScenarioPlayedAtOnceOnTheSystemClockFails() throws {
        let file = PackagePaths.resources.appendingPathComponent("scenarios/004-banner-timing.json").path
        let server = try ServerProcess()
        let live = try server.run(["play", "--live", "--instant", "--allow-reset", file])
        #expect(live.status == 1, "\(live.stdout)\(live.stderr)")
    }

    /// Every shipped scenario — socket pushes and pushes via the APNs, JPush, Getui and FCM gateways —
    /// gives the same report played instantly and live into a `pushdeck serve --gateway`.
    @Test("a shipped scenario reports the same instantly and live", arguments: Self.shipped())
    func aShippedScenarioReportsTheSameBothWays(name: String) throws {
        let file = PackagePaths.resources.appendingPathComponent("scenarios/\(name)").path
        let gateway = try GatewayServer()
        let instant = try runPushdeck(["play", "--json", file])
        #expect(instant.status == 0, "instant: \(instant.stdout)\(instant.stderr)")
        let live = try gateway.server.run(["play", "--live", "--instant", "--allow-reset", "--json", file])
        #expect(live.status == instant.status, "live: \(live.stdout)\(live.stderr)")
        #expect(live.stdout == instant.stdout, "live: \(live.stdout)\ninstant: \(instant.stdout)")
    }

    static func shipped() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: PackagePaths.resources.appendingPathComponent("scenarios").path)) ?? [])
            .filter { $0.hasSuffix(".json") && !timed.contains($0) }.sorted()
    }

    @Test func theShippedScenariosAreFoundAndOneGoesThroughEveryGateway() throws {
        #expect(Self.shipped().count >= 8)
        let text = try String(contentsOf: PackagePaths.resources.appendingPathComponent("scenarios/gateway-every-vendor.json"), encoding: .utf8)
        for via in ["apns", "jpush", "getui", "fcm"] { #expect(text.contains(#""via": "\#(via)""#), "\(via)") }
    }
}
