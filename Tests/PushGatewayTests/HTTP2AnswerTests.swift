import CNGHTTP2
@testable import PushGateway
import Testing

/// What the HTTP/2 session writes for an answer, read back with nghttp2's own HPACK decoder:
/// the status, the route's headers with their names in lower case (RFC 9113 §8.2.1 makes an
/// upper-case name malformed), a content-length for a body, then the body itself.
@Suite struct HTTP2AnswerTests {
    typealias Frame = HTTP2FlowControlTests.Frame

    @Test func anAnswerIsWrittenWithLowerCaseNamesAndItsBodysLength() throws {
        let body = Array(#"{"reason":"TooManyRequests"}"#.utf8)
        let answer = HTTPResponse(status: 429, headers: [
            HTTPHeader("apns-id", "8A7E5D1C-0B9F-4C2E-9D3A-6F1B2C4D5E6F"), HTTPHeader("Retry-After", "30"),
            HTTPHeader("Content-Type", "application/json"),
        ], body: body)
        let session = try #require(HTTP2Session(limits: GatewayLimits(), isTLS: false) { _, respond in respond(answer) })
        var output: [UInt8] = []
        for bytes in [Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frame.settings(), Frame.settingsAck(), Frame.headers(1, endStream: true)] {
            #expect(bytes.withUnsafeBytes { session.receive($0, at: 0) })
            session.produce(into: &output, limit: 1 << 20)
        }

        var block: [UInt8] = []
        var data: [UInt8] = []
        var offset = 0
        while offset + 9 <= output.count {
            let length = Int(output[offset]) << 16 | Int(output[offset + 1]) << 8 | Int(output[offset + 2])
            let stream = Frame.uint32(output, offset + 5) & 0x7FFF_FFFF
            let payload = output[(offset + 9)..<(offset + 9 + length)]
            if stream == 1 && output[offset + 3] == 0x1 { block += payload }
            if stream == 1 && output[offset + 3] == 0x0 { data += payload }
            offset += 9 + length
        }
        #expect(try Self.fields(block) == [
            ":status: 429", "apns-id: 8A7E5D1C-0B9F-4C2E-9D3A-6F1B2C4D5E6F", "retry-after: 30",
            "content-type: application/json", "content-length: \(body.count)",
        ])
        #expect(data == body)
    }

    /// A responder kept past its connection (an answer held for a commit, a fault's delay) neither
    /// keeps the session alive nor reaches it once it is gone: the answer goes nowhere.
    @Test func anAnswerAfterItsSessionIsGoneGoesNowhere() throws {
        var kept: [Responder] = []
        var session = HTTP2Session(limits: GatewayLimits(), isTLS: false) { _, respond in kept.append(respond) }
        weak let gone = session
        do {
            let live = try #require(session)
            var output: [UInt8] = []
            for bytes in [Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frame.settings(), Frame.settingsAck(), Frame.headers(1, endStream: true)] {
                #expect(bytes.withUnsafeBytes { live.receive($0, at: 0) })
                live.produce(into: &output, limit: 1 << 20)
            }
        }
        try #require(kept.count == 1)
        session = nil
        #expect(gone == nil)
        kept[0](HTTPResponse(status: 200))

        var http1Kept: [Responder] = []
        var http1: HTTP1Session? = HTTP1Session(limits: GatewayLimits(), isTLS: false) { _, respond in http1Kept.append(respond) }
        weak let http1Gone = http1
        let request = Array("POST /v3/push HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".utf8)
        do {
            let live = try #require(http1)
            #expect(request.withUnsafeBytes { live.receive($0, at: 0) })
        }
        try #require(http1Kept.count == 1)
        http1 = nil
        #expect(http1Gone == nil)
        http1Kept[0](HTTPResponse(status: 200))
    }

    /// A value that names one answer alone (an `apns-id`) is sent as a literal never indexed, so
    /// it does not take the place of the fields that recur in the connection's compression
    /// table; those stay indexed, and a client keeps decoding answer after answer.
    @Test func uniqueValuesAreSentNeverIndexed() throws {
        let ids = ["8A7E5D1C-0B9F-4C2E-9D3A-6F1B2C4D5E6F", "0F6C1E0A-7B2D-4E8F-9A1B-2C3D4E5F6A7B"]
        var answered = 0
        let session = try #require(HTTP2Session(limits: GatewayLimits(), isTLS: false) { _, respond in
            respond(HTTPResponse(status: 200, headers: [
                HTTPHeader("apns-id", ids[answered], unique: true), HTTPHeader("x-kind", "alert"),
            ]))
            answered += 1
        })
        var output: [UInt8] = []
        let frames = [Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frame.settings(), Frame.settingsAck(),
                      Frame.headers(1, endStream: true), Frame.headers(3, endStream: true)]
        for bytes in frames {
            #expect(bytes.withUnsafeBytes { session.receive($0, at: 0) })
            session.produce(into: &output, limit: 1 << 20)
        }

        var blocks: [Int: [UInt8]] = [:]
        var offset = 0
        while offset + 9 <= output.count {
            let length = Int(output[offset]) << 16 | Int(output[offset + 1]) << 8 | Int(output[offset + 2])
            let stream = Int(Frame.uint32(output, offset + 5) & 0x7FFF_FFFF)
            if output[offset + 3] == 0x1 { blocks[stream, default: []] += output[(offset + 9)..<(offset + 9 + length)] }
            offset += 9 + length
        }
        var inflater: OpaquePointer?
        try #require(nghttp2_hd_inflate_new(&inflater) == 0)
        defer { nghttp2_hd_inflate_del(inflater) }
        let first = try Self.fields(try #require(blocks[1]), inflater: inflater)
        let second = try Self.fields(try #require(blocks[3]), inflater: inflater)
        #expect(first.map(\.field) == [":status: 200", "apns-id: \(ids[0])", "x-kind: alert"])
        #expect(second.map(\.field) == [":status: 200", "apns-id: \(ids[1])", "x-kind: alert"])
        #expect((first + second).filter(\.neverIndexed).map(\.field) == ["apns-id: \(ids[0])", "apns-id: \(ids[1])"])
        // The recurring field went into the table with the first answer: the second names it by
        // its index alone, one byte, and the whole second block is smaller than the first.
        #expect(try #require(blocks[3]).count < (try #require(blocks[1])).count)
    }

    /// The fields of a header block, as `name: value`, decoded by nghttp2's HPACK inflater.
    static func fields(_ block: [UInt8]) throws -> [String] {
        var inflater: OpaquePointer?
        try #require(nghttp2_hd_inflate_new(&inflater) == 0)
        defer { nghttp2_hd_inflate_del(inflater) }
        return try fields(block, inflater: inflater).map(\.field)
    }

    /// The fields of a header block, decoded by `inflater` (which keeps the connection's table
    /// from block to block), each with whether it came as a literal never indexed.
    static func fields(_ block: [UInt8], inflater: OpaquePointer?) throws -> [(field: String, neverIndexed: Bool)] {
        var fields: [(field: String, neverIndexed: Bool)] = []
        try block.withUnsafeBufferPointer { bytes in
            var rest = UnsafeBufferPointer(rebasing: bytes[...])
            while true {
                var field = nghttp2_nv()
                var flags: Int32 = 0
                let used = nghttp2_hd_inflate_hd2(inflater, &field, &flags, rest.baseAddress, rest.count, 1)
                try #require(used >= 0, "HPACK error \(used)")
                rest = UnsafeBufferPointer(rebasing: rest[Int(used)...])
                if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0 {
                    let name = String(decoding: UnsafeBufferPointer(start: field.name, count: field.namelen), as: UTF8.self)
                    let value = String(decoding: UnsafeBufferPointer(start: field.value, count: field.valuelen), as: UTF8.self)
                    fields.append(("\(name): \(value)", field.flags & UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) != 0))
                }
                if flags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 { break }
                if used == 0 && flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) == 0 { break }
            }
        }
        nghttp2_hd_inflate_end_headers(inflater)
        return fields
    }
}
