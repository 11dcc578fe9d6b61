import Foundation

/// APNs `.p8` signing keys made the way Apple's are: a PKCS#8 EC P-256 private key, by openssl.
public enum APNsKeys {
    /// A fresh key's PEM text (`openssl ecparam -genkey -name prime256v1 | openssl pkcs8 -topk8 -nocrypt`).
    public static func makeP8() throws -> String {
        let result = try Spawn.run(
            ["sh", "-c", "openssl ecparam -genkey -name prime256v1 | openssl pkcs8 -topk8 -nocrypt"], captureOutput: true)
        guard result.status == 0, result.output.hasPrefix("-----BEGIN PRIVATE KEY-----") else {
            throw SpawnError(message: "openssl could not make a P-256 key (status \(result.status))")
        }
        return result.output
    }
}
