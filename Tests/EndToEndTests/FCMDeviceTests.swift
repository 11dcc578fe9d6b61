import Foundation
import PushJSON
import Testing
import TestSupport

/// The Android rules through the real gateway: a bearer from `/token` (the assertion signed by
/// openssl, as docs/fcm.md does it by hand), `messages:send` by curl over HTTP/2 and TLS, and
/// what the real server then lists, counts and shows.
@Suite(.serialized) struct FCMDeviceTests {
    static let token = "cK9xZ2:APA91bH-device_1"
    /// The open gateway's project and default app.
    static let project = "pushdeck-open"

    /// A server with one Android device, its access token, and the app in `state`.
    struct Device {
        let gateway: GatewayServer
        let bearer: String

        init(state: String) throws {
            gateway = try GatewayServer()
            #expect(try gateway.run(["device", "add", FCMDeviceTests.token, "--app", FCMDeviceTests.project, "--vendor", "fcm"]).status == 0)
            #expect(try gateway.run(["app", state]).status == 0)
            let credentials = try gateway.run(["gateway", "credentials", "fcm", "--json"])
            let file = gateway.server.folder.file("service-account.json")
            try credentials.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            let script = """
                set -e
                python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["private_key"])' "$1" > "$1.pem"
                email=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client_email"])' "$1")
                b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
                now=$(date +%s)
                header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
                claims=$(printf '{"iss":"%s","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":%d,"exp":%d}' "$email" "$now" $((now + 3600)) | b64url)
                signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$1.pem" | b64url)
                curl -sS --fail-with-body --cacert "$2" -d "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$header.$claims.$signature" "https://localhost:$3/token"
                """
            let result = try runProgram(["bash", "-c", script, "token", file, gateway.ca, String(gateway.port)])
            #expect(result.status == 0, "\(result.stderr)")
            bearer = try #require(try JSON.parse(Array(result.stdout.utf8)).objectValue?["access_token"]?.stringValue)
        }

        /// Sends each message by curl (one connection, HTTP/2), returning each answer's `name`.
        @discardableResult
        func send(_ messages: [String]) throws -> [String] {
            let url = "https://localhost:\(gateway.port)/v1/projects/\(FCMDeviceTests.project)/messages:send"
            var command = ["curl", "-sS"]
            for (index, message) in messages.enumerated() {
                if index > 0 { command.append("--next") }
                command += ["--http2", "--cacert", gateway.ca, "-H", "authorization: Bearer \(bearer)", "-H", "content-type: application/json",
                            "--data-binary", #"{"message":\#(message)}"#, "-w", "\n", url]
            }
            let result = try runProgram(command)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { line in
                (try? JSON.parse(Array(line.utf8)))?.objectValue?["name"]?.stringValue
            }
        }

        func listed() throws -> [JSONObject] {
            try #require(try JSON.parse(Array(try gateway.listJSON().utf8)).arrayValue).compactMap(\.objectValue)
        }
    }

    static func notification(_ title: String, android: String = "") -> String {
        #"{"token":"\#(token)","notification":{"title":"\#(title)","body":"b"}\#(android.isEmpty ? "" : ",\"android\":{\(android)}")}"#
    }

    @Test func aNotificationInTheBackgroundGoesToTheTrayAndRecordsItsSend() throws {
        let device = try Device(state: "background")
        let names = try device.send([Self.notification("Sale", android: #""priority":"HIGH""#)])
        let name = try #require(names.first)
        let message = try #require(try device.listed().first)
        #expect(message["via"] == "fcm" && message["channel"] == "android" && message["callback"] == "system tray", "\(message)")
        #expect(message["read"] == false && message["project"]?.stringValue == Self.project)
        #expect(message["messageName"]?.stringValue == name)
        #expect(message["fcm"]?.objectValue?["priority"] == "HIGH")
        #expect(try device.gateway.run(["badge", "--app", Self.project]).output == "1")
    }

    @Test func aNotificationInTheForegroundReachesOnMessageReceived() throws {
        let device = try Device(state: "foreground")
        try device.send([Self.notification("Sale")])
        let message = try #require(try device.listed().first)
        #expect(message["callback"] == "onMessageReceived" && message["read"] == true, "\(message)")
        #expect(try device.gateway.run(["badge", "--app", Self.project]).output == "0")
    }

    @Test func aDataMessageToASwipedAwayAppReachesOnMessageReceived() throws {
        let device = try Device(state: "terminated")
        try device.send([#"{"token":"\#(Self.token)","data":{"body":"shipped"}}"#])
        let message = try #require(try device.listed().first)
        #expect(message["channel"] == "transparent" && message["callback"] == "onMessageReceived", "\(message)")
        #expect(message["held"] == false && message["body"] == "shipped")
    }

    @Test func aTagReplacesTheNotificationInTheTray() throws {
        let device = try Device(state: "background")
        try device.send([Self.notification("1-0", android: #""notification":{"tag":"match"}"#),
                         Self.notification("2-0", android: #""notification":{"tag":"match"}"#)])
        let listed = try device.listed()
        #expect(listed.count == 1 && listed.first?["title"] == "2-0", "\(listed)")
        #expect(try device.gateway.run(["badge", "--app", Self.project]).output == "1")
    }

    @Test func notificationCountIsTheLauncherBadge() throws {
        let device = try Device(state: "background")
        try device.send([Self.notification("Mail", android: #""notification":{"notification_count":5}"#)])
        #expect(try device.gateway.run(["badge", "--app", Self.project]).output == "5")
    }

    @Test func offlineACollapseKeyKeepsTheLatestAndATtlOfZeroIsNotStored() throws {
        let device = try Device(state: "background")
        #expect(try device.gateway.run(["device", "offline", Self.token]).status == 0)
        try device.send([
            Self.notification("score 1", android: #""collapse_key":"score""#),
            Self.notification("score 2", android: #""collapse_key":"score""#),
            Self.notification("now or never", android: #""ttl":"0s""#),
        ])
        #expect(try device.listed().isEmpty)
        #expect(try device.gateway.run(["device", "online", Self.token]).status == 0)
        let listed = try device.listed()
        #expect(listed.map { $0["title"]?.stringValue ?? "" } == ["score 2"], "\(listed)")
    }

    @Test func moreThanAHundredStoredEndInOnDeletedMessages() throws {
        let device = try Device(state: "foreground")
        #expect(try device.gateway.run(["device", "offline", Self.token]).status == 0)
        let names = try device.send((1...101).map { #"{"token":"\#(Self.token)","data":{"body":"m\#($0)"}}"# })
        #expect(names.count == 101)
        #expect(try device.gateway.run(["device", "online", Self.token]).status == 0)
        let listed = try device.listed()
        #expect(listed.count == 1, "\(listed.count) listed")
        #expect(listed.first?["callback"] == "onDeletedMessages", "\(listed)")
    }
}
