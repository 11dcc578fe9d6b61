import Foundation
import Glibc
import PushCore
import Testing
import TestSupport

/// `kill -9` during a mixed load, twenty times on one database: after each restart
/// every acknowledged change is there and each app's badge is what the acknowledged operations
/// imply.
///
/// Each load client owns one app and waits for each reply before its next request, so its
/// outcomes do not depend on how the clients interleave: the order within an app is the client's
/// own, and the only cross-app input — the push mode a dedicated client keeps switching — is
/// reported in each push reply (`delivered`). At the kill, each client has at most one request in
/// flight; it may or may not have been committed, so the check accepts the state with or without
/// it, then carries the state found on disk into the next round.
@Suite struct CrashSafetyTests {
    static let rounds = 20
    static let apps = (0..<4).map { "com.example.crash\($0)" }

    @Test func killNineDuringAMixedLoadLosesNoAcknowledgedChange() throws {
        let folder = TempFolder()
        var model = CrashModel(apps: Self.apps)
        var seeds = SeededRandom(seed: 0xC0FF_EE00)
        var server = try ServerProcess(folder: folder)
        var totalAcknowledged = 0
        var committedInFlight = 0
        for round in 0..<Self.rounds {
            let seed = seeds.next()
            let killAfter = 30 + Int(seed % 250)
            let load = CrashLoad(socket: server.socket, apps: Self.apps, model: model, seed: seed)
            try load.start()
            let reached = load.waitForAcknowledged(killAfter)
            server.kill9()
            let logs = load.finish()
            let acknowledged = logs.reduce(0) { $0 + $1.acknowledged.count }
            totalAcknowledged += acknowledged
            print("crash round \(round): seed \(String(seed, radix: 16)), kill -9 after \(acknowledged) acknowledged operations, "
                + "\(logs.filter { $0.inFlight != nil }.count) in flight")
            #expect(reached, "round \(round): the load did not reach \(killAfter) acknowledged operations")
            for log in logs {
                #expect(log.failures.isEmpty, "round \(round) \(log.name): \(log.failures.prefix(3))")
            }

            server = try ServerProcess(folder: folder)
            let found = try CrashState(server, apps: Self.apps)
            let resolved = try #require(
                model.resolve(found, after: logs),
                "round \(round) (seed \(String(seed, radix: 16))): state after restart matches no outcome of the acknowledged operations:\n\(found)\nexpected from\n\(model.applying(logs.map(\.acknowledged)))")
            model = resolved.model
            committedInFlight += resolved.committedInFlight
        }
        print("crash safety: \(Self.rounds) kill -9 rounds, \(totalAcknowledged) acknowledged operations, none lost; "
            + "\(committedInFlight) unacknowledged in-flight changes were found committed")
        #expect(totalAcknowledged > Self.rounds * 30)
    }
}
