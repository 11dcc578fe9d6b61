@testable import PushGateway
import Testing
import TestSupport

/// The HTTP/2 session's flow control (RFC 9113 §5.2), as a property over random clients: a client
/// that keeps to the windows the session grants opens streams, sends DATA, ends, resets and pings
/// in a random order. Whatever it does:
/// - the bytes the session holds plus the connection window it still grants never pass
///   `maxBufferedRequestBytes` (a window is given back only once its bytes are no longer held);
/// - the client is never refused for flow control (it kept to what it was granted);
/// - every request that ended within the body limit is handed on with exactly its bytes;
/// - once every stream has ended or been reset, the connection's window is open again (nothing
///   held leaks window).
@Suite struct HTTP2FlowControlTests {
    static var limits: GatewayLimits {
        var limits = GatewayLimits()
        limits.maxConcurrentStreams = 8
        limits.maxBodyBytes = 16 * 1024
        // More than the 65 535 bytes a connection's window starts at (RFC 9113 §6.9.2), less
        // than the 8 streams' bodies together: the cap binds.
        limits.maxBufferedRequestBytes = 96 * 1024
        return limits
    }

    @Test(arguments: 0..<40)
    func aClientWithinItsWindowsNeverGetsPastTheCapAndIsNeverStuck(seed: Int) throws {
        var client = Client(random: SeededRandom(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1))
        try client.run(steps: 400)
    }

    /// A random client and its view of the session's windows.
    struct Client {
        var random: SeededRandom
        let limits = HTTP2FlowControlTests.limits
        /// What the session may still receive on the connection, as granted so far.
        var connectionWindow = 65_535
        var initialStreamWindow = 65_535
        var streams: [Int32: StreamState] = [:]
        var nextStream: Int32 = 1
        /// Stream → the body it sent, for every request that ended.
        var ended: [Int32: [UInt8]] = [:]

        struct StreamState {
            var window: Int
            var body: [UInt8] = []
            /// How much it means to send in all (some past the body limit: refused 413).
            var planned: Int
        }

        mutating func draw(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next() % UInt64(range.count))
        }

        mutating func run(steps: Int) throws {
            let box = Handed()
            let session = try #require(HTTP2Session(limits: limits, isTLS: false) { request, respond in
                box.requests.append(request)
                respond(HTTPResponse(status: 200, body: []))
            })
            try feed(session, Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frame.settings())
            try feed(session, Frame.settingsAck())
            for _ in 0..<steps {
                try step(session)
                check(session)
            }
            // Everything still open ends (or is reset): nothing may stay held.
            for id in streams.keys.sorted() {
                if draw(0...1) == 0 { try feed(session, Frame.reset(id)) } else { try finish(id, session) }
                streams[id] = nil
            }
            try feed(session, Frame.ping())
            check(session)
            #expect(session.bufferedRequestBytes == 0)
            #expect(connectionWindow > limits.maxBufferedRequestBytes / 2,
                    "the connection's window stayed at \(connectionWindow) after every stream ended")
            // Each request within the limit is handed on with exactly the bytes sent.
            let handed = Dictionary(box.requests.compactMap { request in
                request.headers.first { $0.name == "x-stream" }.flatMap { Int32($0.value) }.map { ($0, request.body) }
            }) { first, _ in first }
            for (id, body) in ended where body.count <= limits.maxBodyBytes {
                #expect(handed[id] == body, "stream \(id): \(body.count) bytes sent, \(handed[id]?.count ?? -1) handed on")
            }
            for (id, body) in ended where body.count > limits.maxBodyBytes {
                #expect(handed[id] == nil, "stream \(id): \(body.count) bytes passed the limit")
            }
        }

        mutating func step(_ session: HTTP2Session) throws {
            let open = streams.keys.sorted()
            switch draw(0...9) {
            case 0...1 where open.count < Int(limits.maxConcurrentStreams):
                let id = nextStream
                nextStream += 2
                streams[id] = StreamState(window: initialStreamWindow, planned: draw(0...(limits.maxBodyBytes + 4096)))
                try feed(session, Frame.headers(id, endStream: false))
            case 2 where !open.isEmpty:
                let id = open[draw(0...(open.count - 1))]
                try feed(session, Frame.reset(id))
                streams[id] = nil
            case 3:
                try feed(session, Frame.ping())
            case 4 where !open.isEmpty:
                let id = open[draw(0...(open.count - 1))]
                if let state = streams[id], state.body.count >= state.planned {
                    try finish(id, session)
                } else {
                    try sendSome(id, session)
                }
            default:
                guard !open.isEmpty else { return }
                try sendSome(open[draw(0...(open.count - 1))], session)
            }
        }

        /// DATA on stream `id`: as much as the windows and its plan allow, at most one frame.
        mutating func sendSome(_ id: Int32, _ session: HTTP2Session) throws {
            guard let state = streams[id] else { return }
            let allowed = min(connectionWindow, state.window, 16_384, max(0, state.planned - state.body.count))
            guard allowed > 0 else { return }
            let bytes = (0..<draw(1...allowed)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try send(id, bytes, endStream: false, session)
        }

        /// Ends stream `id` (with what it has left to send when the windows allow, else empty).
        mutating func finish(_ id: Int32, _ session: HTTP2Session) throws {
            guard let state = streams[id] else { return }
            let allowed = min(connectionWindow, state.window, 16_384, max(0, state.planned - state.body.count))
            let bytes = (0..<draw(0...allowed)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try send(id, bytes, endStream: true, session)
        }

        mutating func send(_ id: Int32, _ bytes: [UInt8], endStream: Bool, _ session: HTTP2Session) throws {
            guard var state = streams[id] else { return }
            connectionWindow -= bytes.count
            state.window -= bytes.count
            state.body += bytes
            streams[id] = endStream ? nil : state
            if endStream { ended[id] = state.body }
            try feed(session, Frame.data(id, bytes, endStream: endStream))
        }

        /// Hands `bytes` to the session and reads what it answers: its SETTINGS and WINDOW_UPDATEs.
        mutating func feed(_ session: HTTP2Session, _ bytes: [UInt8]) throws {
            let alive = bytes.withUnsafeBytes { session.receive($0, at: 0) }
            try #require(alive, "the session refused a client that kept to its windows")
            var output: [UInt8] = []
            session.produce(into: &output, limit: 1 << 24)
            var offset = 0
            while offset + 9 <= output.count {
                let length = Int(output[offset]) << 16 | Int(output[offset + 1]) << 8 | Int(output[offset + 2])
                let type = output[offset + 3]
                let flags = output[offset + 4]
                let stream = Int32(Frame.uint32(output, offset + 5) & 0x7FFF_FFFF)
                let payload = Array(output[(offset + 9)..<min(output.count, offset + 9 + length)])
                offset += 9 + length
                if type == 0x4 && flags & 0x1 == 0 {
                    // SETTINGS: a new INITIAL_WINDOW_SIZE moves every open stream's window by the change (§6.9.2).
                    for entry in stride(from: 0, to: payload.count - 5, by: 6) where payload[entry] == 0 && payload[entry + 1] == 0x4 {
                        let value = Int(Frame.uint32(payload, entry + 2))
                        for id in streams.keys { streams[id]?.window += value - initialStreamWindow }
                        initialStreamWindow = value
                    }
                } else if type == 0x8 && payload.count == 4 {
                    let increment = Int(Frame.uint32(payload, 0) & 0x7FFF_FFFF)
                    if stream == 0 { connectionWindow += increment } else { streams[stream]?.window += increment }
                }
            }
            check(session)
        }

        /// The flow-control rule: what the session holds plus what it still lets in stays within the cap.
        func check(_ session: HTTP2Session) {
            let held = session.bufferedRequestBytes
            #expect(held + connectionWindow <= limits.maxBufferedRequestBytes,
                    "held \(held) + window \(connectionWindow) > cap \(limits.maxBufferedRequestBytes)")
        }
    }

    /// The requests the session handed on (its callback's box).
    final class Handed {
        var requests: [HTTPRequest] = []
    }

    /// HTTP/2 frames as a client writes them (RFC 9113 §4.1), headers in HPACK literals without
    /// indexing (RFC 7541 §6.2.2), so no encoder state is needed.
    enum Frame {
        static func make(_ type: UInt8, _ flags: UInt8, _ stream: Int32, _ payload: [UInt8]) -> [UInt8] {
            let length = payload.count
            return [UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
                + be32(UInt32(stream)) + payload
        }

        static func settings() -> [UInt8] { make(0x4, 0, 0, []) }
        static func settingsAck() -> [UInt8] { make(0x4, 0x1, 0, []) }
        static func ping() -> [UInt8] { make(0x6, 0, 0, [UInt8](repeating: 7, count: 8)) }
        static func reset(_ stream: Int32) -> [UInt8] { make(0x3, 0, stream, be32(0x8)) }  // CANCEL

        static func headers(_ stream: Int32, endStream: Bool) -> [UInt8] {
            let fields = [(":method", "POST"), (":scheme", "http"), (":path", "/flow"), (":authority", "localhost"),
                          ("x-stream", String(stream))]
            var block: [UInt8] = []
            for (name, value) in fields {
                block += [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
            }
            return make(0x1, 0x4 | (endStream ? 0x1 : 0), stream, block)  // END_HEADERS
        }

        static func data(_ stream: Int32, _ bytes: [UInt8], endStream: Bool) -> [UInt8] {
            make(0x0, endStream ? 0x1 : 0, stream, bytes)
        }

        static func be32(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }

        static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
    }
}
