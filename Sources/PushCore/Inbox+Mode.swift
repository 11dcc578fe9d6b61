import Foundation
import PushJSON

// MARK: - Mode and app state

extension Inbox {
    /// Turns push delivery on or off.
    ///
    /// Turning it on keeps the dropped count: it is the history of what was dropped while off,
    /// shown as "N dropped while off", not a gauge of the current mode. Held messages wait while
    /// push is off and are delivered when it comes back on in the foreground.
    mutating func setMode(_ mode: PushMode, now: Instant, into outcome: inout Outcome) {
        if mode != settings.mode {
            settings.mode = mode
            outcome.write(.settings(settings))
            outcome.publish(.modeChanged, ["mode": .string(mode.rawValue)])
            releaseHeldIfDue(now: now, into: &outcome)
        }
        outcome.reply = .mode(mode)
    }

    /// Moves the simulated app to `state`: foreground, background or terminated (not running).
    ///
    /// Leaving the foreground takes the banner with it (it is an in-app view, like STPushView).
    /// Becoming foreground delivers the held pass-through messages (Getui's offline queue). The
    /// launch notification stays marked when the app starts: it is history — the notification
    /// the app was launched with — and is replaced only by a newer APNs push while terminated.
    mutating func setAppState(_ state: AppState, now: Instant, into outcome: inout Outcome) {
        if state != settings.appState {
            settings.appState = state
            outcome.write(.settings(settings))
            outcome.publish(.appChanged, ["state": .string(state.rawValue)])
            if state != .foreground { banner = nil }
            releaseHeldIfDue(now: now, into: &outcome)
        }
        outcome.reply = .appState(state)
    }
}
