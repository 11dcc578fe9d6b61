import COpenSSL

/// RSASSA-PKCS1-v1_5 with SHA-256 (the JWT `RS256` algorithm, RFC 7518 §3.3) through OpenSSL: what
/// a Google service account signs its token-request assertion with. The signature is the raw
/// PKCS#1 block (as long as the modulus), which OpenSSL's EVP interface takes as it is.
public enum RS256 {
    /// Why a key could not be used.
    public struct KeyError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// A parsed RSA key (public and private halves), freed when the last reference goes.
    /// Verifying with it again costs no PEM parse.
    public final class Key: @unchecked Sendable {
        // An EVP_PKEY is safe to use from several threads once made (OpenSSL 3 "Threads").
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { EVP_PKEY_free(pointer) }
        /// The modulus's size in bits.
        public var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }
    }

    /// Google's service-account keys are 2048-bit RSA keys; smaller ones are refused as a broken key.
    public static let minimumBits = 2048

    /// `pem`'s RSA private key (`-----BEGIN PRIVATE KEY-----`, PKCS#8, as a service-account JSON's
    /// `private_key` holds it; PKCS#1 `BEGIN RSA PRIVATE KEY` too).
    public static func privateKey(pem: String) throws(KeyError) -> Key {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = pushdeck_bio_from_bytes(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else {
            throw KeyError(description: "not a PEM private key (a service account's private_key starts with -----BEGIN PRIVATE KEY-----): \(lastError())")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            EVP_PKEY_free(key)
            throw KeyError(description: "not an RSA key; Google service accounts sign with RS256 (RSA) keys")
        }
        guard EVP_PKEY_get_bits(key) >= minimumBits else {
            let bits = EVP_PKEY_get_bits(key)
            EVP_PKEY_free(key)
            throw KeyError(description: "an RSA key of \(bits) bits; service-account keys have \(minimumBits)")
        }
        return Key(key)
    }

    /// Whether `signature` signs `message` with `key`'s public half.
    public static func verify(signature: [UInt8], of message: [UInt8], key: Key) -> Bool {
        guard !signature.isEmpty, let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        let verified = signature.withUnsafeBufferPointer { signatureBytes in
            message.withUnsafeBufferPointer { messageBytes in
                EVP_DigestVerify(context, signatureBytes.baseAddress, signatureBytes.count, messageBytes.baseAddress, messageBytes.count) == 1
            }
        }
        if !verified { ERR_clear_error() }
        return verified
    }

    /// Signs `message` with `key` (PKCS#1 v1.5, SHA-256).
    public static func sign(_ message: [UInt8], key: Key) throws(KeyError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw KeyError(description: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            throw KeyError(description: "the key cannot sign: \(lastError())")
        }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw KeyError(description: "signing failed: \(lastError())")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { throw KeyError(description: "signing failed: \(lastError())") }
        return Array(signature.prefix(length))
    }

    /// A new 2048-bit RSA private key as PKCS#8 PEM (what a service-account JSON's `private_key`
    /// holds), made by OpenSSL: the throwaway key of the credentials a gateway with no FCM key
    /// registered hands out.
    public static func makePrivateKeyPEM() throws(KeyError) -> String {
        guard let key = pushdeck_EVP_RSA_gen(UInt32(minimumBits)) else { throw KeyError(description: "cannot make an RSA key: \(lastError())") }
        defer { EVP_PKEY_free(key) }
        guard let bio = BIO_new(BIO_s_mem()) else { throw KeyError(description: "out of memory") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
            throw KeyError(description: "cannot write the key as PEM: \(lastError())")
        }
        var pem = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = BIO_read(bio, &chunk, Int32(chunk.count))
            guard read > 0 else { break }
            pem.append(contentsOf: chunk.prefix(Int(read)))
        }
        return String(decoding: pem, as: UTF8.self)
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
