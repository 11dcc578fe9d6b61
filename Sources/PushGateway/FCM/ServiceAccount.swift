import PushCore
import PushJSON

/// A Google service account's key file, the JSON Firebase's console hands out ("Project settings →
/// Service accounts → Generate new private key"): `type` `service_account`, `project_id`,
/// `private_key_id`, `private_key` (PKCS#8 PEM), `client_email`, `client_id`, `token_uri`, … The
/// Admin SDKs sign their token request with `private_key` as `client_email` and post it to
/// `token_uri` (google-auth `service_account.Credentials.from_service_account_info`).
public struct ServiceAccount: Sendable, Equatable {
    public var projectId: String
    public var privateKeyId: String
    public var privateKeyPEM: String
    public var clientEmail: String
    public var clientId: String
    public var tokenURI: String

    /// Google's token endpoint: the `token_uri` of every real key file, and the `aud` google-auth
    /// signs into every assertion whatever the file's `token_uri` says (`google/oauth2/
    /// service_account.py`, `_make_authorization_grant_assertion`: `"aud": _DEFAULT_TOKEN_URI`).
    public static let googleTokenURI = "https://oauth2.googleapis.com/token"

    public init(projectId: String, privateKeyId: String, privateKeyPEM: String, clientEmail: String, clientId: String, tokenURI: String) {
        self.projectId = projectId
        self.privateKeyId = privateKeyId
        self.privateKeyPEM = privateKeyPEM
        self.clientEmail = clientEmail
        self.clientId = clientId
        self.tokenURI = tokenURI
    }

    /// Why a file is not a service account's key.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The key file's text, checked: a JSON object of `type` `service_account` with the fields
    /// the SDKs read, and a `private_key` OpenSSL reads as an RSA key of 2048 bits or more.
    public init(parsing bytes: [UInt8]) throws(Problem) {
        guard case .object(let object)? = try? JSON.parse(bytes) else {
            throw Problem(description: "not JSON (a service-account key file is one JSON object)")
        }
        func field(_ name: String, required: Bool = true) throws(Problem) -> String {
            switch object[name] {
            case .string(let text)? where !text.isEmpty: return text
            case nil where !required: return ""
            case nil: throw Problem(description: "no \"\(name)\" (a service-account key file has type, project_id, private_key_id, private_key, client_email, …)")
            default: throw Problem(description: "\"\(name)\" is not a non-empty string")
            }
        }
        let type = try field("type")
        guard type == "service_account" else {
            throw Problem(description: "\"type\" is \"\(type.prefix(40))\", not \"service_account\" (FCM's HTTP v1 API takes a service account's key, from Firebase's console: Project settings, Service accounts)")
        }
        projectId = try field("project_id")
        // Project ids: 6 to 30 lower-case letters, digits and hyphens (Google Cloud's "Creating and
        // managing projects"); they name the project in every FCM URL.
        guard Self.isProjectId(projectId) else {
            throw Problem(description: "\"project_id\" '\(projectId.prefix(40))' is not a project id: 6 to 30 lower-case letters, digits and hyphens, starting with a letter")
        }
        privateKeyId = try field("private_key_id", required: false)
        privateKeyPEM = try field("private_key")
        clientEmail = try field("client_email")
        guard clientEmail.contains("@") else { throw Problem(description: "\"client_email\" '\(clientEmail.prefix(60))' is not an email address") }
        clientId = try field("client_id", required: false)
        tokenURI = try field("token_uri", required: false)
        do {
            _ = try RS256.privateKey(pem: privateKeyPEM)
        } catch {
            throw Problem(description: "\"private_key\" is not usable: \(error.description)")
        }
    }

    /// Whether `text` is a Google Cloud project id: 6 to 30 of `a-z`, `0-9`, `-`, starting with a
    /// letter, not ending with a hyphen.
    public static func isProjectId(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (6...30).contains(bytes.count), let first = bytes.first, (0x61...0x7A).contains(first), bytes.last != UInt8(ascii: "-") else {
            return false
        }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// The key as the gateway keeps it (`key add fcm`): id the `client_email` (the assertion's
    /// `iss`), `team` the project id, `appKey` the project's default app (`--app`), `secret` the PEM.
    public func providerKey(app: String?) -> ProviderKey {
        ProviderKey(id: clientEmail, vendor: .fcm, team: projectId, appKey: app, secret: privateKeyPEM)
    }

    /// The key file's JSON, fields in the order Firebase's console writes them.
    public var json: JSON {
        .object(JSONObject([
            (key: "type", value: "service_account"),
            (key: "project_id", value: .string(projectId)),
            (key: "private_key_id", value: .string(privateKeyId)),
            (key: "private_key", value: .string(privateKeyPEM)),
            (key: "client_email", value: .string(clientEmail)),
            (key: "client_id", value: .string(clientId)),
            (key: "auth_uri", value: "https://accounts.google.com/o/oauth2/auth"),
            (key: "token_uri", value: .string(tokenURI)),
            (key: "auth_provider_x509_cert_url", value: "https://www.googleapis.com/oauth2/v1/certs"),
            (key: "client_x509_cert_url", value: .string("https://www.googleapis.com/robot/v1/metadata/x509/" + clientEmail.replacingOccurrences(of: "@", with: "%40"))),
            (key: "universe_domain", value: "googleapis.com"),
        ]))
    }
}
