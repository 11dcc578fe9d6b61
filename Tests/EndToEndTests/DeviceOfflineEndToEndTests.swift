import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// Device offline vs app terminated through the real binary: the socket's default
/// device, a gateway device over h2c with curl, and the header on screen.
@Suite(.serialized) struct DeviceOfflineEndToEndTests {
    @Test func theDefaultDeviceStoresTheLatestAndDeliversItOnlineAcrossARestart() throws {
        let folder = TempFolder()
        var server = try ServerProcess(folder: folder)
        let off = try server.run(["device", "offline", "--json"])
        #expect(off.status == 0 && off.output.contains(#""state":"offline""#), "\(off.stderr)")
        let first = try server.run(["send", "--app", "com.example.shop", "--title", "first"])
        #expect(first.status == 0 && first.output.contains(#""delivered":false"#) && first.output.contains(#""stored":true"#),
                "\(first.output)")
        #expect(try server.run(["send", "--app", "com.example.shop", "--title", "latest"]).status == 0)
        #expect(try messages(server).isEmpty)
        #expect(try server.run(["device", "list"]).stdout.contains("default device (socket pushes without a device token): offline"))

        // Stored across a restart, and still offline.
        #expect(server.stop() == 0)
        server = try ServerProcess(folder: folder)
        #expect(try server.run(["send", "--app", "com.example.news", "--title", "news"]).output.contains(#""stored":true"#))
        let on = try server.run(["device", "online", "--json"])
        #expect(on.status == 0 && on.output.contains(#""state":"online""#), "\(on.stderr)")
        let listed = try messages(server)
        #expect(listed.map { $0["title"]?.stringValue } == ["news", "latest"], "\(listed)")
        #expect(listed.allSatisfy { $0["offline"] == true })
        #expect(try server.run(["badge"]).output == "2")
    }

    @Test func anUnknownTokenIsRefusedAndABadOneIsUsage() throws {
        let server = try ServerProcess(folder: TempFolder())
        let unknown = try server.run(["device", "offline", "abcd"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no device with token abcd"))
        // ("ab:cd" is an FCM registration token's shape, taken as one.)
        let bad = try server.run(["device", "online", "ab/cd"])
        #expect(bad.status == 2 && bad.stderr.contains("is not a device token"))
        #expect(try server.run(["device", "online", "ab", "cd"]).status == 2)
    }

    @Test func throughTheGatewayAnOfflineDeviceGets200AndOnlyTheLatestOnline() throws {
        let gateway = try GatewayServer()
        func post(_ headers: [String], _ body: String) throws {
            let arguments = ["--http2-prior-knowledge"] + headers.flatMap { ["-H", $0] }
            let result = try gateway.curl(arguments, tls: false, body: body, topic: "com.example.live")
            #expect(result.status == 0 && result.output.hasSuffix("200 2"), "\(result.output)")
        }
        // The first push registers the token; then the device leaves.
        try post([], #"{"aps":{"alert":"hello"}}"#)
        #expect(try gateway.run(["device", "offline", "0123abcd"]).status == 0)
        try post([], #"{"aps":{"alert":"score 1:0"}}"#)
        try post([], #"{"aps":{"alert":"score 2:0"}}"#)
        // Expiration 0: tried once, not stored — still 200, as APNs answers.
        try post(["apns-expiration: 0"], #"{"aps":{"alert":"now or never"}}"#)
        #expect(try JSON.parse(try gateway.listJSON()).arrayValue?.count == 1)
        let table = try gateway.run(["device", "list"]).stdout
        #expect(table.split(separator: "\n").contains { $0.hasPrefix("0123abcd ") && $0.contains("  offline  -") }, "\(table)")

        #expect(try gateway.run(["device", "online", "0123abcd"]).status == 0)
        let listed = try messages(gateway)
        #expect(listed.map { $0["body"]?.stringValue } == ["score 2:0", "hello"], "\(listed)")
    }

    @Test func theHeaderSaysTheDeviceIsOfflineAndWhatIsStored() throws {
        let ui = try ScreenTests.Running(width: 120, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try runPushdeck(["device", "--socket", ui.socket, "offline"]).status == 0)
        #expect(try ui.send(["--app", "com.example.shop", "--title", "Stored one"]).status == 0)
        let header = ui.tmux.waitFor { $0.split(separator: "\n").first?.contains("device offline, 1 stored") == true }
        #expect(header != nil, "\(ui.tmux.capture())")
        #expect(header?.contains("Stored one") == false)
        #expect(try runPushdeck(["device", "--socket", ui.socket, "online"]).status == 0)
        let delivered = ui.tmux.waitFor { $0.contains("Stored one") && !$0.contains("device offline") }
        #expect(delivered != nil, "\(ui.tmux.capture())")
        try ui.tmux.sendKeys("q")
    }
}
