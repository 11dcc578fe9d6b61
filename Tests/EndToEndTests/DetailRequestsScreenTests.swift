import Foundation
import Testing
import TestSupport

/// A person watching a demo sees the backend's retries arrive: on the real screen (tmux), the
/// detail view of a message a fault refused first lists the faulted attempt and the request that
/// carried it, and a later attempt at the same notification shows up while the view is open.
@Suite struct DetailRequestsScreenTests {
    @Test func theDetailViewListsTheFaultedAttemptsAndTheRequestThatCarriedTheMessage() throws {
        let ui = try GatewayScreen(folder: TempFolder(), width: 110, height: 50)
        let tmux = ui.tmux, socket = ui.socket
        let armed = try runPushdeck(["fault", "add", "--vendor", "apns", "--status", "500", "--count", "1", "--socket", socket])
        #expect(armed.status == 0, "\(armed.stderr)")

        let token = String(repeating: "7c", count: 32)
        let apnsId = "5e3f1c2a-0b4d-4e6f-8a9b-0c1d2e3f4a5b"
        func push() throws -> String {
            try Spawn.run(["curl", "-sS", "--http2", "--cacert", ui.caPath, "-o", "/dev/null", "-w", "%{http_code}",
                           "-H", "apns-topic: com.example.shop", "-H", "apns-id: \(apnsId)",
                           "-H", "authorization: \(APNsKeys.wellFormedAuthorization)",
                           "--data-binary", #"{"aps":{"alert":{"title":"Retried order","body":"sent twice"}}}"#,
                           "https://localhost:\(ui.port)/3/device/\(token)"], captureOutput: true).output
        }
        #expect(try push() == "500")
        #expect(try push() == "200")
        #expect(tmux.waitFor { $0.contains("Retried order") } != nil, "\(tmux.capture())")

        try tmux.sendKeys("Enter")
        let detail = tmux.waitFor { $0.contains("provider requests (2)") && $0.contains("OK, this message") }
        let screen = try #require(detail, "\(tmux.capture())")
        let lines = screen.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex { $0.contains("provider requests (2)") })
        try #require(lines.count > heading + 2, "\(screen)")
        let faulted = lines[heading + 1], carried = lines[heading + 2]
        #expect(faulted.contains("500") && faulted.contains("InternalServerError") && faulted.contains("fault 1"), "\(screen)")
        #expect(carried.contains("200") && carried.contains("OK, this message") && carried.contains("+"), "\(screen)")

        // The backend sends the same notification again: the open view follows.
        #expect(try push() == "200")
        let again = tmux.waitFor { $0.contains("provider requests (3)") }
        #expect(again != nil, "\(tmux.capture())")
        try tmux.sendKeys("q")
        #expect(tmux.exitStatus() == 0)
    }
}
