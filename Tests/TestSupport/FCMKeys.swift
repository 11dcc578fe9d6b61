import Foundation
import PushJSON

/// Service-account key files made the way Google's are: a 2048-bit RSA key in PKCS#8 PEM (by
/// openssl) in the JSON Firebase's console hands out.
public enum FCMKeys {
    /// A fresh RSA key's PEM text (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`).
    public static func makePEM() throws -> String {
        let result = try Spawn.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], captureOutput: true)
        guard result.status == 0, result.output.hasPrefix("-----BEGIN PRIVATE KEY-----") else {
            throw SpawnError(message: "openssl could not make an RSA key (status \(result.status))")
        }
        return result.output
    }

    /// A service account's key file for `project`, its `token_uri` Google's.
    public static func serviceAccountJSON(project: String, email: String? = nil, pem: String) -> String {
        let email = email ?? "firebase-adminsdk-test@\(project).iam.gserviceaccount.com"
        return JSON.object(JSONObject([
            (key: "type", value: "service_account"), (key: "project_id", value: .string(project)),
            (key: "private_key_id", value: "3f1c2b9a0d"), (key: "private_key", value: .string(pem)),
            (key: "client_email", value: .string(email)), (key: "client_id", value: "104729000000000000001"),
            (key: "auth_uri", value: "https://accounts.google.com/o/oauth2/auth"), (key: "token_uri", value: "https://oauth2.googleapis.com/token"),
        ])).prettyText
    }
}
