/// Whether pushes are delivered (Getui `setPushModeForOff:`, JPush unregister; seeds 001, 002).
public enum PushMode: String, Sendable, Equatable, CaseIterable {
    case on
    case off
}
