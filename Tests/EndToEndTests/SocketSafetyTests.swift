import Foundation
import Testing
import TestSupport

/// The socket is private and pushdeck never replaces what it does not own.
@Suite struct SocketSafetyTests {
    @Test func theSocketIsPrivateAndItsNewFolderIs0700() throws {
        let folder = TempFolder()
        let socket = folder.file("nested/deeper/s.sock")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        server.arguments = ["serve", "--socket", socket, "--memory"]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        try waitForSocket(socket)
        #expect(try mode(of: socket) == 0o600)
        #expect(try mode(of: folder.file("nested/deeper")) == 0o700)
        #expect(try mode(of: folder.file("nested")) == 0o700)
    }

    @Test func theDefaultFolderWithWiderPermissionsIsRefused() throws {
        let folder = TempFolder()
        let runtime = folder.file("run")
        try FileManager.default.createDirectory(atPath: runtime + "/pushdeck", withIntermediateDirectories: true)
        chmod(runtime + "/pushdeck", 0o755)
        let result = try runPushdeck(["serve", "--memory"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 1)
        #expect(result.stderr.contains("755"))
        #expect(result.stderr.contains("chmod 700"))
    }

    @Test func theDefaultSocketPathFollowsXDGRuntimeDir() throws {
        let folder = TempFolder()
        let runtime = folder.file("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        server.arguments = ["serve", "--memory"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["PUSHDECK_SOCKET"] = nil
        server.environment = environment
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        try waitForSocket(runtime + "/pushdeck/pushdeck.sock")
        let ping = try runPushdeck(["ping"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(ping.status == 0)
        #expect(try mode(of: runtime + "/pushdeck") == 0o700)
    }

    @Test func aRegularFileOrSymlinkAtTheSocketPathIsRefusedAndLeftAlone() throws {
        let folder = TempFolder()
        let file = folder.file("s.sock")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try runPushdeck(["serve", "--socket", file, "--memory"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not a socket"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")

        let link = folder.file("l.sock")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let refusedLink = try runPushdeck(["serve", "--socket", link, "--memory"])
        #expect(refusedLink.status == 1)
        #expect(refusedLink.stderr.contains("symbolic link"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == file)
    }

    @Test func aStaleSocketIsReplaced() throws {
        let folder = TempFolder()
        do {
            let first = try ServerProcess(folder: folder)
            first.kill9()
            #expect(FileManager.default.fileExists(atPath: first.socket))
        }
        let second = try ServerProcess(folder: folder)
        #expect(try second.run(["ping"]).status == 0)
    }

    @Test func aDefaultFolderThatIsASymbolicLinkIsRefused() throws {
        let folder = TempFolder()
        let runtime = folder.file("run")
        let elsewhere = folder.file("elsewhere")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        chmod(elsewhere, 0o700)
        try FileManager.default.createSymbolicLink(atPath: runtime + "/pushdeck", withDestinationPath: elsewhere)
        let result = try runPushdeck(["serve", "--memory"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a symbolic link"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test func aSocketNamedThroughASymlinkedFolderIsUsed() throws {
        let folder = TempFolder()
        let real = folder.file("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: real)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: PackagePaths.pushdeckBinary)
        server.arguments = ["serve", "--socket", folder.file("link/s.sock"), "--memory"]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        try waitForSocket(folder.file("link/s.sock"))
        #expect(FileManager.default.fileExists(atPath: real + "/s.sock"))
    }

    @Test func aSocketPathOver107BytesIsAnError() throws {
        let long = "/tmp/" + String(repeating: "p", count: 120) + ".sock"
        let result = try runPushdeck(["serve", "--socket", long, "--memory"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("107"))
        let client = try runPushdeck(["ping", "--socket", long])
        #expect(client.status == 3)
    }
}

func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}

/// Waits (up to 10 s) for a socket file to appear.
func waitForSocket(_ path: String) throws {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        if (try? runPushdeck(["ping", "--socket", path]))?.status == 0 { return }
        usleep(20_000)
    }
    Issue.record("no server came up at \(path)")
}
