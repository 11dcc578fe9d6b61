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

    public init(id: String, vendor: Vendor, team: String? = nil, appKey: String? = nil, secret: String) {
        self.id = id
        self.vendor = vendor
        self.team = team
        self.appKey = appKey
        self.secret = secret
    }

    /// The key's wire object (`key list`): never the secret.
    public var wireJSON: JSON {
        .object(JSONObject([
            (key: "id", value: .string(id)),
            (key: "vendor", value: .string(vendor.rawValue)),
            (key: "team", value: .string(orNull: team)),
            (key: "appKey", value: .string(orNull: appKey)),
        ]))
    }
}
