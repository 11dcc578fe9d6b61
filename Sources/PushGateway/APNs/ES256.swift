import COpenSSL

/// ECDSA P-256 with SHA-256 (the JWT `ES256` algorithm) through OpenSSL.
///
/// A JWT carries the signature as the raw 64 bytes r‖s; OpenSSL's EVP interface takes and gives
/// DER (`ECDSA-Sig-Value`), so the two are converted with OpenSSL's own `ECDSA_SIG` functions.
public enum ES256 {
    /// Why a key could not be used.
    public struct KeyError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Checks that `pem` is a PKCS#8 EC P-256 private key (an APNs `.p8` file).
    public static func checkPrivateKey(pem: String) throws(KeyError) {
        let key = try privateKey(pem: pem)
        EVP_PKEY_free(key)
    }

    /// Whether `signature` (r‖s, 64 bytes) signs `message` with the public half of `pem`'s key.
    public static func verify(signature: [UInt8], of message: [UInt8], privateKeyPEM pem: String) -> Bool {
        guard signature.count == 64, let key = try? privateKey(pem: pem) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let der = derSignature(raw: signature), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return der.withUnsafeBufferPointer { derBytes in
            message.withUnsafeBufferPointer { messageBytes in
                EVP_DigestVerify(context, derBytes.baseAddress, derBytes.count, messageBytes.baseAddress, messageBytes.count) == 1
            }
        }
    }

    /// Signs `message` with `pem`'s key; the signature as r‖s (64 bytes), as a JWT carries it.
    public static func sign(_ message: [UInt8], privateKeyPEM pem: String) throws(KeyError) -> [UInt8] {
        let key = try privateKey(pem: pem)
        defer { EVP_PKEY_free(key) }
        return try sign(message, key: key)
    }

    /// Signs `message` with a P-256 key OpenSSL makes for this one signature and then forgets:
    /// a genuine ES256 signature no registered key verifies (what a token for a gateway with no
    /// key registered carries).
    public static func signWithThrowawayKey(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
        guard let key = pushdeck_EVP_EC_gen_P256() else { throw KeyError(description: "cannot make a P-256 key: \(lastError())") }
        defer { EVP_PKEY_free(key) }
        return try sign(message, key: key)
    }

    private static func sign(_ message: [UInt8], key: OpaquePointer) throws(KeyError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw KeyError(description: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw KeyError(description: "the key cannot sign: \(lastError())")
        }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw KeyError(description: "signing failed: \(lastError())")
        }
        var der = [UInt8](repeating: 0, count: length)
        let signed = der.withUnsafeMutableBufferPointer { derBytes in
            message.withUnsafeBufferPointer { EVP_DigestSign(context, derBytes.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { throw KeyError(description: "signing failed: \(lastError())") }
        var raw = [UInt8](repeating: 0, count: 64)
        let converted: Bool = der.withUnsafeBufferPointer { derBytes in
            var cursor: UnsafePointer<UInt8>? = derBytes.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, length) else { return false }
            defer { ECDSA_SIG_free(signature) }
            return raw.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return false }
                return BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, 32) == 32
                    && BN_bn2binpad(ECDSA_SIG_get0_s(signature), base + 32, 32) == 32
            }
        }
        guard converted else { throw KeyError(description: "OpenSSL gave a signature that is not an ECDSA-Sig-Value") }
        return raw
    }

    // MARK: - OpenSSL plumbing

    private static func privateKey(pem: String) throws(KeyError) -> OpaquePointer {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = pushdeck_bio_from_bytes(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else {
            throw KeyError(description: "not a PEM private key (an APNs .p8 file starts with -----BEGIN PRIVATE KEY-----): \(lastError())")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw KeyError(description: "not an EC P-256 key; APNs signs provider tokens with ES256 (P-256) keys")
        }
        return key
    }

    /// r‖s as a DER `ECDSA-Sig-Value`.
    private static func derSignature(raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + 32 }, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        // On success the signature owns r and s.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }

    private static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no detail from OpenSSL" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
