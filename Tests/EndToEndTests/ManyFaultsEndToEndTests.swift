import Foundation
import PushJSON
import Testing
import TestSupport

/// Ten thousand faults through the socket op on one connection: armed quickly, the one bad
/// fault among them refused alone (the others armed, nothing of it armed), and a push none of
/// them matches still answered by the vendor, unfaulted.
@Suite struct ManyFaultsEndToEndTests {
    @Test func tenThousandFaultsArmQuicklyABadOneIsRefusedAloneAndUnfaultedPushesPass() throws {
        let gateway = try GatewayServer()
        let client = try RawClient(path: gateway.server.socket, timeout: 30)
        let total = 10_001, bad = 5_000
        func line(_ index: Int) -> String {
            index == bad
                ? #"{"op":"fault","action":"add","vendor":"apns","token":"bad","status":500,"rate":2}"# + "\n"
                : #"{"op":"fault","action":"add","vendor":"apns","token":"ffff\#(String(index, radix: 16))","status":500}"# + "\n"
        }
        var refused: [Int: String] = [:]
        let clock = ContinuousClock()
        let started = clock.now
        // In batches of 500 lines, each batch's replies read before the next is sent.
        for first in stride(from: 0, to: total, by: 500) {
            let batch = first..<min(first + 500, total)
            try client.send(batch.map(line).joined())
            for index in batch {
                let reply = try client.readReply()
                if reply["ok"] == false { refused[index] = reply["error"]?.stringValue ?? "" }
            }
        }
        let elapsed = clock.now - started
        #expect(refused.keys.sorted() == [bad], "\(refused.prefix(3))")
        #expect(refused[bad]?.contains("--rate takes a probability from 0 to 1") == true, "\(refused[bad] ?? "")")
        #expect(elapsed < .seconds(15), "\(elapsed) to arm 10 000 faults")

        let listed = try client.request(#"{"op":"fault","action":"list"}"#)
        let faults = listed["faults"]?.arrayValue ?? []
        #expect(faults.count == 10_000)
        #expect(!faults.contains { $0.objectValue?["token"] == "bad" || $0.objectValue?["rate"] != nil })

        let pushed = try gateway.curl(["--http2"], path: "/3/device/0123abcd", tls: true, body: FaultEndToEndTests.payload)
        #expect(pushed.output.hasSuffix("200 2"), "\(pushed.output)")
        let records = try RequestLogEndToEndTests.records(gateway)
        #expect(records.count == 1 && records.first?["status"] == 200 && records.first?["fault"] == nil, "\(records)")
    }
}
