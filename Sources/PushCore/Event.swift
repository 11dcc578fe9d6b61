import Foundation
import PushJSON

/// Everything that can change the inbox, whoever asked: a socket request, a key, a timer.
public enum Event: Sendable, Equatable {
    /// A decoded push arrived at wall time `at`.
    case push(Push, at: Date)
    /// Open/read these messages. The loop looks them up in the store first, so the reducer sees
    /// them as stored; ids not found are simply absent.
    case read([Message])
    /// Mark every unread message read (of one app, or of all apps when nil).
    case readAll(app: String?)
    /// Delete these messages (looked up as for `read`).
    case delete([Message])
    /// The `badge` op: an optional change, an optional sync switch. Without an app, `set` means
    /// the `default` app and `clear` clears every app.
    case badge(app: String?, change: BadgeChange?, sync: Bool?)
    case setMode(PushMode)
    case setAppState(AppState)
    /// `o` or a click on the banner: open its message (STPushView tap).
    case openBanner
    /// `Esc`: send the banner up at once (the swipe).
    case dismissBanner
    /// `badge --policy`: set an app's badge policy.
    case setBadgePolicy(app: String, BadgePolicy)
    /// `badge --sdk`: an SDK's badge call for an app.
    case sdkBadge(app: String, SDKBadgeCall)
    /// `mute APP [--for D]`: the loop turns the duration into a wall time.
    case mute(app: String, until: Date?)
    case unmute(app: String)
    /// `quiet HH:MM-HH:MM` or `quiet off` (nil).
    case setQuiet(QuietHours?)
    /// Held messages past their time to live at wall time `at` expire (the loop sends it before
    /// anything that could deliver them).
    case expireHeld(at: Date)
    /// The pointer moved onto (true) or off the banner, or `Tab` gave it or took its focus: its
    /// timer pauses while either holds.
    case pauseBanner(BannerPause, Bool)
    /// `reset`: a clean state for one app (or all) in one committed change.
    case reset(app: String?, all: Bool)
    /// A timer fired: let time-driven state (the banner) move on.
    case tick
    /// A change to the gateway's devices, at wall time `at` (`device add/remove/unregister`).
    case device(DeviceCommand, at: Date)
    /// A change to the vendors' keys.
    case key(KeyCommand)
    /// A `liveactivity` push arrived at wall time `at`.
    case activityPush(ActivityPush, at: Date)
    /// Channel management (`/1/apps/{bundleId}/channels`) at wall time `at`.
    case channel(ChannelCommand, at: Date)
    /// A broadcast push (`/4/broadcasts/apps/{bundleId}`) arrived at wall time `at`.
    case broadcast(BroadcastPush, at: Date)
    /// The user dismissed a Live Activity from the screen at wall time `at` (`x` on its card).
    case dismissActivity(id: String, at: Date)
}

/// A `liveactivity` push as the route let it through: APNs checks its headers, not its
/// ActivityKit content, so everything here is the device's to judge.
public struct ActivityPush: Sendable, Equatable {
    public var app: String
    public var token: String
    /// The payload's `aps` object (nil when it has none, or it is not an object).
    public var aps: JSONObject?

    public init(app: String, token: String, aps: JSONObject?) {
        self.app = app
        self.token = token
        self.aps = aps
    }
}

/// A badge change asked for by a user or script.
public enum BadgeChange: Sendable, Equatable {
    case set(Int)
    case clear
}
