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
    /// Pass-through messages held while the app was terminated, oldest first. Changed only
    /// through `hold`, `releaseAllHeld` and `removeHeld`, which keep `heldIds` in step.
    public private(set) var held: [Message]
    /// The ids in `held`: whether a message is held is asked for every message read or deleted,
    /// so it must not cost a scan of the queue.
    public private(set) var heldIds: Set<Int64>
    /// When each held message expires, worked out once as it is held (or loaded) from its
    /// stored time to live: the expiry check runs before every mode, app-state and device change.
    private(set) var heldExpiry: [Int64: Date]
    /// The id of the launch notification, if any.
    public var launchId: Int64?
    /// The banner, while one is on screen (or leaving it).
    public var banner: Banner?
    /// The decoder the server was configured with (`--max-payload`). A push is decoded once, as
    /// it comes: what a held message needs later (its badge directive, its time to live) is kept
    /// on the message.
    public var decoder: PushDecoder
    /// How long a banner stays fully shown (`--banner-seconds`).
    public var bannerSeconds: Double
    /// The gateway's devices, by token.
    public var devices: [String: Device] = [:]
    /// The vendors' credentials, by id (`key add`).
    public var providerKeys: [String: ProviderKey] = [:]
    /// The Getui `request_id`s pushed within the last day (a repeat is refused).
    public var getuiRequestIds = GetuiRequestIds()
    /// The ids of pushes by the team bus taken within the last day, per sending instance (the
    /// same day-long memory as Getui's request ids): a push published again is taken once.
    public var busPushIds = GetuiRequestIds()
    /// The Live Activities and the `liveactivity` pushes that reached none.
    public var activities = ActivityBook()
    /// The provider requests since the last reset (memory only, the newest `RequestLog.capacity`).
    public var requestLog = RequestLog()
    /// The armed faults (memory only).
    public var faults = FaultBook()
    /// The broadcast channels (iOS 18) the apps made.
    public var channels = ChannelBook()
    /// The time zone quiet hours are read in (the machine's; tests choose one).
    public var timeZone: TimeZone = .current

    public init(
        badges: [String: Badge] = [:], unread: [String: Int] = [:], settings: InboxSettings = InboxSettings(),
        nextId: Int64 = 1, held: [Message] = [], launchId: Int64? = nil, banner: Banner? = nil,
        bannerSeconds: Double = Banner.defaultSeconds, decoder: PushDecoder = PushDecoder()
    ) {
        self.badges = badges
        self.unread = unread
        self.settings = settings
        self.nextId = nextId
        self.held = held
        self.heldIds = Set(held.map(\.id))
        self.heldExpiry = Dictionary(held.map { ($0.id, Self.expiry(of: $0)) }, uniquingKeysWith: { first, _ in first })
        self.launchId = launchId
        self.banner = banner
        self.bannerSeconds = bannerSeconds
        self.decoder = decoder
    }

    // MARK: - The held queue

    /// True when the message with `id` is in the held queue; O(1).
    public func isHeld(id: Int64) -> Bool { heldIds.contains(id) }

    /// Adds a message at the end of the held queue.
    mutating func hold(_ message: Message) {
        held.append(message)
        heldIds.insert(message.id)
        heldExpiry[message.id] = Self.expiry(of: message)
    }

    /// Empties the held queue, returning what it held, oldest first.
    mutating func releaseAllHeld() -> [Message] {
        defer {
            held = []
            heldIds = []
            heldExpiry = [:]
        }
        return held
    }

    /// Removes the held messages `shouldRemove` picks (one pass).
    mutating func removeHeld(where shouldRemove: (Message) -> Bool) {
        held.removeAll(where: shouldRemove)
        heldIds = Set(held.map(\.id))
        heldExpiry = heldExpiry.filter { heldIds.contains($0.key) }
    }

    /// Removes the messages with `ids` from the held queue: one pass, however many ids.
    mutating func removeHeld(_ ids: Set<Int64>) {
        let gone = ids.intersection(heldIds)
        guard !gone.isEmpty else { return }
        held.removeAll { gone.contains($0.id) }
        heldIds.subtract(gone)
        for id in gone { heldExpiry[id] = nil }
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

/// The inbox as the routes read it: the devices, the provider keys, the Live Activities, the
/// broadcast channels, the Getui request ids seen and the app's state. The gateway makes one
/// for every request, so these parts are taken one by one: a copy of the whole inbox retained
/// each of its buffers and released each again, 43 of the 765 atomic reference counts of an
/// APNs push on the loop (callgrind).
public struct InboxView: Sendable {
    public let devices: [String: Device]
    public let providerKeys: [String: ProviderKey]
    public let activities: ActivityBook
    public let channels: ChannelBook
    public let getuiRequestIds: GetuiRequestIds
    public let appState: AppState

    public init(_ inbox: borrowing Inbox) {
        devices = inbox.devices
        providerKeys = inbox.providerKeys
        activities = inbox.activities
        channels = inbox.channels
        getuiRequestIds = inbox.getuiRequestIds
        appState = inbox.appState
    }

    /// The registered APNs signing keys.
    public var apnsKeys: [ProviderKey] { ProviderKey.apnsKeys(of: providerKeys) }
}
