/// The keys of the `settings` table.
enum SettingKey {
    static let mode = "mode"
    static let appState = "app_state"
    static let dropped = "dropped"
    static let badgeSync = "badge_sync"
    /// The apps whose badge policy is not `app`, as a JSON object of app → policy.
    static let badgePolicies = "badge_policies"
    /// Muted apps: a JSON object of app → the end (milliseconds since 1970) or null.
    static let muted = "muted"
    /// Quiet hours as HH:MM-HH:MM, or off.
    static let quiet = "quiet"
    /// Whether the socket's default device is offline: true or false.
    static let deviceOffline = "device_offline"
    /// The highest message id ever deleted: the next id is above it even when the newest
    /// messages were deleted, so an id a client has seen never names another message.
    static let idFloor = "id_floor"
}
