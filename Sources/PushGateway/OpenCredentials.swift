/// Made-up credentials a gateway with no key of the vendor registered takes (it checks only their
/// form then): what `pushdeck gateway token` and `gateway credentials` print until `pushdeck key
/// add` registers real ones. They look like the vendors' own (APNs key and team ids are 10
/// characters, a JPush appKey and master secret 24, Getui's appId, appKey and master secret 22),
/// so a backend that checks their length takes them too.
public enum OpenCredentials {
    public static let apnsKeyId = "PUSHDECK00"
    public static let apnsTeam = "PUSHDECK00"
    public static let jpushAppKey = "pushdeckOpenAppKey000001"
    public static let jpushMasterSecret = "pushdeckOpenSecret000001"
    public static let getuiAppId = "pushdeckOpenAppId00001"
    public static let getuiAppKey = "pushdeckOpenAppKey0001"
    public static let getuiMasterSecret = "pushdeckOpenSecret0001"
    /// The FCM service account of `gateway credentials fcm` with no FCM key registered: a
    /// project id and `client_email` of Google's forms (its key is made afresh each time).
    public static let fcmProjectId = "pushdeck-open"
    public static let fcmClientEmail = "pushdeck@pushdeck-open.iam.gserviceaccount.com"
}
