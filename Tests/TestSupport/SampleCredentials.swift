/// The made-up vendor credentials and device ids the tests use — APNs, JPush and Getui — in one
/// place, so a route's unit tests and its end-to-end tests speak of the same app and device.
public enum SampleCredentials {
    /// An APNs device token (32 bytes, in hex).
    public static let apnsDeviceToken = String(repeating: "ab", count: 32)
    /// The key id and team of the APNs provider tokens tests sign (`APNsKeys.wellFormedAuthorization` names them).
    public static let apnsKeyId = "ABC123DEFG"
    public static let apnsTeam = "TEAM123456"

    /// A JPush app's AppKey and Master Secret, and a device's Registration ID.
    public static let jpushAppKey = "4f3b2a1908f7e6d5c4b3a291"
    public static let jpushMasterSecret = "5e987ac6d2e04d95a9d8f0d1"
    public static let jpushRegistrationId = "1a0018970a5c3d8e4d5"

    /// A Getui app's AppID, AppKey and MasterSecret, and a device's cid.
    public static let getuiAppId = "G5lfFkQZ008VoZUXydA2r2"
    public static let getuiAppKey = "xCGkZR1bCp6gscLUB20Dl4"
    public static let getuiMasterSecret = "RuxlC8ExWA7T4NFoJhQFd6"
    public static let getuiCid = "9c1f5e4d3b2a1908f7e6d5c4b3a29180"
}
