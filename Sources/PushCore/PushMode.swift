/// Whether pushes are delivered: the settings switch that calls Getui `setPushModeForOff:` or
/// JPush's unregister.
public enum PushMode: String, Sendable, Equatable, CaseIterable {
    case on
    case off
}
