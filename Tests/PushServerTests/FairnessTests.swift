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
    func serverWithClient(limit: Int, replyHighWater: Int = ServerOptions().replyHighWater) throws -> (Server, Int32) {
        var options = ServerOptions()
        options.maxRequestsPerTurn = limit
        options.replyHighWater = replyHighWater
        let server = try Server(store: try Store.inMemory(), listener: nil, signals: nil, options: options)
        return (server, attachClient(to: server).fd)
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

    /// One client cannot stall the others, in-process: one turn stops handling a client once the
    /// replies queued for it reach the high-water mark; the rest wait, framed, and come in order as
    /// it reads.
    @Test func aTurnStopsHandlingAClientWhoseRepliesReachTheHighWaterMark() throws {
        let (server, client) = try serverWithClient(limit: 1000, replyHighWater: 64 * 1024)
        defer { close(client) }
        let body = String(repeating: "m", count: 3_900)
        let pushes = (0..<20).map { #"{"aps":{"alert":{"title":"n\#($0)","body":"\#(body)"}}}"# + "\n" }.joined()
        #expect(send(client, pushes, pushes.utf8.count, 0) == pushes.utf8.count)
        server.turn(host: nil)
        #expect(replies(on: client).count == 20)

        // Each page of 20 is ~160 KB (a message's text and its payload), past the 64 KiB mark alone.
        let list = #"{"op":"list","limit":20}"# + "\n"
        let lists = String(repeating: list, count: 16)
        #expect(send(client, lists, lists.utf8.count, 0) == lists.utf8.count)
        server.turn(host: nil)
        let connection = try #require(server.clients.values.first)
        #expect(connection.backlog, "every page was handled in one turn")
        var bytes = received(on: client)
        let firstTurn = bytes.count + connection.pendingOutput

        var turns = 1
        while bytes.filter({ $0 == UInt8(ascii: "\n") }).count < 16 && turns < 100 {
            server.turn(host: nil)
            bytes += received(on: client)
            turns += 1
        }
        let pages = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(pages.count == 16)
        // One page (past the mark alone) in the first turn, not all sixteen.
        let pageBytes = (pages.first?.utf8.count ?? 0) + 1
        #expect(firstTurn == pageBytes, "\(firstTurn) bytes queued in one turn; a page is \(pageBytes)")
        #expect(pages.allSatisfy { $0.hasPrefix(#"{"ok":true,"messages":[{"#) })
    }
}
