import Foundation
import Glibc
import PushCore
import PushStore
import Testing
@testable import PushServer

/// The per-turn request limit, turn by turn, on a socket pair: what was read but not handled
/// waits for the next turn, and is answered before the connection closes.
@Suite struct FairnessTests {
    /// A server whose one client is the far end of the returned socket.
    func serverWithClient(limit: Int) throws -> (Server, Int32) {
        var options = ServerOptions()
        options.maxRequestsPerTurn = limit
        let server = try Server(store: try Store.inMemory(), listener: nil, signals: nil, options: options)
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        server.clients[pair[0]] = Connection(fd: pair[0], maxObjectBytes: options.maxObjectBytes)
        return (server, pair[1])
    }

    func replies(on fd: Int32) -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func requestsBeyondTheLimitWaitForTheNextTurnAndAreAllAnsweredBeforeTheClose() throws {
        let (server, client) = try serverWithClient(limit: 1000)
        defer { close(client) }
        // Exactly one full read of pings (the read buffer is 64 KiB), then the end of the
        // stream: the first turn reads both, and answers the first thousand.
        let ping = #"{"op":"ping"}"#
        let count = 65536 / ping.utf8.count
        let requests = String(repeating: ping, count: count) + String(repeating: " ", count: 65536 % ping.utf8.count)
        #expect(requests.utf8.count == server.readBuffer.count)
        #expect(send(client, requests, requests.utf8.count, 0) == requests.utf8.count)
        shutdown(client, Int32(SHUT_WR))

        server.turn(host: nil)
        var answered = replies(on: client).count
        #expect(answered == 1000)
        #expect(server.clients.count == 1, "closed with requests still unanswered")
        var turns = 1
        while !server.clients.isEmpty && turns < 100 {
            server.turn(host: nil)
            answered += replies(on: client).count
            turns += 1
        }
        #expect(answered == count)
        #expect(turns == (count + 999) / 1000, "one turn per thousand, then closed")
        #expect(server.clients.isEmpty)
    }
}
