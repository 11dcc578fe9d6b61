import Foundation
import Glibc
import Testing
import TestSupport

/// Out of file descriptors, the server waits instead of spinning: no busy loop,
/// one log line for the episode, and service resumes when clients leave.
@Suite struct DescriptorLimitTests {
    @Test func moreConnectionsThanDescriptorsCostNoCPUAndServiceResumes() throws {
        let server = try ServerProcess(memory: true, shellPrefix: "ulimit -n 64")
        let pid = server.process.processIdentifier
        // 80 connections: the first ~50 are accepted, the rest wait in the kernel's queue.
        var held = try (0..<80).map { _ in try RawClient(path: server.socket, timeout: 5) }
        let deadline = Date().addingTimeInterval(10)
        while !server.serverLog.contains("Too many open files") && Date() < deadline { usleep(10_000) }
        #expect(server.serverLog.contains("Too many open files"), "\(server.serverLog)")

        // A measuring window, not a wait for something to happen: CPU over half a second.
        let ticksBefore = try #require(ProcessStatus.cpuTicks(of: pid))
        usleep(500_000)
        let ticksAfter = try #require(ProcessStatus.cpuTicks(of: pid))
        let busy = Double(ticksAfter - ticksBefore) / Double(ProcessStatus.ticksPerSecond) / 0.5
        #expect(busy < 0.1, "the server used \(Int(busy * 100)) % CPU while out of descriptors")
        let lines = server.serverLog.split(separator: "\n").filter { $0.contains("Too many open files") }
        print("descriptors: \(Int(busy * 100)) % CPU over 0.5 s out of descriptors, \(lines.count) log line(s)")
        #expect(lines.count == 1, "\(lines.count) log lines: \(lines.prefix(3))")

        // Clients leave: the queued ones are taken, and a new one is served.
        held.removeFirst(60)
        let ping = try runPushdeck(["ping", "--socket", server.socket])
        #expect(ping.status == 0, "\(ping)")
        for client in held {
            #expect(try client.request(#"{"op":"ping"}"#)["ok"] == true)
        }
        #expect(server.process.isRunning)
    }
}

/// The gateway's port out of descriptors too: its listener waits like the socket's (the same
/// pause), the socket's clients are still answered, and the gateway serves again once
/// connections close.
@Suite struct GatewayDescriptorLimitTests {
    @Test func moreGatewayConnectionsThanDescriptorsCostNoCPUAndPingsAreAnswered() throws {
        let gateway = try GatewayServer(shellPrefix: "ulimit -n 64")
        let server = gateway.server
        let pid = server.process.processIdentifier
        // A socket client connected before the descriptors run out: its pings must be answered.
        let client = try RawClient(path: server.socket, timeout: 5)
        #expect(try client.request(#"{"op":"ping"}"#)["ok"] == true)
        // 80 idle gateway connections: the first ~50 are accepted, the rest wait in the kernel's queue.
        var held = try (0..<80).map { _ in try RawTCP(port: gateway.port) }
        let deadline = Date().addingTimeInterval(10)
        while !server.serverLog.contains("Too many open files") && Date() < deadline { usleep(10_000) }
        #expect(server.serverLog.contains("Too many open files"), "\(server.serverLog)")

        // A measuring window, not a wait for something to happen: CPU over half a second.
        let ticksBefore = try #require(ProcessStatus.cpuTicks(of: pid))
        usleep(500_000)
        #expect(try client.request(#"{"op":"ping"}"#)["ok"] == true, "a ping went unanswered while out of descriptors")
        let ticksAfter = try #require(ProcessStatus.cpuTicks(of: pid))
        let busy = Double(ticksAfter - ticksBefore) / Double(ProcessStatus.ticksPerSecond) / 0.5
        #expect(busy < 0.1, "the server used \(Int(busy * 100)) % CPU while the gateway was out of descriptors")
        let lines = server.serverLog.split(separator: "\n").filter { $0.contains("Too many open files") }
        print("gateway descriptors: \(Int(busy * 100)) % CPU over 0.5 s out of descriptors, \(lines.count) log line(s)")
        #expect(lines.count == 1, "\(lines.count) log lines: \(lines.prefix(3))")

        // Connections leave: the queued ones are taken, and a new client is served.
        held.removeFirst(60)
        let result = try gateway.curl(["--http2-prior-knowledge"], tls: false, body: #"{"aps":{"alert":"after the shortage"}}"#)
        #expect(result.output.hasSuffix("200 2"), "\(result.output)")
        #expect(try client.request(#"{"op":"ping"}"#)["ok"] == true)
        #expect(server.process.isRunning)
    }
}
