/// The values of `apns-push-type`, from Apple's "Sending notification requests to APNs".
///
/// Several push types go to a topic that is the bundle id with a suffix (`com.example.app.voip`);
/// the suffix is taken off to find the app the device belongs to.
public enum APNsPushType: String, Sendable, CaseIterable {
    case alert
    case background
    case controls
    case location
    case voip
    case complication
    case fileprovider
    case liveactivity
    case pushtotalk
    case widgets
    case mdm

    /// The suffix Apple's document asks the topic to carry for this push type.
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: nil
        case .controls: ".push-type.controls"
        case .location: ".location-query"
        case .voip: ".voip"
        case .complication: ".complication"
        case .fileprovider: ".pushkit.fileprovider"
        case .liveactivity: ".push-type.liveactivity"
        case .pushtotalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        }
    }

    /// The largest payload APNs takes for this push type, in bytes.
    public var payloadLimit: Int { self == .voip ? 5120 : 4096 }
}
