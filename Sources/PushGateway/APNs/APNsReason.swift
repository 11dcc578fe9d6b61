/// The reasons APNs gives in an error response's `{"reason":…}` body, with their HTTP status,
/// as Apple's "Handling error responses from Apple Push Notification service" lists them.
///
/// pushdeck answers a subset (what a local gateway can find wrong); the rest are listed so the
/// table reads like Apple's and a test can hold each row to it.
public enum APNsReason: String, Sendable, CaseIterable {
    // 400
    case badCollapseId = "BadCollapseId"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case idleTimeout = "IdleTimeout"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case topicDisallowed = "TopicDisallowed"
    // 400, of broadcast channels ("Handling error responses from APNs", its broadcast rows; the
    // channel-management and broadcast pages answer an unknown or deleted channel with 400
    // `ChannelNotRegistered`, as APNSwift's test server, built to Apple's pages, does too)
    case badChannelId = "BadChannelId"
    case cannotCreateChannelConfig = "CannotCreateChannelConfig"
    case channelNotRegistered = "ChannelNotRegistered"
    case featureNotEnabled = "FeatureNotEnabled"
    case missingChannelId = "MissingChannelId"
    case missingPushType = "MissingPushType"
    // 403
    case badCertificate = "BadCertificate"
    case badCertificateEnvironment = "BadCertificateEnvironment"
    case expiredProviderToken = "ExpiredProviderToken"
    case forbidden = "Forbidden"
    case invalidProviderToken = "InvalidProviderToken"
    case missingProviderToken = "MissingProviderToken"
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    case badEnvironmentKeyIdInToken = "BadEnvironmentKeyIdInToken"
    // 404
    case badPath = "BadPath"
    // 405
    case methodNotAllowed = "MethodNotAllowed"
    // 410
    case expiredToken = "ExpiredToken"
    case unregistered = "Unregistered"
    // 413
    case payloadTooLarge = "PayloadTooLarge"
    // 429
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    case tooManyRequests = "TooManyRequests"
    // 500
    case internalServerError = "InternalServerError"
    // 503
    case serviceUnavailable = "ServiceUnavailable"
    case shutdown = "Shutdown"

    /// The HTTP status APNs answers this reason with: Apple's table, as data.
    public static let statusTable: [APNsReason: Int] = [
        .badCollapseId: 400, .badDeviceToken: 400, .badExpirationDate: 400, .badMessageId: 400,
        .badPriority: 400, .badTopic: 400, .deviceTokenNotForTopic: 400, .duplicateHeaders: 400,
        .idleTimeout: 400, .invalidPushType: 400, .missingDeviceToken: 400, .missingTopic: 400,
        .payloadEmpty: 400, .topicDisallowed: 400,
        .badChannelId: 400, .cannotCreateChannelConfig: 400, .channelNotRegistered: 400, .featureNotEnabled: 400,
        .missingChannelId: 400, .missingPushType: 400,
        .badCertificate: 403, .badCertificateEnvironment: 403, .expiredProviderToken: 403, .forbidden: 403,
        .invalidProviderToken: 403, .missingProviderToken: 403, .unrelatedKeyIdInToken: 403,
        .badEnvironmentKeyIdInToken: 403,
        .badPath: 404,
        .methodNotAllowed: 405,
        .expiredToken: 410, .unregistered: 410,
        .payloadTooLarge: 413,
        .tooManyProviderTokenUpdates: 429, .tooManyRequests: 429,
        .internalServerError: 500,
        .serviceUnavailable: 503, .shutdown: 503,
    ]

    public var status: Int { Self.statusTable[self] ?? 500 }
}
