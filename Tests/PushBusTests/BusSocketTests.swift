import Foundation
import Glibc
import PushBus
import PushCore
import Testing
import TestSupport

/// The bus's own socket to a real broker (a private mosquitto), driven as the server's loop
/// drives it: `pollEntries`, `poll(2)`, `ready`, `turnEnded`.
@Suite struct BusSocketTests {
    /// Nagle's algorithm holds a small packet while an earlier one is unacknowledged, and the
    /// peer delays its ACK (up to 40 ms on Linux): a receipt written right after a PUBACK waited
    /// that long. The bus's socket has TCP_NODELAY, so each packet leaves when written.
    @Test func theBrokerConnectionSendsEachPacketAtOnce() throws {
        let broker = try MosquittoBroker()
        let configuration = BusConfiguration(host: "127.0.0.1", port: broker.port, id: "nodelay")
        let bus = try Bus(configuration, outbox: [], log: { _ in })
        defer { bus.close() }
        let deadline = Date().addingTimeInterval(10)
        while bus.state != .connected && Date() < deadline {
            var entries: [pollfd] = []
            bus.pollEntries(into: &entries)
            let wait = Int32(clamping: min(bus.timeout() ?? 100, 100))
            _ = poll(&entries, nfds_t(entries.count), wait)
            for entry in entries where entry.revents != 0 { bus.ready(entry) }
            bus.turnEnded()
        }
        try #require(bus.state == .connected, "the bus did not connect: \(broker.log)")
        var entries: [pollfd] = []
        bus.pollEntries(into: &entries)
        let fd = try #require(entries.first?.fd)
        var flag: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &flag, &length) == 0)
        #expect(flag != 0)
    }
}
