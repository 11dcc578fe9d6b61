import COpenSSL

/// SHA-256 through OpenSSL, with the algorithm fetched once.
///
/// `EVP_sha256()` passed to a digest call makes OpenSSL 3 look the algorithm up in its provider
/// store on every call (a lock and a property query); Getui's sign, checked on every token
/// request, and the control token's comparison fetch it once. A fetched `EVP_MD` is immutable
/// and reference-counted by OpenSSL: any thread may digest with it.
enum SHA256Digest {
    private struct Algorithm: @unchecked Sendable {
        let md: OpaquePointer?
    }
    private static let algorithm = Algorithm(md: EVP_MD_fetch(nil, "SHA256", nil))

    /// The 32-byte digest of `bytes`, or nil when OpenSSL fails.
    static func of(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let md = algorithm.md else { return nil }
        var length: UInt32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            count = EVP_Digest(bytes.baseAddress, bytes.count, buffer.baseAddress, &length, md, nil) == 1 && length == 32 ? 32 : 0
        }
        return out.count == 32 ? out : nil
    }

    static func of(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }
}

/// `bytes` as lower-case hex digits, two a byte.
func lowercaseHex(_ bytes: some Collection<UInt8>) -> String {
    let digits: StaticString = "0123456789abcdef"
    return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
        var at = 0
        for byte in bytes {
            out[at] = digits.utf8Start[Int(byte >> 4)]
            out[at + 1] = digits.utf8Start[Int(byte & 0x0F)]
            at += 2
        }
        return at
    }
}
