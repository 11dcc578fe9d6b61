import CNGHTTP2

/// HTTP/2 through nghttp2's server session: nghttp2 does the framing, HPACK, flow control and
/// the protocol's checks, and no I/O — it is fed with `nghttp2_session_mem_recv` and drained with
/// `nghttp2_session_mem_send`.
final class HTTP2Session: HTTPSession {
    /// One request stream while it arrives and until its answer is sent.
    ///
    /// What nghttp2's callbacks touch for every field and DATA frame is `@exclusivity(unchecked)`
    /// (here and in the session): on the loop's thread alone, no access to one overlaps another
    /// to the same one, and the runtime's check on each is a thread-local lookup.
    private final class Stream {
        var method = ""
        var path = ""
        @exclusivity(unchecked) var headers: [HTTPHeader]
        @exclusivity(unchecked) var body: [UInt8] = []
        @exclusivity(unchecked) var headerBytes = 0
        var refusal: HTTPRefusal.Kind?
        var requested = false
        /// When its HEADERS began (the `now` of that `receive`).
        var startedAt: Int64 = 0
        /// DATA bytes received and not yet given back to flow control (`nghttp2_session_consume`).
        @exclusivity(unchecked) var unconsumed = 0
        var response: [UInt8] = []
        var responseOffset = 0

        init() {
            // A provider's request has a handful of headers: room for them at once (grown by
            // doubling, they were three reallocations a request).
            headers = []
            headers.reserveCapacity(8)
        }
    }

    private var session: OpaquePointer?
    private let limits: GatewayLimits
    private let isTLS: Bool
    /// The peer is a loopback address: each request says so (the control API's token rule).
    private let fromLoopback: Bool
    private let onRequest: (HTTPRequest, @escaping Responder) -> Void
    private let link = SessionLink<HTTP2Session>()
    private let refusalResponse: (HTTPRefusal) -> HTTPResponse
    /// Requests timed out: the session ends once their answers (and what else it owes) are out.
    private var timedOut = false
    @exclusivity(unchecked) private var streams: [Int32: Stream] = [:]
    /// The stream whose HEADERS are arriving: nghttp2 hands a header block's fields one after
    /// another, and looking the stream up for each was a hash a field.
    @exclusivity(unchecked) private var receiving: (id: Int32, stream: Stream)?
    /// The fields of the latest header blocks as strings, by their place in the block: a
    /// backend sends the same path, topic and `authorization` request after request, and each
    /// field equal to the one at its place before is that string again — made from the bytes,
    /// each was a UTF-8 check and, past 15 bytes, an allocation (14 strings a push).
    @exclusivity(unchecked) private var recentFields: [(name: String, value: String)] = []
    /// The place in its block of the field arriving next.
    private var fieldIndex = 0
    private var failed = false
    /// The `now` of the bytes being fed.
    private var now: Int64 = 0
    /// Streams whose request ended during the current `mem_recv`: handled once it returned and
    /// it is known whether nghttp2 meanwhile decided to end the session (see `receive`).
    @exclusivity(unchecked) private var ended: [Int32] = []
    /// A RST_STREAM came during the current `mem_recv` (what can make nghttp2 queue a GOAWAY
    /// while it goes on reading).
    private var resetReceived = false
    /// The last_stream_id of the GOAWAY this session sent: no stream above it is acted on.
    private var goawayLastStreamID: Int32?
    /// Output taken from nghttp2 inside `receive` (to learn of a queued GOAWAY), written first.
    private var early: [UInt8] = []
    /// An answer's header fields while it is submitted (`answer`): their bytes, where each
    /// field's name ends and its value ends with its flags (never indexed for a unique value),
    /// and nghttp2's entries pointing into the bytes.
    @exclusivity(unchecked) private var fieldBytes: [UInt8] = []
    @exclusivity(unchecked) private var fieldEnds: [(nameEnd: Int, end: Int, flags: UInt8)] = []
    @exclusivity(unchecked) private var entries: [nghttp2_nv] = []

    /// `refusalResponse` answers what the session refuses (the routes' `refuse`; by default
    /// the status alone).
    init?(limits: GatewayLimits, isTLS: Bool, fromLoopback: Bool = false,
          refusalResponse: @escaping (HTTPRefusal) -> HTTPResponse = HTTPRefusal.plainResponse,
          onRequest: @escaping (HTTPRequest, @escaping Responder) -> Void) {
        self.limits = limits
        self.isTLS = isTLS
        self.fromLoopback = fromLoopback
        self.refusalResponse = refusalResponse
        self.onRequest = onRequest
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, context in
            guard let frame, let context else { return 0 }
            return HTTP2Session.of(context).beginHeaders(frame.pointee)
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, context in
            guard let frame, let name, let value, let context else { return 0 }
            return HTTP2Session.of(context).header(
                frame.pointee, UnsafeRawBufferPointer(start: name, count: nameLength), UnsafeRawBufferPointer(start: value, count: valueLength))
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, context in
            guard let data, let context else { return 0 }
            return HTTP2Session.of(context).data(streamID, UnsafeRawBufferPointer(start: data, count: length))
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, context in
            guard let frame, let context else { return 0 }
            return HTTP2Session.of(context).frameReceived(frame.pointee)
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, context in
            guard let context else { return 0 }
            HTTP2Session.of(context).streamClosed(streamID)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, context in
            guard let frame, let context else { return 0 }
            if UInt32(frame.pointee.hd.type) == NGHTTP2_GOAWAY.rawValue {
                let session = HTTP2Session.of(context)
                let last = frame.pointee.goaway.last_stream_id
                session.goawayLastStreamID = min(last, session.goawayLastStreamID ?? last)
            }
            return 0
        }

        // Limits chosen on purpose, not left to chance (each against a known attack):
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { return nil }
        defer { nghttp2_option_del(option) }
        // SETTINGS/PING floods from a peer that never reads: at most this many ACKs queued,
        // then the session ends with GOAWAY (nghttp2 calls it "flooded").
        nghttp2_option_set_max_outbound_ack(option, 256)
        // At most this many entries in one SETTINGS frame (a SETTINGS flood of huge frames).
        nghttp2_option_set_max_settings(option, 16)
        // Rapid reset (CVE-2023-44487): a burst of 200 RST_STREAMs, then 50 a second, else GOAWAY.
        nghttp2_option_set_stream_reset_rate_limit(option, 200, 50)
        // CONTINUATION flood (2024): at most 8 CONTINUATION frames after a HEADERS frame.
        nghttp2_option_set_max_continuations(option, 8)
        // Our HPACK encoder's table stays small (the peer may ask for more; we need none).
        nghttp2_option_set_max_deflate_dynamic_table_size(option, 4096)
        // Streams the client closed are forgotten at once: nothing to keep per finished stream.
        nghttp2_option_set_no_closed_streams(option, 1)
        // A field value with a space or tab at either end (`authorization: bearer ` when the
        // token is an unset variable) is malformed to RFC 9113 §8.2.1, and nghttp2 resets the
        // stream (PROTOCOL_ERROR) before any route sees it; RFC 9113 lets a server answer such a
        // request instead. The whitespace is dropped in `header` (as an HTTP/1.1 parser drops the
        // optional whitespace around a value, RFC 9110 §5.5), so a route answers it as it would
        // over HTTP/1.1: APNs with MissingProviderToken. Pseudo-headers stay strictly checked.
        nghttp2_option_set_no_rfc9113_leading_and_trailing_ws_validation(option, 1)
        // Flow control is ours (RFC 9113 §5.2): a window is given back with `nghttp2_session_consume`
        // only once the bytes are no longer held (the request was handled, refused or reset), so
        // the request bytes a connection holds stay within its connection window
        // (`maxBufferedRequestBytes`). nghttp2 by itself gives the window back as soon as DATA is
        // copied, however long the bytes then wait for their stream to end.
        nghttp2_option_set_no_auto_window_update(option, 1)

        var created: OpaquePointer?
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard nghttp2_session_server_new2(&created, callbacks, context, option) == 0, let created else { return nil }
        session = created
        // Concurrency and header size are SETTINGS the peer must honour; nghttp2 enforces the
        // header list size itself (RST_STREAM / GOAWAY beyond it). A stream's window is one byte
        // more than the largest body, so an oversized body shows (and is refused 413, its bytes
        // given back) instead of waiting for a window that only its end would give back. The
        // connection's window is the cap on request bytes held at once.
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: limits.maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: UInt32(limits.maxHeaderBytes)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: UInt32(limits.maxBodyBytes + 1)),
        ]
        nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        nghttp2_session_set_local_window_size(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(clamping: limits.maxBufferedRequestBytes))
        link.session = self
    }

    deinit {
        link.session = nil
        nghttp2_session_del(session)
    }

    /// The session behind nghttp2's user-data pointer: nghttp2 calls back only inside
    /// `mem_recv`/`mem_send`/`submit`, which this session calls, so the unretained pointer lives.
    private static func of(_ context: UnsafeMutableRawPointer) -> HTTP2Session {
        Unmanaged<HTTP2Session>.fromOpaque(context).takeUnretainedValue()
    }

    var wantsInput: Bool { !failed && nghttp2_session_want_read(session) != 0 }
    var isFinished: Bool {
        failed || (early.isEmpty && nghttp2_session_want_write(session) == 0
            && (timedOut || nghttp2_session_want_read(session) == 0 || (goingAway && streams.isEmpty)))
    }

    /// A GOAWAY was sent by a fault: the session ends once the streams it keeps are answered.
    private var goingAway = false

    /// Sends GOAWAY (NO_ERROR) that leaves out `streamID` and every stream after it: its
    /// last_stream_id is the stream before, so nghttp2 closes the later ones once it is sent
    /// and none of them is acted on (RFC 9113 §6.8: the client retries them on a new
    /// connection). `debugData` goes in the frame's additional debug data (APNs sends
    /// `{"reason":"Shutdown"}` when its server shuts down).
    func goAway(leavingOut streamID: Int32, debugData: [UInt8]) {
        guard !failed else { return }
        let last = max(0, streamID - 2)
        goawayLastStreamID = min(goawayLastStreamID ?? last, last)
        goingAway = true
        _ = debugData.withUnsafeBufferPointer { bytes in
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, NGHTTP2_NO_ERROR.rawValue, bytes.baseAddress, bytes.count)
        }
    }
    var requestStartedAt: Int64? { streams.values.lazy.filter { !$0.requested }.map(\.startedAt).min() }
    /// Request bytes held now (received, not yet given back to flow control).
    var bufferedRequestBytes: Int { streams.values.reduce(0) { $0 + $1.unconsumed } }

    func peerClosed() { failed = true }

    func receive(_ bytes: UnsafeRawBufferPointer, at now: Int64) -> Bool {
        guard !failed, let base = bytes.baseAddress else { return !failed }
        self.now = now
        ended.removeAll(keepingCapacity: true)
        resetReceived = false
        let result = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result < 0 {
            // A protocol error, bad preface or flood: nghttp2 queued a GOAWAY where one is due.
            // The requests that ended in these bytes are not acted on: nothing was answered yet.
            failed = true
            ended.removeAll()
            nghttp2_session_terminate_session(session, NGHTTP2_PROTOCOL_ERROR.rawValue)
            return false
        }
        // nghttp2 may have queued a GOAWAY and read on (its reset limit does): the GOAWAY's
        // last_stream_id is the last stream it counts as processed, and streams above it must
        // not be acted on (RFC 9113 §6.8: the client retries them — acting on them would be a
        // duplicate). The queued frames are taken now to see it; nghttp2 sends non-DATA frames
        // before DATA, so a GOAWAY comes out among the first. Sending it makes nghttp2 close
        // every stream above it.
        if resetReceived && goawayLastStreamID == nil { takeEarlyOutput(limit: limits.outputHighWater) }
        let requests = ended
        ended.removeAll(keepingCapacity: true)
        for streamID in requests { handle(streamID) }
        return true
    }

    /// Moves queued output from nghttp2 to `early`, until a GOAWAY went out or `limit` is reached.
    private func takeEarlyOutput(limit: Int) {
        while early.count < limit && goawayLastStreamID == nil {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else {
                if count < 0 { failed = true }
                return
            }
            early.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
    }

    func produce(into output: inout [UInt8], limit: Int) {
        if !early.isEmpty {
            output.append(contentsOf: early)
            early = []
        }
        while output.count < limit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else {
                if count < 0 { failed = true }
                return
            }
            output.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
    }

    // MARK: - nghttp2 callbacks

    private func beginHeaders(_ frame: nghttp2_frame) -> Int32 {
        guard UInt32(frame.hd.type) == NGHTTP2_HEADERS.rawValue, frame.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
        let stream = Stream()
        stream.startedAt = now
        streams[frame.hd.stream_id] = stream
        receiving = (frame.hd.stream_id, stream)
        fieldIndex = 0
        return 0
    }

    /// `value` without the spaces and tabs at its ends (RFC 9110 §5.5: they are not part of it).
    static func trimmingWhitespace(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        guard let first = value.firstIndex(where: { !isWhitespace($0) }), let last = value.lastIndex(where: { !isWhitespace($0) }) else {
            return UnsafeRawBufferPointer(rebasing: value[0..<0])
        }
        return UnsafeRawBufferPointer(rebasing: value[first...last])
    }

    private func header(_ frame: nghttp2_frame, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Int32 {
        let id = frame.hd.stream_id
        let found: Stream?
        if let receiving, receiving.id == id { found = receiving.stream } else { found = streams[id] }
        guard let stream = found, !stream.requested else { return 0 }
        stream.headerBytes += name.count + value.count + 32
        if stream.headerBytes > limits.maxHeaderBytes { stream.refusal = .headersTooLarge(limit: limits.maxHeaderBytes) }
        guard stream.refusal == nil else { return 0 }
        // Pseudo-headers are told apart on their bytes: no string is made of their names.
        if Self.matches(name, ":method") {
            stream.method = field(name, value).value
        } else if Self.matches(name, ":path") {
            stream.path = field(name, value).value
        } else if Self.matches(name, ":authority") {
            // RFC 9113 §8.3.1: `:authority` stands for HTTP/1.1's `Host`; routes read it as `host`.
            stream.headers.append(HTTPHeader("host", field(name, value).value))
        } else if !Self.matches(name, ":scheme") {
            let (name, value) = field(name, value)
            stream.headers.append(HTTPHeader(name, value))
        }
        return 0
    }

    /// The field at the block's next place as strings, its value without the whitespace at its
    /// ends: the strings of the field at that place in an earlier block when its bytes are the
    /// same (`recentFields`), else new ones, kept for the blocks after.
    private func field(_ name: UnsafeRawBufferPointer, _ rawValue: UnsafeRawBufferPointer) -> (name: String, value: String) {
        let value = Self.trimmingWhitespace(rawValue)
        let index = fieldIndex
        fieldIndex += 1
        guard index < recentFields.count else {
            let made = (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
            recentFields.append(made)
            return made
        }
        let recent = recentFields[index]
        let sameName = Self.equal(name, recent.name), sameValue = Self.equal(value, recent.value)
        if sameName && sameValue { return recent }
        let made = (
            sameName ? recent.name : String(decoding: name, as: UTF8.self), sameValue ? recent.value : String(decoding: value, as: UTF8.self)
        )
        recentFields[index] = made
        return made
    }

    /// True when `bytes` are `text`'s UTF-8.
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let left = bytes.baseAddress, let right = utf8.baseAddress else { return true }
            return memcmp(left, right, bytes.count) == 0
        } ?? false
    }

    /// True when `bytes` are those of `literal`.
    private static func matches(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }

    private func data(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let stream = streams[streamID], !stream.requested, stream.refusal == nil else {
            // Bytes nobody keeps are given back at once.
            consume(streamID, bytes.count)
            return 0
        }
        if stream.body.count + bytes.count > limits.maxBodyBytes {
            stream.refusal = .bodyTooLarge(limit: limits.maxBodyBytes)
            stream.body = []
            consume(streamID, stream.unconsumed + bytes.count)
            stream.unconsumed = 0
            return 0
        }
        stream.body.append(contentsOf: bytes)
        stream.unconsumed += bytes.count
        return 0
    }

    /// Gives `count` request bytes of `streamID` back to the peer's windows (the stream's and the
    /// connection's; nghttp2 sends the WINDOW_UPDATEs once enough is given back).
    private func consume(_ streamID: Int32, _ count: Int) {
        guard count > 0 else { return }
        nghttp2_session_consume(session, streamID, count)
    }

    private func streamClosed(_ streamID: Int32) {
        // Reset or refused before its request was handled: what it held goes back to the
        // connection's window (the stream's own no longer matters).
        if receiving?.id == streamID { receiving = nil }
        if let stream = streams.removeValue(forKey: streamID), stream.unconsumed > 0 {
            nghttp2_session_consume_connection(session, stream.unconsumed)
        }
    }

    private func frameReceived(_ frame: nghttp2_frame) -> Int32 {
        let type = UInt32(frame.hd.type)
        if type == NGHTTP2_RST_STREAM.rawValue { resetReceived = true }
        guard type == NGHTTP2_HEADERS.rawValue || type == NGHTTP2_DATA.rawValue,
              UInt32(frame.hd.flags) & NGHTTP2_FLAG_END_STREAM.rawValue != 0 else { return 0 }
        let streamID = frame.hd.stream_id
        guard let stream = streams[streamID], !stream.requested else { return 0 }
        stream.requested = true
        ended.append(streamID)
        return 0
    }

    /// A request that ended: refused, or handed on — unless the session sent a GOAWAY that
    /// leaves it out (then nghttp2 closed it, or it is refused here).
    private func handle(_ streamID: Int32) {
        guard let stream = streams[streamID] else { return }
        if let last = goawayLastStreamID, streamID > last {
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_REFUSED_STREAM.rawValue)
            return
        }
        // The body is the request's now: its bytes go back to the windows.
        consume(streamID, stream.unconsumed)
        stream.unconsumed = 0
        if let refusal = stream.refusal {
            refuse(streamID, stream, refusal)
            return
        }
        var request = HTTPRequest(method: stream.method, path: stream.path, headers: stream.headers, body: stream.body,
                                  version: .http2, isTLS: isTLS, fromLoopback: fromLoopback)
        request.streamID = streamID
        stream.headers = []
        stream.body = []
        let link = self.link
        onRequest(request) { response in link.session?.answer(streamID, response) }
    }

    func requestTimedOut(after milliseconds: Int64) {
        guard !failed else { return }
        for (streamID, stream) in streams where !stream.requested {
            stream.requested = true
            consume(streamID, stream.unconsumed)
            stream.unconsumed = 0
            refuse(streamID, stream, .timeout(milliseconds: milliseconds))
        }
        timedOut = true
    }

    /// Answers a stream the session refused, with the routes' answer for the request as far as
    /// it came (pseudo-headers come first, so its method and path are known).
    private func refuse(_ streamID: Int32, _ stream: Stream, _ kind: HTTPRefusal.Kind) {
        let partial = HTTPRequest(method: stream.method, path: stream.path, headers: stream.headers, body: [],
                                  version: .http2, isTLS: isTLS, fromLoopback: fromLoopback)
        stream.headers = []
        stream.body = []
        answer(streamID, refusalResponse(HTTPRefusal(kind, request: partial)))
    }

    // MARK: - Answers

    private func answer(_ streamID: Int32, _ response: HTTPResponse) {
        // The client may have reset the stream meanwhile: then there is nothing to answer.
        guard !failed, let stream = streams[streamID] else { return }
        stream.response = response.body
        stream.responseOffset = 0
        // The fields' bytes go back to back into one buffer the session keeps (nghttp2 copies
        // them during submit, and lower-cases the names as it copies them, as RFC 9113 §8.2.1
        // wants): a tuple array of strings, each name lower-cased into a string of its own, was
        // 7 000 instructions an answer.
        fieldBytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        func field(_ name: String.UTF8View, _ value: String.UTF8View, unique: Bool = false) {
            fieldBytes.append(contentsOf: name)
            let nameEnd = fieldBytes.count
            fieldBytes.append(contentsOf: value)
            fieldEnds.append((nameEnd, fieldBytes.count, UInt8(unique ? NGHTTP2_NV_FLAG_NO_INDEX.rawValue : NGHTTP2_NV_FLAG_NONE.rawValue)))
        }
        field(":status".utf8, String(response.status).utf8)
        for header in response.headers { field(header.name.utf8, header.value.utf8, unique: header.isUnique) }
        if !response.body.isEmpty { field("content-length".utf8, String(response.body.count).utf8) }
        fieldBytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            entries.removeAll(keepingCapacity: true)
            var start = 0
            for (nameEnd, end, flags) in fieldEnds {
                entries.append(nghttp2_nv(name: base + start, value: base + nameEnd, namelen: nameEnd - start,
                                          valuelen: end - nameEnd, flags: flags))
                start = end
            }
            if response.body.isEmpty {
                nghttp2_submit_response(session, streamID, entries, entries.count, nil)
            } else {
                var provider = nghttp2_data_provider()
                provider.read_callback = { _, streamID, buffer, length, flags, _, context in
                    guard let buffer, let flags, let context else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
                    return HTTP2Session.of(context).readResponse(streamID, into: buffer, length, flags: flags)
                }
                nghttp2_submit_response(session, streamID, entries, entries.count, &provider)
            }
        }
    }

    private func readResponse(_ streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, _ length: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        guard let stream = streams[streamID] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let count = min(length, stream.response.count - stream.responseOffset)
        stream.response.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.update(from: base + stream.responseOffset, count: count) }
        }
        stream.responseOffset += count
        if stream.responseOffset == stream.response.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            stream.response = []
        }
        return count
    }
}
