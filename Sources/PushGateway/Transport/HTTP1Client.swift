import CHTTPParser
import Glibc

/// A blocking HTTP/1.1 client of a gateway on loopback, where it speaks cleartext: the live
/// scenario player sends a step's vendor request through it. One request a connection
/// (`connection: close`); the answer is read to its end and parsed by libhttp-parser.
public enum HTTP1Client {
    /// Sends `request` to `address` and gives the gateway's answer; a connection that fails,
    /// breaks or does not answer within `timeoutSeconds` is a `GatewayError` saying so.
    public static func exchange(_ request: HTTPRequest, with address: GatewayAddress, timeoutSeconds: Int = 10) throws(GatewayError) -> HTTPResponse {
        let fd = try connect(to: address, timeoutSeconds: timeoutSeconds)
        defer { Glibc.close(fd) }
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nhost: \(address)\r\n"
        for header in request.headers where !["host", "content-length", "connection"].contains(header.name) {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "content-length: \(request.body.count)\r\nconnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + request.body
        var offset = 0
        while offset < bytes.count {
            let start = offset
            let sent = bytes.withUnsafeBytes { raw in Glibc.send(fd, raw.baseAddress.map { $0 + start }, raw.count - start, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw GatewayError("sending to the gateway at \(address): \(String(cString: strerror(errno)))") }
            offset += sent
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let reason = errno == EAGAIN || errno == EWOULDBLOCK ? "no answer in \(timeoutSeconds) s" : String(cString: strerror(errno))
                throw GatewayError("reading the gateway's answer from \(address): \(reason)")
            }
            if count == 0 { break }
            answer.append(contentsOf: chunk[0..<count])
        }
        return try ResponseParser.parse(answer, from: address)
    }

    /// A blocking TCP connection to `address`, its reads and writes timing out.
    private static func connect(to address: GatewayAddress, timeoutSeconds: Int) throws(GatewayError) -> Int32 {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, address.host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = address.port.bigEndian
        } else if inet_pton(AF_INET6, address.host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = address.port.bigEndian
        } else {
            throw GatewayError("the gateway's address \(address) is not an IP address")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw GatewayError("socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32 = family == AF_INET
            ? withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            : withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw GatewayError("no gateway answers at \(address) (\(reason))")
        }
        return fd
    }
}

/// An HTTP/1.1 response read by libhttp-parser: its status, headers and body.
private final class ResponseParser {
    private var headers: [HTTPHeader] = []
    private var field: [UInt8] = []
    private var value: [UInt8] = []
    private var inValue = false
    private var body: [UInt8] = []
    private var complete = false

    static func parse(_ bytes: [UInt8], from address: GatewayAddress) throws(GatewayError) -> HTTPResponse {
        let reader = ResponseParser()
        let parser = UnsafeMutablePointer<http_parser>.allocate(capacity: 1)
        defer { parser.deallocate() }
        http_parser_init(parser, HTTP_RESPONSE)
        var settings = http_parser_settings()
        settings.on_header_field = { parser, at, length in
            let reader = ResponseParser.of(parser)
            if reader.inValue { reader.endHeader() }
            if let at { reader.field.append(contentsOf: UnsafeRawBufferPointer(start: at, count: length)) }
            return 0
        }
        settings.on_header_value = { parser, at, length in
            let reader = ResponseParser.of(parser)
            reader.inValue = true
            if let at { reader.value.append(contentsOf: UnsafeRawBufferPointer(start: at, count: length)) }
            return 0
        }
        settings.on_headers_complete = { parser in
            let reader = ResponseParser.of(parser)
            if reader.inValue || !reader.field.isEmpty { reader.endHeader() }
            return 0
        }
        settings.on_body = { parser, at, length in
            if let at { ResponseParser.of(parser).body.append(contentsOf: UnsafeRawBufferPointer(start: at, count: length)) }
            return 0
        }
        settings.on_message_complete = { parser in
            let reader = ResponseParser.of(parser)
            // A `100 Continue` is not the answer: the parser starts the next message after it.
            if pushdeck_http_status_code(parser.unsafelyUnwrapped) >= 200 { reader.complete = true }
            return 0
        }
        parser.pointee.data = Unmanaged.passUnretained(reader).toOpaque()
        let status: Int32 = withExtendedLifetime(reader) {
            bytes.withUnsafeBytes { raw in
                let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
                _ = http_parser_execute(parser, &settings, base, raw.count)
                // The end of the stream ends a body that has no length.
                _ = http_parser_execute(parser, &settings, nil, 0)
                return pushdeck_http_status_code(parser)
            }
        }
        guard reader.complete, pushdeck_http_errno(parser) == Int32(HPE_OK.rawValue) else {
            throw GatewayError("the gateway at \(address) sent an answer that is not HTTP/1.1 (\(String(cString: pushdeck_http_errno_name(parser))))")
        }
        return HTTPResponse(status: Int(status), headers: reader.headers, body: reader.body)
    }

    /// The reader behind the parser's context pointer, set before `http_parser_execute` runs.
    private static func of(_ parser: UnsafeMutablePointer<http_parser>?) -> ResponseParser {
        Unmanaged<ResponseParser>.fromOpaque(UnsafeRawPointer(parser.unsafelyUnwrapped.pointee.data.unsafelyUnwrapped)).takeUnretainedValue()
    }

    private func endHeader() {
        headers.append(HTTPHeader(String(decoding: field, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
        field.removeAll()
        value.removeAll()
        inValue = false
    }
}
