import Foundation

/// APNs `.p8` signing keys made the way Apple's are: a PKCS#8 EC P-256 private key, by openssl.
public enum APNsKeys {
    /// An `authorization` value the gateway takes while no key is registered: a well-formed
    /// ES256 provider token (`{"alg":"ES256","kid":"ABC123DEFG"}`, `{"iss":"TEAM123456","iat":1700000000}`)
    /// whose signature is never checked.
    public static let wellFormedAuthorization =
        "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl"

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
