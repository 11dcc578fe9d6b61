import Foundation
import PushGateway
import PushJSON
import Testing
import TestSupport

/// What the gateway's transport refuses (a body or headers too large, bytes that are not HTTP, a
/// method HTTP/1.1 does not know, a request not whole in time) is answered by the vendor whose
/// path the request names, in that vendor's shape — over HTTP/1.1, cleartext HTTP/2 and HTTP/2
/// over TLS, on the real binary's port. Before, every vendor got APNs' `{"reason":…}`.
// Serialized for the same reason as GatewayAbuseTests: one server at a time.
@Suite(.serialized) struct VendorRefusalTests {
    /// A vendor's path and what its refusal must look like.
    struct Vendor: CustomTestStringConvertible, Sendable {
        var name: String
        var path: String
        var testDescription: String { name }

        static let apns = Vendor(name: "apns", path: "/3/device/0123abcd")
        static let jpush = Vendor(name: "jpush", path: "/v3/push")
        static let getui = Vendor(name: "getui", path: "/v2/\(SampleCredentials.getuiAppId)/push/single/cid")
        static let fcm = Vendor(name: "fcm", path: "/v1/projects/refusal-project/messages:send")
        static let all = [apns, jpush, getui, fcm]
    }

    /// The kinds of refusal, each as its vendor answers it: HTTP status and the vendor's code
    /// (APNs' `reason`, JPush's `error.code`, Getui's `code`, FCM's gRPC `error.status`).
    enum Kind: String, Sendable { case tooLarge, headersTooLarge, malformed, badMethod, timeout, notFound, methodNotAllowed }

    static func expected(_ kind: Kind, _ vendor: Vendor) -> (status: Int, code: String) {
        switch (kind, vendor.name) {
        case (.tooLarge, "apns"): (413, "PayloadTooLarge")
        case (.tooLarge, "jpush"): (400, "1005")
        case (.tooLarge, "fcm"), (.headersTooLarge, "fcm"), (.malformed, "fcm"): (400, "INVALID_ARGUMENT")
        case (.tooLarge, _): (400, "20001")
        case (.headersTooLarge, "apns"): (431, "HeadersTooLarge")
        case (.headersTooLarge, "jpush"): (400, "1003")
        case (.headersTooLarge, _): (400, "20001")
        case (.malformed, "apns"): (400, "MalformedRequest")
        case (.malformed, "jpush"): (400, "1003")
        case (.malformed, _): (400, "20001")
        case (.badMethod, _), (.methodNotAllowed, "apns"): (405, "MethodNotAllowed")
        case (.methodNotAllowed, "jpush"): (405, "1001")
        case (.methodNotAllowed, "fcm"), (.notFound, "fcm"): (404, "NOT_FOUND")
        case (.methodNotAllowed, _): (405, "405")
        case (.timeout, "apns"): (400, "IdleTimeout")
        case (.timeout, "jpush"): (400, "1003")
        case (.timeout, "fcm"): (408, "DEADLINE_EXCEEDED")
        case (.timeout, _): (400, "20001")
        case (.notFound, "apns"): (404, "BadPath")
        case (.notFound, "jpush"): (400, "1003")
        case (.notFound, _): (404, "404")
        }
    }

    /// The vendor's code in a refusal body, or nil when the body is not in the vendor's shape.
    static func code(_ body: String, _ vendor: Vendor) -> String? {
        guard let object = (try? JSON.parse(body))?.objectValue else { return nil }
        switch vendor.name {
        case "apns": return object["reason"]?.stringValue
        case "jpush":
            guard case .object(let error)? = object["error"], error["message"]?.stringValue != nil else { return nil }
            return error["code"].flatMap { if case .number(let number) = $0 { number.text } else { nil } }
        case "fcm":
            // Google's shape: the HTTP status again as `code`, the message, the gRPC status.
            guard case .object(let error)? = object["error"], error["message"]?.stringValue != nil,
                case .number(let code)? = error["code"], code.int != nil
            else { return nil }
            return error["status"]?.stringValue
        default:
            guard object["msg"]?.stringValue != nil else { return nil }
            return object["code"].flatMap { if case .number(let number) = $0 { number.text } else { nil } }
        }
    }

    func expectRefusal(_ kind: Kind, _ vendor: Vendor, status: Int?, body: String, _ context: String) {
        let want = Self.expected(kind, vendor)
        #expect(status == want.status, "\(kind) \(vendor.name) \(context): status \(status ?? -1), body \(body)")
        #expect(Self.code(body, vendor) == want.code, "\(kind) \(vendor.name) \(context): \(body)")
    }

    /// curl's `BODY\nSTATUS VERSION` taken apart.
    func split(_ output: String) -> (status: Int?, version: String, body: String) {
        let lines = output.components(separatedBy: "\n")
        let last = (lines.last ?? "").split(separator: " ")
        return (last.first.flatMap { Int($0) }, last.count > 1 ? String(last[1]) : "", lines.dropLast().joined(separator: "\n"))
    }

    static let transports: [(flags: [String], tls: Bool, version: String)] = [
        (["--http1.1"], false, "1.1"), (["--http2-prior-knowledge"], false, "2"), (["--http2"], true, "2"),
    ]

    @Test(arguments: Vendor.all)
    func bodiesAndHeadersTooLargeAreRefusedInTheVendorsShape(vendor: Vendor) throws {
        let gateway = try GatewayServer()
        for transport in Self.transports {
            let huge = split(try gateway.curl(transport.flags, path: vendor.path, tls: transport.tls, body: String(repeating: "b", count: 70_000)).output)
            #expect(huge.version == transport.version)
            expectRefusal(.tooLarge, vendor, status: huge.status, body: huge.body, "HTTP/\(transport.version)")
            let big = split(try gateway.curl(
                transport.flags + ["-H", "x-big: " + String(repeating: "h", count: 20_000)], path: vendor.path, tls: transport.tls, body: "{}").output)
            expectRefusal(.headersTooLarge, vendor, status: big.status, body: big.body, "HTTP/\(transport.version)")
        }
        // Nothing was stored.
        #expect(try gateway.listJSON().trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    /// Methods the routes do not take, and paths they do not serve, over each transport (these
    /// were already answered by the routes, in each vendor's shape; held here beside the rest).
    @Test(arguments: Vendor.all)
    func wrongMethodsAndPathsAreRefusedInTheVendorsShape(vendor: Vendor) throws {
        let gateway = try GatewayServer()
        let unknownPath = switch vendor.name {
        case "apns": "/4/nothing"
        case "jpush": "/v3/nothing"
        case "fcm": "/v1/projects/refusal-project/nothing"
        default: "/v2/\(SampleCredentials.getuiAppId)/nothing"
        }
        for transport in Self.transports {
            let get = split(try gateway.curl(transport.flags + ["-X", "GET"], path: vendor.path, tls: transport.tls).output)
            expectRefusal(.methodNotAllowed, vendor, status: get.status, body: get.body, "HTTP/\(transport.version)")
            let missing = split(try gateway.curl(transport.flags, path: unknownPath, tls: transport.tls, body: "{}").output)
            expectRefusal(.notFound, vendor, status: missing.status, body: missing.body, "HTTP/\(transport.version)")
        }
    }

    /// HTTP/1.1 bytes the parser refuses after the request target: the vendor of that target
    /// answers (HTTP/2's framing errors are nghttp2's to answer, with RST_STREAM or GOAWAY).
    @Test(arguments: Vendor.all)
    func malformedHTTP1IsRefusedInTheVendorsShapeAndCloses(vendor: Vendor) throws {
        let gateway = try GatewayServer()
        let raw = try RawTCP(port: gateway.port)
        raw.send("POST \(vendor.path) HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n{}")
        let (bytes, closed) = raw.readUntilClosed()
        let text = String(decoding: bytes, as: UTF8.self)
        let status = text.hasPrefix("HTTP/1.1 ") ? Int(text.dropFirst(9).prefix(3)) : nil
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        expectRefusal(.malformed, vendor, status: status, body: body, "HTTP/1.1")
        #expect(closed)
    }

    /// A method HTTP/1.1's parser does not know is refused before any target is read: the gateway's
    /// first vendor, APNs, answers it (`405 MethodNotAllowed`), and the connection closes.
    @Test func anUnknownHTTP1MethodIsAPNsMethodNotAllowed() throws {
        let gateway = try GatewayServer()
        let raw = try RawTCP(port: gateway.port)
        raw.send("BREW /v3/push HTTP/1.1\r\nHost: a\r\n\r\n")
        let (bytes, closed) = raw.readUntilClosed()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), "\(text)")
        #expect(text.hasSuffix(#"{"reason":"MethodNotAllowed"}"#), "\(text)")
        #expect(closed)
    }

    /// A request not whole within `--request-timeout` of its first byte is answered in its
    /// vendor's shape, then the connection closes (within the sweep's second).
    @Test(arguments: Vendor.all)
    func aRequestNotWholeInTimeIsRefusedInTheVendorsShape(vendor: Vendor) throws {
        let gateway = try GatewayServer(extraArguments: ["--request-timeout", "2"])
        for mode in ["http1-trickle", "h2-trickle"] {
            let result = try TestVenv.run("h2_abuse.py", [mode, String(gateway.port), "8", vendor.path])
            let lines = result.output.components(separatedBy: "\n")
            #expect(lines.first?.hasPrefix("closed after ") == true, "\(mode): \(result.output)")
            // The answer runs to the end: a body may span lines (Google's errors are indented JSON).
            let answer = lines.drop { !$0.hasPrefix("answered ") }.joined(separator: "\n")
            let parts = answer.dropFirst("answered ".count).split(separator: " ", maxSplits: 1)
            expectRefusal(.timeout, vendor, status: parts.first.flatMap { Int($0) }, body: parts.count > 1 ? String(parts[1]) : "", mode)
        }
    }
}
