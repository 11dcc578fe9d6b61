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
}
