import Foundation
import PushCore
import PushClient
import Testing
import TestSupport
import PushJSON

/// What survives a restart and a crash, with the real binary and a real SQLite file.
@Suite struct DurabilityTests {
    @Test func aRestartKeepsMessagesBadgesModeAppStateAndHeldMessages() throws {
        let folder = TempFolder()
        do {
            let server = try ServerProcess(folder: folder)
            _ = try server.run(["send", "--title", "kept", "--app", "com.example.shop"])
            _ = try server.run(["send", "--title", "read one", "--app", "com.example.shop"])
            _ = try server.run(["read", "2"])
            _ = try server.run(["badge", "--sync", "off"])
            _ = try server.run(["badge", "--set", "9", "--app", "com.example.news"])
            _ = try server.run(["app", "terminated"])
            let held = try server.run(["send", "-"], stdin: Data(#"{"taskId":"t9","msgId":"m9","payload":"held","appId":"com.example.chat"}"#.utf8))
            #expect(held.stdout.contains(#""held":true"#))
            _ = try server.run(["mode", "off"])
            _ = try server.run(["send", "--title", "dropped"])
            #expect(server.stop() == 0)
        }
        let server = try ServerProcess(folder: folder)
        #expect(try server.run(["mode"]).output == "off")
        #expect(try server.run(["app"]).output == "terminated")
        #expect(try server.run(["badge", "--app", "com.example.shop"]).output == "1")
        #expect(try server.run(["badge", "--app", "com.example.news"]).output == "9")
        #expect(try server.run(["badge", "--app", "com.example.news", "--server"]).output == "0")
        let listed = try JSON.parse(try server.run(["list", "--json"]).output).arrayValue ?? []
        #expect(listed.compactMap { $0.objectValue?["title"]?.stringValue } == ["read one", "kept"])
        #expect(listed.first?.objectValue?["read"] == true)
        _ = try server.run(["mode", "on"])
        _ = try server.run(["app", "foreground"])
        let afterRelease = try JSON.parse(try server.run(["list", "--json"]).output).arrayValue ?? []
        let released = try #require(afterRelease.first?.objectValue)
        #expect(released["body"] == "held")
        #expect(released["offline"] == true)
        #expect(released["app"] == "com.example.chat")
    }

    @Test func killNineDuringABurstLosesNoAcknowledgedPush() throws {
        let folder = TempFolder()
        let server = try ServerProcess(folder: folder)
        let client = try SocketClient(path: server.socket)
        var burst: [UInt8] = []
        for index in 0..<3000 {
            burst += Array(#"{"aps":{"alert":"burst \#(index)"}}"#.utf8)
        }
        try client.send(burst)
        var acknowledged: [Int] = []
        while acknowledged.count < 3000 {
            guard let reply = try? client.readReply() else { break }
            if let id = reply["id"]?.intValue { acknowledged.append(id) }
            if acknowledged.count == 1200 { server.kill9() }
        }
        #expect(acknowledged.count >= 1200)

        let restarted = try ServerProcess(folder: folder)
        let stored = try storedIDs(restarted)
        let missing = Set(acknowledged).subtracting(stored)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.sorted().prefix(10))")
        #expect(try restarted.run(["badge"]).output == String(stored.count))
    }

    @Test func aSecondServerOnTheSameSocketIsRefused() throws {
        let server = try ServerProcess()
        let second = try runPushdeck(["serve", "--socket", server.socket, "--memory"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("already running"))
        #expect(try server.run(["ping"]).status == 0)
    }

    @Test func sigtermShutsDownCleanlyAndRemovesTheSocket() throws {
        let server = try ServerProcess()
        _ = try server.run(["send", "--title", "x"])
        #expect(server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: server.socket))
    }
}

/// Every stored message id, paging through `list` as a script would.
func storedIDs(_ server: ServerProcess) throws -> Set<Int> {
    var ids = Set<Int>()
    var before: Int?
    while true {
        var arguments = ["list", "--json", "--limit", "1000"]
        if let before { arguments += ["--before", String(before)] }
        let page = try JSON.parse(try server.run(arguments).output).arrayValue ?? []
        let pageIDs = page.compactMap { $0.objectValue?["id"]?.intValue }
        ids.formUnion(pageIDs)
        guard let last = pageIDs.last, pageIDs.count == 1000 else { return ids }
        before = last
    }
}
