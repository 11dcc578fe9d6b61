import COpenSSL

/// OpenSSL's server context: the certificate and key, TLS 1.2 at least, and ALPN offering `h2`
/// then `http/1.1`. A ClientHello that offers ALPN but neither protocol is refused with the
/// `no_application_protocol` alert (RFC 7301 §3.2); one offering no ALPN at all gets HTTP/1.1.
final class TLSServerContext {
    let context: OpaquePointer
    /// ALPN's wire list of the server's protocols, handed to the select callback as its context
    /// pointer; freed with the context (after `SSL_CTX_free`, so no callback can still read it).
    private let protocols: UnsafeMutableBufferPointer<UInt8>

    init(certificatePath: String, keyPath: String) throws(GatewayError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw GatewayError("TLS: \(TLSServerContext.lastError())") }
        let wire: [UInt8] = [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8)
        let protocols = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: wire.count)
        _ = protocols.initialize(from: wire)
        self.context = context
        self.protocols = protocols
        _ = pushdeck_SSL_CTX_set_min_proto_version(context, pushdeck_TLS1_2_VERSION())
        // Partial writes and a moving buffer: the connection's output array may grow between a
        // write that wanted to wait and its retry. Released buffers keep idle connections small.
        _ = pushdeck_SSL_CTX_set_mode(context, pushdeck_SSL_MODE_ENABLE_PARTIAL_WRITE() | pushdeck_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER() | pushdeck_SSL_MODE_RELEASE_BUFFERS())
        _ = pushdeck_SSL_CTX_set_options(context, pushdeck_SSL_OP_NO_RENEGOTIATION())
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            throw GatewayError("TLS: cannot use the certificate \(certificatePath): \(TLSServerContext.lastError())")
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyPath, SSL_FILETYPE_PEM) == 1 else {
            throw GatewayError("TLS: cannot use the key \(keyPath): \(TLSServerContext.lastError())")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw GatewayError("TLS: the key \(keyPath) does not match the certificate \(certificatePath)")
        }
        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, offered, offeredLength, argument in
            guard let out, let outLength, let offered, let argument else { return pushdeck_SSL_TLSEXT_ERR_ALERT_FATAL() }
            let server = argument.assumingMemoryBound(to: UInt8.self)
            let serverLength = UInt32(2 + 2 + 1 + 8)
            let result = out.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 1) { chosen in
                SSL_select_next_proto(chosen, outLength, server, serverLength, offered, offeredLength)
            }
            return result == pushdeck_OPENSSL_NPN_NEGOTIATED() ? pushdeck_SSL_TLSEXT_ERR_OK() : pushdeck_SSL_TLSEXT_ERR_ALERT_FATAL()
        }, UnsafeMutableRawPointer(protocols.baseAddress))
    }

    deinit {
        SSL_CTX_free(context)
        protocols.deallocate()
    }

    /// OpenSSL's queued errors as text (and clears the queue).
    static func lastError() -> String {
        var texts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return texts.isEmpty ? "unknown error" : texts.joined(separator: "; ")
    }
}
