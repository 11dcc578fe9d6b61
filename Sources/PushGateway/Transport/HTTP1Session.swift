import CHTTPParser

/// HTTP/1.1 through libhttp-parser: it is fed bytes the connection already read (after sniffing
/// the first bytes, and after OpenSSL decrypted them), which libmicrohttpd — owning its sockets —
/// cannot take. Pipelined requests are answered in order; what the parser refuses (bad framing,
/// an unknown method, a body or headers past the limits, a request not whole in time) is an
/// `HTTPRefusal` the routes answer in the vendor's shape, and the connection closes after it.
final class HTTP1Session: HTTPSession {
    private let parser: UnsafeMutablePointer<http_parser>
    private var settings = http_parser_settings()
    private let limits: GatewayLimits
    private let isTLS: Bool
    /// The peer is a loopback address: each request says so (the control API's token rule).
    private let fromLoopback: Bool
    private let onRequest: (HTTPRequest, @escaping Responder) -> Void
    private let refusalResponse: (HTTPRefusal) -> HTTPResponse
    private let link = SessionLink<HTTP1Session>()

    // The message being received. These and the answers' slots are touched by every callback
    // of the parser, on the loop's thread alone, and no access to one overlaps another to the
    // same one: the runtime's exclusivity check on each (a thread-local lookup) was 8 000
    // instructions of a JPush push, so they are `@exclusivity(unchecked)`.
    @exclusivity(unchecked) private var target: [UInt8] = []
    @exclusivity(unchecked) private var field: [UInt8] = []
    @exclusivity(unchecked) private var value: [UInt8] = []
    @exclusivity(unchecked) private var inValue = false
    @exclusivity(unchecked) private var headers: [HTTPHeader] = []
    @exclusivity(unchecked) private var body: [UInt8] = []
    @exclusivity(unchecked) private var headerBytes = 0
    @exclusivity(unchecked) private var refusal: HTTPRefusal.Kind?
    @exclusivity(unchecked) private(set) var requestStartedAt: Int64?
    /// The `now` of the bytes being parsed.
    @exclusivity(unchecked) private var now: Int64 = 0

    /// Answers in request order: slot `firstSlot + i` is `slots[i]`, nil until answered.
    @exclusivity(unchecked) private var slots: [[UInt8]?] = []
    @exclusivity(unchecked) private var firstSlot = 0
    /// The slot after which the connection closes (no keep-alive, or an error).
    private var lastSlot: Int?
    private var stopped = false

    /// `refusalResponse` answers what the session refuses (the routes' `refuse`; by default
    /// the status alone).
    init(limits: GatewayLimits, isTLS: Bool, fromLoopback: Bool = false,
         refusalResponse: @escaping (HTTPRefusal) -> HTTPResponse = HTTPRefusal.plainResponse,
         onRequest: @escaping (HTTPRequest, @escaping Responder) -> Void) {
        self.limits = limits
        self.isTLS = isTLS
        self.fromLoopback = fromLoopback
        self.refusalResponse = refusalResponse
        self.onRequest = onRequest
        parser = .allocate(capacity: 1)
        http_parser_init(parser, HTTP_REQUEST)
        settings.on_message_begin = { parser in HTTP1Session.of(parser).messageBegan() }
        settings.on_url = { parser, at, length in HTTP1Session.of(parser).append(at, length, to: .target) }
        settings.on_header_field = { parser, at, length in
            let session = HTTP1Session.of(parser)
            if session.inValue { session.endHeader() }
            return session.append(at, length, to: .field)
        }
        settings.on_header_value = { parser, at, length in
            let session = HTTP1Session.of(parser)
            session.inValue = true
            return session.append(at, length, to: .value)
        }
        settings.on_headers_complete = { parser in HTTP1Session.of(parser).headersComplete() }
        settings.on_body = { parser, at, length in HTTP1Session.of(parser).appendBody(at, length) }
        settings.on_message_complete = { parser in HTTP1Session.of(parser).messageComplete() }
        link.session = self
    }

    deinit {
        link.session = nil
        parser.deallocate()
    }

    /// The session behind the parser's context pointer: the session owns the parser and the
    /// parser calls back only inside `receive`, so the unretained pointer is alive.
    private static func of(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTP1Session {
        // The data pointer is set in `receive` before any callback can run.
        Unmanaged<HTTP1Session>.fromOpaque(UnsafeRawPointer(parser.unsafelyUnwrapped.pointee.data.unsafelyUnwrapped)).takeUnretainedValue()
    }

    var wantsInput: Bool { !stopped && slots.count < limits.maxPipelined }
    var isFinished: Bool { stopped && slots.isEmpty }

    func peerClosed() {
        stopped = true
        requestStartedAt = nil
    }

    func receive(_ bytes: UnsafeRawBufferPointer, at now: Int64) -> Bool {
        guard !stopped, bytes.count > 0 else { return !stopped }
        self.now = now
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let parsed = http_parser_execute(parser, &settings, base, bytes.count)
        let code = pushdeck_http_errno(parser)
        if code == Int32(HPE_PAUSED.rawValue) { return true }
        if code != Int32(HPE_OK.rawValue) {
            let name = String(cString: pushdeck_http_errno_name(parser))
            refuse(refusal ?? (code == Int32(HPE_INVALID_METHOD.rawValue) ? .badMethod : .malformed(name)))
            return false
        }
        if parsed < bytes.count || pushdeck_http_is_upgrade(parser) != 0 {
            // An Upgrade request (h2c by upgrade is not offered: use prior knowledge or TLS).
            stopped = true
            lastSlot = firstSlot + slots.count - 1
        }
        return true
    }

    func produce(into output: inout [UInt8], limit: Int) {
        while let first = slots.first, let bytes = first, output.count < limit {
            output.append(contentsOf: bytes)
            slots.removeFirst()
            firstSlot += 1
        }
        if let lastSlot, firstSlot > lastSlot { slots.removeAll() }
    }

    // MARK: - Parser callbacks

    private func messageBegan() -> Int32 {
        target.removeAll(keepingCapacity: true)
        headers.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        inValue = false
        headerBytes = 0
        refusal = nil
        // libhttp-parser begins a message at its first byte (the request line's first character).
        requestStartedAt = now
        return 0
    }

    /// Where a piece of the request head goes. (A key path would do, but writing through one
    /// cost more than the rest of a header's handling.)
    private enum HeadPart { case target, field, value }

    private func append(_ at: UnsafePointer<CChar>?, _ length: Int, to part: HeadPart) -> Int32 {
        headerBytes += length
        guard headerBytes <= limits.maxHeaderBytes else {
            refusal = .headersTooLarge(limit: limits.maxHeaderBytes)
            return 1
        }
        guard let at else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: at, count: length)
        switch part {
        case .target: target.append(contentsOf: bytes)
        case .field: field.append(contentsOf: bytes)
        case .value: value.append(contentsOf: bytes)
        }
        return 0
    }

    private func endHeader() {
        // A field name is a token (the parser takes ASCII letters, digits and a few marks only),
        // so lower-casing its ASCII letters is all of it, without Unicode's case tables.
        for index in field.indices where field[index] &- 0x41 < 26 { field[index] |= 0x20 }
        headers.append(HTTPHeader(String(decoding: field, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        headerBytes += 32
        field.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        inValue = false
    }

    private func headersComplete() -> Int32 {
        if inValue || !field.isEmpty { endHeader() }
        if parser.pointee.content_length != UInt64.max && parser.pointee.content_length > UInt64(limits.maxBodyBytes) {
            refusal = .bodyTooLarge(limit: limits.maxBodyBytes)
            return -1  // (1 and 2 would mean "no body"; anything else stops the parser)
        }
        // curl and others wait a second for `100 Continue` before a larger body.
        if slots.isEmpty, headers.contains(where: { $0.name == "expect" && $0.value.lowercased() == "100-continue" }) {
            slots.append(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        return 0
    }

    private func appendBody(_ at: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard body.count + length <= limits.maxBodyBytes else {
            refusal = .bodyTooLarge(limit: limits.maxBodyBytes)
            return 1
        }
        if let at { body.append(contentsOf: UnsafeRawBufferPointer(start: at, count: length)) }
        return 0
    }

    private func messageComplete() -> Int32 {
        requestStartedAt = nil
        let method = String(cString: pushdeck_http_method_name(parser))
        let request = HTTPRequest(
            method: method, path: String(decoding: target, as: UTF8.self), headers: headers, body: body,
            version: .http1_1, isTLS: isTLS, fromLoopback: fromLoopback)
        let keepAlive = http_should_keep_alive(parser) != 0
        let slot = firstSlot + slots.count
        slots.append(nil)
        if !keepAlive {
            stopped = true
            lastSlot = slot
        }
        let link = self.link
        onRequest(request) { response in link.session?.answer(slot, response, close: !keepAlive) }
        if !keepAlive { http_parser_pause(parser, 1) }
        return 0
    }

    // MARK: - Answers

    private func answer(_ slot: Int, _ response: HTTPResponse, close: Bool) {
        let index = slot - firstSlot
        guard index >= 0, index < slots.count else { return }
        slots[index] = Self.encode(response, close: close)
    }

    func requestTimedOut(after milliseconds: Int64) {
        guard !stopped, requestStartedAt != nil else { return }
        refuse(.timeout(milliseconds: milliseconds))
    }

    /// A refusal the peer's bytes earned: answered after what is already queued, then close.
    /// The routes see the request as far as it came (the method only once the parser knew it).
    private func refuse(_ kind: HTTPRefusal.Kind) {
        stopped = true
        requestStartedAt = nil
        if inValue || !field.isEmpty { endHeader() }
        let method = kind == .badMethod || target.isEmpty ? "" : String(cString: pushdeck_http_method_name(parser))
        let partial = HTTPRequest(
            method: method, path: String(decoding: target, as: UTF8.self), headers: headers, body: [],
            version: .http1_1, isTLS: isTLS, fromLoopback: fromLoopback)
        slots.append(Self.encode(refusalResponse(HTTPRefusal(kind, request: partial)), close: true))
        lastSlot = firstSlot + slots.count - 1
    }

    static func encode(_ response: HTTPResponse, close: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(String(cString: pushdeck_http_status_text(Int32(response.status))))\r\n"
        for header in response.headers where header.name != "content-length" && header.name != "connection" {
            text += "\(header.name): \(header.value)\r\n"
        }
        text += "content-length: \(response.body.count)\r\n"
        if close { text += "connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8) + response.body
    }
}
