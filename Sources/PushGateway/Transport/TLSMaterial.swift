import COpenSSL
import Glibc

/// The gateway's certificate: the user's (`--tls-cert`/`--tls-key`), or a local CA and a server
/// certificate for localhost, 127.0.0.1 and ::1 that pushdeck makes once (EC P-256, X.509 v3)
/// under its data folder and reuses; private keys are 0600.
public struct TLSMaterial: Sendable, Equatable {
    public var certificatePath: String
    public var keyPath: String
    /// The CA to trust (`curl --cacert`), when pushdeck made the certificate.
    public var caPath: String?

    public init(certificatePath: String, keyPath: String, caPath: String? = nil) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.caPath = caPath
    }

    /// `$XDG_DATA_HOME/pushdeck/tls`, else `~/.local/share/pushdeck/tls`.
    public static func folder(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/pushdeck/tls" }
        let home = environment["HOME"] ?? "/tmp"
        return home + "/.local/share/pushdeck/tls"
    }

    /// The local CA and server certificate in `folder`: made when missing, else reused.
    public static func local(in folder: String) throws(GatewayError) -> TLSMaterial {
        let material = TLSMaterial(certificatePath: folder + "/server.pem", keyPath: folder + "/server-key.pem", caPath: folder + "/ca.pem")
        let caKeyPath = folder + "/ca-key.pem"
        let files: [String] = [material.certificatePath, material.keyPath, folder + "/ca.pem", caKeyPath]
        let present = files.allSatisfy { access($0, R_OK) == 0 }
        if present { return material }
        try makeFolders(folder)
        let caKey = try newKey()
        defer { EVP_PKEY_free(caKey) }
        let serverKey = try newKey()
        defer { EVP_PKEY_free(serverKey) }
        let ca = try certificate(
            subject: "pushdeck local CA", key: caKey, issuer: nil, issuerKey: caKey, days: 3650,
            extensions: [(NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
                         (NID_subject_key_identifier, "hash")])
        defer { X509_free(ca) }
        let server = try certificate(
            subject: "localhost", key: serverKey, issuer: ca, issuerKey: caKey, days: 825,
            extensions: [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
                         (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1"),
                         (NID_subject_key_identifier, "hash"), (NID_authority_key_identifier, "keyid:always")])
        defer { X509_free(server) }
        try writeKey(caKey, to: caKeyPath)
        try writeKey(serverKey, to: material.keyPath)
        try writeCertificate(ca, to: folder + "/ca.pem")
        try writeCertificate(server, to: material.certificatePath)
        return material
    }

    // MARK: - OpenSSL

    private static func newKey() throws(GatewayError) -> OpaquePointer {
        guard let key = pushdeck_EVP_EC_gen_P256() else { throw GatewayError("TLS: cannot make a P-256 key: \(TLSServerContext.lastError())") }
        return key
    }

    private static func certificate(
        subject: String, key: OpaquePointer, issuer: OpaquePointer?, issuerKey: OpaquePointer, days: Int,
        extensions: [(Int32, String)]
    ) throws(GatewayError) -> OpaquePointer {
        guard let x509 = X509_new() else { throw GatewayError("TLS: \(TLSServerContext.lastError())") }
        var serial = [UInt8](repeating: 0, count: 16)
        RAND_bytes(&serial, Int32(serial.count))
        serial[0] &= 0x7F
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        defer { BN_free(number) }
        var ok = X509_set_version(x509, 2) == 1
            && BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)) != nil
            && X509_gmtime_adj(X509_getm_notBefore(x509), -3600) != nil
            && X509_gmtime_adj(X509_getm_notAfter(x509), days * 86400) != nil
            && X509_set_pubkey(x509, key) == 1
        let name = X509_get_subject_name(x509)
        ok = ok && X509_NAME_add_entry_by_txt(name, "O", pushdeck_MBSTRING_ASC(), "pushdeck", -1, -1, 0) == 1
            && X509_NAME_add_entry_by_txt(name, "CN", pushdeck_MBSTRING_ASC(), subject, -1, -1, 0) == 1
        ok = ok && X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0) } ?? name) == 1
        var context = X509V3_CTX()
        pushdeck_X509V3_set_ctx_nodb(&context)
        X509V3_set_ctx(&context, issuer ?? x509, x509, nil, nil, 0)
        for (nid, value) in extensions where ok {
            guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                ok = false
                break
            }
            ok = X509_add_ext(x509, extensionValue, -1) == 1
            X509_EXTENSION_free(extensionValue)
        }
        ok = ok && X509_sign(x509, issuerKey, EVP_sha256()) > 0
        guard ok else {
            X509_free(x509)
            throw GatewayError("TLS: cannot make the certificate for \(subject): \(TLSServerContext.lastError())")
        }
        return x509
    }

    /// Writes a private key readable by its owner only (created 0600, never wider).
    private static func writeKey(_ key: OpaquePointer, to path: String) throws(GatewayError) {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw GatewayError("cannot write \(path): \(String(cString: strerror(errno)))") }
        guard let bio = BIO_new_fd(fd, 1) else {
            Glibc.close(fd)
            throw GatewayError("cannot write \(path): \(TLSServerContext.lastError())")
        }
        defer { BIO_free_all(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
            throw GatewayError("cannot write \(path): \(TLSServerContext.lastError())")
        }
    }

    private static func writeCertificate(_ x509: OpaquePointer, to path: String) throws(GatewayError) {
        guard let bio = BIO_new_file(path, "w") else { throw GatewayError("cannot write \(path): \(TLSServerContext.lastError())") }
        defer { BIO_free_all(bio) }
        guard PEM_write_bio_X509(bio, x509) == 1 else { throw GatewayError("cannot write \(path): \(TLSServerContext.lastError())") }
    }

    /// `mkdir -p`, each folder it makes 0700.
    private static func makeFolders(_ folder: String) throws(GatewayError) {
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw GatewayError("cannot create \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
