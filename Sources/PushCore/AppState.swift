/// The simulated app's state, one of the three an iOS push can find an app in: which callback a
/// push reaches and whether a banner shows.
public enum AppState: String, Sendable, Equatable, CaseIterable {
    case foreground
    case background
    case terminated

    /// The next state in the UI's `f` cycle.
    public var next: AppState {
        switch self {
        case .foreground: .background
        case .background: .terminated
        case .terminated: .foreground
        }
    }
}
