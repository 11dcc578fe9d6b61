import Foundation
import Glibc
import Testing
@testable import PushServer

/// A client of `server` on a socket pair: the server's end is one of its connections, the
/// other end (returned) is the test's.
func attachClient(to server: Server) -> (connection: Connection, fd: Int32) {
    var pair: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
    let connection = Connection(fd: pair[0], maxObjectBytes: server.options.maxObjectBytes)
    server.clients[pair[0]] = connection
    return (connection, pair[1])
}

/// Every byte waiting on `fd` now.
func received(on fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        guard count > 0 else { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

/// Whether the other end of `fd` closes within `timeout` seconds, with nothing more to read
/// first. The server's close is not always the socket's: a program another test starts at that
/// moment holds a copy of every descriptor until it has closed them before its `exec`, and
/// the end of file comes when that copy goes too.
func closesByItsPeer(_ fd: Int32, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var byte: UInt8 = 0
    while true {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let waited = poll(&entry, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
        if waited > 0 { return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0 }
        if waited == 0 || errno != EINTR { return false }
    }
}

/// The reply lines waiting on `fd` now.
func replies(on fd: Int32) -> [String] {
    String(decoding: received(on: fd), as: UTF8.self).split(separator: "\n").map(String.init)
}
