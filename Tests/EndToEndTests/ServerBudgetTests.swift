import Foundation
import PushCore
import Testing
import TestSupport

/// One client's requests cannot take the server's memory or stall the others:
/// the bytes queued for a client are bounded within a loop turn, not only between turns.
@Suite struct ServerBudgetTests {
    @Test func aClientListingBigPagesAndNeverReadingKeepsMemoryBoundedAndPingFast() throws {
        let server = try ServerProcess()
        // 1 000 messages of ~3.9 KB each: a page of 1 000 is a reply of ~4 MB.
        let seeder = try RawClient(path: server.socket, timeout: 30)
        let body = String(repeating: "m", count: 3_900)
        let pushes = (0..<1_000).map { index in
            #"{"aps":{"alert":{"title":"n\#(index)","body":"\#(body)"}},"Simulator Target Bundle":"com.example.a"}"# + "\n"
        }.joined()
        try seeder.send(pushes)
        for index in 0..<1_000 {
            let reply = try seeder.readReply()
            try #require(reply["ok"] == true, "push \(index): \(reply)")
        }
        let pid = server.process.processIdentifier
        let before = try #require(ProcessStatus.residentBytes(of: pid))

        // 64 pages of 1 000 on one connection that never reads: 1.7 KB sent, ~260 MB of replies.
        let hog = try RawClient(path: server.socket, timeout: 30)
        try hog.send(String(repeating: #"{"op":"list","limit":1000}"# + "\n", count: 64))

        // The turn that was handling the hog when the first ping arrived may finish first; after
        // that, every ping is answered at once.
        _ = try RawClient(path: server.socket, timeout: 60).request(#"{"op":"ping"}"#)
        let other = try RawClient(path: server.socket, timeout: 5)
        var slowest = 0.0
        var largest = 0
        for _ in 0..<20 {
            let started = Date()
            let reply = try other.request(#"{"op":"ping"}"#)
            slowest = max(slowest, Date().timeIntervalSince(started))
            #expect(reply["ok"] == true)
            largest = max(largest, ProcessStatus.residentBytes(of: pid) ?? 0)
            usleep(20_000)
        }
        #expect(slowest < 0.1, "a ping took \(slowest) s while a client held unread pages")
        let grown = largest - before
        print("budget: RSS \(before >> 20) MB before, \(largest >> 20) MB at most with 64 unread pages; slowest ping \(String(format: "%.1f", slowest * 1000)) ms")
        #expect(grown < 64 << 20, "the server grew by \(grown >> 20) MB for one client's unread replies")

        // Once the hog reads, its pages come, whole and in order. (Only the first four are read
        // here: every page costs the server a 4 MB reply to build, and the test shares the
        // machine; FairnessTests reads every page of a smaller run in-process.)
        let pages = try replyLines(from: hog, count: 4)
        #expect(pages.count == 4)
        #expect(pages.allSatisfy { $0.starts(with: Array(#"{"ok":true,"messages":[{"#.utf8)) && $0.count > 3_900_000 })
        #expect(try other.request(#"{"op":"ping"}"#)["ok"] == true)
    }

    /// Reads `count` lines from the client's socket; each is returned as its first 32 bytes and
    /// its length.
    private func replyLines(from client: RawClient, count: Int) throws -> [LineSummary] {
        var lines: [LineSummary] = []
        var current = LineSummary()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while lines.count < count {
            let received = recv(client.fd, &chunk, chunk.count, 0)
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { throw RawClientError("the server stopped after \(lines.count) pages") }
            var start = 0
            while start < received {
                // memchr: a byte-by-byte loop over 260 MB is slow in a debug build.
                let newline = chunk.withUnsafeBytes { raw -> Int? in
                    guard let base = raw.baseAddress,
                        let found = memchr(base + start, Int32(UInt8(ascii: "\n")), received - start)
                    else { return nil }
                    return base.distance(to: UnsafeRawPointer(found))
                }
                let end = newline ?? received
                current.add(chunk[start..<end])
                if let newline {
                    lines.append(current)
                    current = LineSummary()
                    start = newline + 1
                } else {
                    start = received
                }
            }
        }
        return lines
    }
}

/// A long line seen as its first bytes and its length.
struct LineSummary {
    var head: [UInt8] = []
    var count = 0
    mutating func add(_ bytes: ArraySlice<UInt8>) {
        if head.count < 32 { head += bytes.prefix(32 - head.count) }
        count += bytes.count
    }
    func starts(with prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
}
