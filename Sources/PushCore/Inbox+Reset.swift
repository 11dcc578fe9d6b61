import Foundation
import PushJSON

// MARK: - Reset

extension Inbox {
    /// `reset`: the app's (or every app's) messages, held queue, ledgers and unread
    /// count to nothing; push on, app foreground, nothing dropped, badge sync on. Mode, app state
    /// and the dropped count are one per inbox, so `app` resets them too. Ids keep counting up.
    mutating func reset(app: String?, all: Bool, now: Instant, into outcome: inout Outcome) {
        outcome.write(.reset(app: app, all: all, idFloor: nextId - 1))
        let apps = app.map { [$0] } ?? Set(badges.keys).union(unread.keys).sorted()
        for target in apps {
            noteCounts(of: target, in: &outcome)
            badges[target] = nil
            unread[target] = nil
        }
        removeHeld { app == nil || $0.app == app }
        activities.remove(app: app)
        channels.remove(app: app)
        if app == nil {
            launchId = nil
            // The request log and the faults are the whole inbox's: a reset of every app starts the log
            // again at seq 1 and disarms every fault.
            requestLog.clear()
            faults.reset()
        }
        if all {
            devices = [:]
            providerKeys = [:]
            getuiRequestIds = GetuiRequestIds()
        }
        if app == nil || banner?.message.app == app { banner = nil }
        let clean = InboxSettings()
        if settings != clean {
            let old = settings
            settings = clean
            outcome.write(.settings(settings))
            if old.mode != clean.mode { outcome.publish(.modeChanged, ["mode": .string(clean.mode.rawValue)]) }
            if old.appState != clean.appState {
                outcome.publish(.appChanged, ["state": .string(clean.appState.rawValue)])
            }
        }
        outcome.publish(.reset, ["app": .string(orNull: app), "all": .bool(all)])
        outcome.reply = .badge(app.map { badge(of: $0).icon } ?? totalBadge)
    }
}
