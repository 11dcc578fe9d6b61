@testable import PushGateway
import Testing

/// The requests an HTTP/2 connection hands on carry each one's own fields, however much they
/// look like the ones before: the session reuses the strings of a field seen at the same place
/// in an earlier block, and must never hand on a stale one.
@Suite struct HTTP2FieldsTests {
    typealias Frame = HTTP2FlowControlTests.Frame
    static let token = String(repeating: "ab", count: 32)

    /// A HEADERS frame ending its stream, its fields as literals HPACK does not index.
    static func request(_ stream: Int32, _ fields: [(String, String)]) -> [UInt8] {
        var block: [UInt8] = []
        for (name, value) in fields {
            block += [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
        }
        return Frame.make(0x1, 0x4 | 0x1, stream, block)
    }

    static func fields(path: String, _ headers: [(String, String)]) -> [(String, String)] {
        [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost")] + headers
    }

    @Test func eachRequestHasItsOwnFieldsOnAConnection() throws {
        var seen: [HTTPRequest] = []
        let session = try #require(HTTP2Session(limits: GatewayLimits(), isTLS: false) { request, respond in
            seen.append(request)
            respond(HTTPResponse(status: 200))
        })
        let first = Self.fields(path: "/3/device/\(Self.token)", [
            ("apns-topic", "com.example.longer.than.fifteen"), ("apns-push-type", "alert"), ("apns-id", "A"),
        ])
        // The same places with other values, a name changed, a value emptied and one with
        // whitespace around it, and one field fewer.
        let second = Self.fields(path: "/3/device/\(Self.token.uppercased())", [
            ("apns-topic", "com.example.longer.than.fifteen.too"), ("apns-priority", "alert"), ("apns-id", ""),
        ])
        let third = Self.fields(path: "/3/device/\(Self.token)", [("apns-topic", " \tcom.example.longer.than.fifteen \t")])
        let frames = [
            Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frame.settings(), Frame.settingsAck(),
            Self.request(1, first), Self.request(3, second), Self.request(5, third), Self.request(7, first),
        ]
        var output: [UInt8] = []
        for bytes in frames {
            #expect(bytes.withUnsafeBytes { session.receive($0, at: 0) })
            session.produce(into: &output, limit: 1 << 20)
        }

        func headers(_ request: HTTPRequest) -> [String] { request.headers.map { "\($0.name): \($0.value)" } }
        try #require(seen.count == 4)
        #expect(seen.map(\.path) == [
            "/3/device/\(Self.token)", "/3/device/\(Self.token.uppercased())", "/3/device/\(Self.token)", "/3/device/\(Self.token)",
        ])
        #expect(headers(seen[0]) == ["host: localhost", "apns-topic: com.example.longer.than.fifteen", "apns-push-type: alert", "apns-id: A"])
        #expect(headers(seen[1]) == ["host: localhost", "apns-topic: com.example.longer.than.fifteen.too", "apns-priority: alert", "apns-id: "])
        #expect(headers(seen[2]) == ["host: localhost", "apns-topic: com.example.longer.than.fifteen"])
        #expect(headers(seen[3]) == headers(seen[0]))
        #expect(seen.allSatisfy { $0.method == "POST" })
    }
}
