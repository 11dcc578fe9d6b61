import Foundation
import PushCore
import Testing
import TestSupport

/// One decoder configuration for the server's life, through the real binary: a held message is
/// decoded again with the server's `--max-payload`, not the default.
@Suite struct DecoderConfigurationTests {
    @Test func aHeldMessageIsDecodedAgainWithMaxPayload() throws {
        let server = try ServerProcess(extraArguments: ["--max-payload", "8192"])
        #expect(try server.run(["app", "terminated"]).status == 0)
        let payload = PayloadBuilder.getui(
            payload: .string(String(repeating: "x", count: 4_900)), appId: "com.example.news", autoBadge: "7")
        #expect(payload.utf8.count > 4_096 && payload.utf8.count < 8_192)
        let sent = try server.run(["send", "-"], stdin: Data(payload.utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains(#""held":true"#), "\(sent.stdout)")
        #expect(try server.run(["app", "foreground"]).status == 0)
        #expect(try server.run(["badge", "--app", "com.example.news"]).output == "7")
        // And after a restart, when the held message is read back from the store.
        #expect(try server.run(["app", "terminated"]).status == 0)
        #expect(try server.run(["send", "-"], stdin: Data(payload.utf8)).status == 0)
        server.stop()
        let again = try ServerProcess(folder: server.folder, extraArguments: ["--max-payload", "8192"])
        #expect(try again.run(["app", "foreground"]).status == 0)
        #expect(try again.run(["badge", "--app", "com.example.news"]).output == "7")
    }
}
