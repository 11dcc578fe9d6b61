import Glibc
@testable import PushGateway

/// Fuzz target: the gateway's HTTP/1.1 side (libhttp-parser driven by `HTTP1Session`).
///
/// The input is the byte stream a client sends. It is fed twice — whole, and in a chunking derived
/// from the input (1 to 97 bytes at a time) — and both runs must see the same requests and write
/// the same answers. Every request keeps to the limits (headers, body), every answer is an
/// HTTP/1.1 status line, and nothing is written after an answer that closes the connection.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    var limits = GatewayLimits()
    limits.maxHeaderBytes = 1024
    limits.maxBodyBytes = 2048
    let whole = feed(input, limits: limits, chunking: nil)
    var random = InputRandom(input)
    let chunked = feed(input, limits: limits, chunking: &random)
    // The header limit counts the bytes libhttp-parser marks, and a header folded across a chunk
    // boundary is marked with its line break: near the limit, one run may refuse 431 where the
    // other reads on. Everything else must not depend on how the bytes arrive.
    let nearLimit = [whole.output, chunked.output].contains { String(decoding: $0, as: UTF8.self).contains(" 431 ") }
    if !nearLimit {
        require(whole.requests == chunked.requests, "chunking changed the requests: \(whole.requests) vs \(chunked.requests)")
        require(whole.output == chunked.output, "chunking changed the answers: \(String(decoding: whole.output, as: UTF8.self)) vs \(String(decoding: chunked.output, as: UTF8.self))")
    }
    for request in whole.requests {
        require(request.body <= limits.maxBodyBytes, "a body of \(request.body) bytes passed the \(limits.maxBodyBytes)-byte limit")
        require(request.headerBytes <= limits.maxHeaderBytes + 64 * request.headers, "headers passed the limit")
    }
    let text = String(decoding: whole.output, as: UTF8.self)
    if !whole.output.isEmpty {
        require(text.hasPrefix("HTTP/1.1 "), "an answer that is no status line: \(text.prefix(40))")
    }
    if let close = text.range(of: "connection: close\r\n\r\n") {
        // After a closing answer, at most its own body follows.
        require(!text[close.upperBound...].contains("HTTP/1.1 "), "an answer after the connection was to close")
    }
    return 0
}

struct Seen: Equatable {
    var method: String
    var path: String
    var headers: Int
    var headerBytes: Int
    var body: Int
}

/// At most the bytes the text had on the wire: the session decodes with replacement, so each invalid
/// byte sequence became one U+FFFD (3 bytes in UTF-8) — counted here as the one byte it was at least.
func wireBytes(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : UTF8.width($1)) }
}

func feed(_ input: UnsafeBufferPointer<UInt8>, limits: GatewayLimits, chunking: UnsafeMutablePointer<InputRandom>?) -> (requests: [Seen], output: [UInt8]) {
    var requests: [Seen] = []
    let session = HTTP1Session(limits: limits, isTLS: false) { request, respond in
        requests.append(Seen(
            method: request.method, path: request.path, headers: request.headers.count,
            headerBytes: wireBytes(request.path) + request.headers.reduce(0) { $0 + wireBytes($1.name) + wireBytes($1.value) },
            body: request.body.count))
        // Every other request is answered at once; the rest after the next chunk (after "commit").
        respond(HTTPResponse(status: requests.count % 2 == 0 ? 200 : 404, headers: [HTTPHeader("apns-id", "x")], body: Array("{}".utf8)))
    }
    var output: [UInt8] = []
    var offset = 0
    while offset < input.count {
        let length = chunking.map { min(input.count - offset, 1 + Int($0.pointee.next() % 97)) } ?? input.count
        let alive = session.receive(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[offset..<(offset + length)])))
        session.produce(into: &output, limit: 1 << 20)
        offset += length
        if !alive || !session.wantsInput { break }
    }
    session.produce(into: &output, limit: 1 << 20)
    return (requests, output)
}
