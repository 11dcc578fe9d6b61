import PushJSON

/// A credential a vendor's API is called with (`pushdeck key add`).
///
/// APNs: a `.p8` signing key — `id` is its key id (the JWT's `kid`), `team` the team id (the
/// JWT's `iss`), `secret` the PKCS#8 PEM text. JPush (`id` the appKey, `secret` the master
/// secret) and Getui (`id` the appId, `appKey`, `secret` the master secret) use the same row.
public struct ProviderKey: Sendable, Equatable {
    public var id: String
    public var vendor: Vendor
    public var team: String?
    public var appKey: String?
    public var secret: String
    /// An APNs key's environment (`key add apns --environment`): it signs requests to that one
    /// only; nil for both, as a key made in Apple's developer account is by default.
    public var environment: APNsEnvironment?

    public init(id: String, vendor: Vendor, team: String? = nil, appKey: String? = nil, secret: String, environment: APNsEnvironment? = nil) {
        self.id = id
        self.vendor = vendor
        self.team = team
        self.appKey = appKey
        self.secret = secret
        self.environment = environment
    }

    /// The APNs signing keys among `keys` (`key add apns`).
    public static func apnsKeys(of keys: [String: ProviderKey]) -> [ProviderKey] {
        keys.values.filter { $0.vendor == .apns }
    }

    /// The key's wire object (`key list`): never the secret.
    public var wireJSON: JSON {
        .object(JSONObject([
            (key: "id", value: .string(id)),
            (key: "vendor", value: .string(vendor.rawValue)),
            (key: "team", value: .string(orNull: team)),
            (key: "appKey", value: .string(orNull: appKey)),
        ] + (environment.map { [(key: "environment", value: JSON.string($0.rawValue))] } ?? [])))
    }
}

/// APNs' two environments ("Sending notification requests to APNs": the development server
/// `api.sandbox.push.apple.com` and the production server `api.push.apple.com`). A key
/// registered for one signs requests to that one; Apple answers a request to the other
/// `403 BadEnvironmentKeyIdInToken`.
public enum APNsEnvironment: String, Sendable, Equatable, CaseIterable {
    case sandbox
    case production

    /// The environment a request names by its host (`:authority`, or HTTP/1.1's `Host`):
    /// Apple's development host names are sandbox; any other host — pushdeck's own address
    /// included — is production, the environment a client names by default.
    public static func of(host: String?) -> APNsEnvironment {
        // Compared on the bytes: this runs for every push, and a host is ASCII.
        guard var host else { return .production }
        return host.withUTF8 { bytes in
            let name = bytes.prefix { $0 != UInt8(ascii: ":") }
            return sandboxHosts.contains { sandbox in
                sandbox.utf8.count == name.count && zip(sandbox.utf8, name).allSatisfy { lower, byte in
                    lower == ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
                }
            } ? .sandbox : .production
        }
    }

    /// The hosts of Apple's development environment.
    static let sandboxHosts = ["api.sandbox.push.apple.com", "api.development.push.apple.com"]
}
