import PushCore

/// What a key means: a move of the screen itself, or a request for the inbox.
public enum UIAction: Sendable, Equatable {
    // MARK: Screen moves (applied by `Screen.apply`)
    /// Move the list selection by rows (negative is up).
    case moveSelection(by: Int)
    /// Select a list row by index (0 is the newest; `Int.max` is the last).
    case select(Int)
    /// Scroll the detail view by lines.
    case scrollDetail(by: Int)
    case openDetail(id: Int64)
    case back
    case toggleHelp
    case openFilter
    case filterInput(Character)
    case filterBackspace
    case closeFilter
    case clearFilter
    /// Group the list by thread, or list every message on its own (`t`).
    case toggleGrouping
    /// Show (or fold again) a thread's messages under its row.
    case toggleThread(ThreadKey)
    /// Select a Live Activity card by its activity's id (`[`, `]`, a click), or none: the
    /// selection goes back to the list (`Esc`).
    case selectCard(String?)
    /// Open a Live Activity: its fields and its history of pushes.
    case openActivity(id: String)
    /// Scroll the opened activity by lines.
    case scrollActivity(by: Int)

    // MARK: For the host
    /// Handle this request as a script's is: the very value a client sends over the socket.
    case request(Request)
    /// A gesture on the banner, for the reducer (no socket request has one).
    case banner(BannerGesture)
    /// Leave pushdeck.
    case quit
}
