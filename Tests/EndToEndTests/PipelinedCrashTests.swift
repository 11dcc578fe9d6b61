import Foundation
import Glibc
import PushCore
import PushJSON
import Testing
import TestSupport

/// `kill -9` while a client pipelines thousands of pushes — the turns the server writes on its
/// writer thread, reading the next requests ahead while each commits: after the restart every
/// acknowledged push is stored, and what is stored is what was sent, in order, up to some push
/// (a turn is all or nothing, and turns commit in order).
@Suite struct PipelinedCrashTests {
    static let count = 20_000

    @Test(arguments: [UInt64(1), 2, 3])
    func killNineDuringAPipelinedIngestKeepsEveryAcknowledgedPushInOrder(seed: UInt64) throws {
        let folder = TempFolder()
        let server = try ServerProcess(folder: folder)
        let killAfter = 1_000 + Int(seed &* 2_311 % 9_000)
        let client = try RawClient(path: server.socket)
        let stream = Array((1...Self.count).map {
            #"{"aps":{"alert":{"title":"p\#($0)","body":"pipelined until the kill"}},"Simulator Target Bundle":"com.example.crash"}"# + "\n"
        }.joined().utf8)
        // The server is killed while this still sends: its error ends the thread.
        Thread { try? client.send(stream) }.start()

        var acknowledged = 0
        while acknowledged < killAfter {
            let reply = try client.readReply()
            #expect(reply["ok"] == true && reply["id"] == .number(JSONNumber(acknowledged + 1)), "reply \(acknowledged + 1): \(reply)")
            acknowledged += 1
        }
        server.kill9()

        let restarted = try ServerProcess(folder: folder)
        let reader = try RawClient(path: restarted.socket)
        var titles: [String] = []
        var before: Int64?
        while true {
            let query = before.map { #"{"op":"list","limit":1000,"before":\#($0)}"# } ?? #"{"op":"list","limit":1000}"#
            let page = try #require(try reader.request(query)["messages"]?.arrayValue)
            guard let oldest = page.last?.objectValue?["id"]?.intValue else { break }
            titles += page.compactMap { $0.objectValue?["title"]?.stringValue }
            before = Int64(oldest)
        }
        titles.reverse()
        print("pipelined crash, seed \(seed): kill -9 after \(acknowledged) acknowledged pushes, \(titles.count) stored")
        #expect(titles.count >= acknowledged, "acknowledged \(acknowledged), stored \(titles.count)")
        #expect(titles.count <= Self.count)
        #expect(titles == (0..<titles.count).map { "p\($0 + 1)" }, "not the pushes sent, in order, up to one")
    }
}
