import Foundation

/// The state the reducer owns: badges, mode, app state, counters, the held queue and the banner.
///
/// Messages themselves live in the store; the inbox keeps only what every decision needs, so its
/// size does not grow with the number of stored messages.
public struct Inbox: Sendable, Equatable {
    /// Both badge ledgers, per app. An app missing here has 0 and 0.
    public var badges: [String: Badge]
    /// Unread delivered messages, per app.
    public var unread: [String: Int]
    public var settings: InboxSettings
    /// The id the next message gets.
    public var nextId: Int64
    /// Pass-through messages held while the app was terminated, oldest first.
    public var held: [Message]
    /// The id of the launch notification, if any.
    public var launchId: Int64?
    /// The banner, while one is on screen (or leaving it).
    public var banner: Banner?
    /// How long a banner stays fully shown (`--banner-seconds`).
    public var bannerSeconds: Double
    /// The time zone quiet hours are read in (the machine's; tests choose one).
    public var timeZone: TimeZone = .current

    public init(
        badges: [String: Badge] = [:], unread: [String: Int] = [:], settings: InboxSettings = InboxSettings(),
        nextId: Int64 = 1, held: [Message] = [], launchId: Int64? = nil, banner: Banner? = nil,
        bannerSeconds: Double = Banner.defaultSeconds
    ) {
        self.badges = badges
        self.unread = unread
        self.settings = settings
        self.nextId = nextId
        self.held = held
        self.launchId = launchId
        self.banner = banner
        self.bannerSeconds = bannerSeconds
    }

    public var mode: PushMode { settings.mode }
    public var appState: AppState { settings.appState }
    public var dropped: Int { settings.dropped }

    public func badge(of app: String) -> Badge { badges[app] ?? Badge() }
    /// The icon badge summed over apps (what `pushdeck badge` prints without `--app`).
    public var totalBadge: Int { badges.values.reduce(0) { $0 + $1.icon } }
    public var totalServerBadge: Int { badges.values.reduce(0) { $0 + $1.server } }
    public var totalUnread: Int { unread.values.reduce(0, +) }
}
