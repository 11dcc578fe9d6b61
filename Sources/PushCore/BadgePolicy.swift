import PushJSON

/// Who moves an app's icon badge: the app's own code, or the platform alone.
///
/// `app` is the badge code of the Getui and JPush sample apps: +1 per delivered message, −1 per
/// read, the server badge synced after each change. `platform` is the device with no such code:
/// the icon moves only when a push says so (`aps.badge`, JPush `ios.badge`, Getui `autoBadge`),
/// pass-through never moves it, reading leaves it, and nothing syncs the server badge.
public enum BadgePolicy: String, Sendable, Equatable, CaseIterable {
    case app, platform
}

/// A push SDK's badge call, moving exactly the ledger(s) its header says it moves: JPush
/// `setBadge:`/`resetBadge` and Getui `setBadge:`/`resetBadge` only the server's count, Getui
/// `setLocalBadge:` and iOS's own `applicationIconBadgeNumber`/`setBadgeCount` only the icon.
public struct SDKBadgeCall: Sendable, Equatable {
    public enum SDK: String, Sendable, CaseIterable { case jpush, getui, ios }
    public enum Ledger: Sendable, Equatable { case server, icon }

    public var sdk: SDK
    public var call: String
    public var value: Int
    public var ledger: Ledger

    /// The calls each SDK has, the ledger each moves, and whether it takes a number.
    static let table: [SDK: [(call: String, ledger: Ledger, takesValue: Bool)]] = [
        .jpush: [("setBadge", .server, true), ("resetBadge", .server, false)],
        .getui: [("setBadge", .server, true), ("resetBadge", .server, false), ("setLocalBadge", .icon, true)],
        .ios: [("setApplicationIconBadgeNumber", .icon, true), ("setBadgeCount", .icon, true)],
    ]

    /// The call `call` of `sdk` with its number (nil for the reset calls), or a refusal saying
    /// what the SDK has.
    public init(sdk: SDK, call: String, value: Int?) throws(WireError) {
        let calls = Self.table[sdk] ?? []
        guard let entry = calls.first(where: { $0.call == call }) else {
            throw WireError("\(sdk.rawValue) has no badge call '\(call)'; it has \(calls.map(\.call).joined(separator: ", "))")
        }
        if entry.takesValue {
            guard let value else { throw WireError("\(sdk.rawValue) \(call) needs a \"value\": the badge number, an integer ≥ 0") }
            self.value = value
        } else {
            guard value == nil || value == 0 else { throw WireError("\(sdk.rawValue) \(call) takes no value (it sets 0)") }
            self.value = 0
        }
        self.sdk = sdk
        self.call = call
        self.ledger = entry.ledger
    }

    /// Whether the call takes a number (the reset calls do not).
    public var takesValue: Bool {
        Self.table[sdk]?.first { $0.call == call }?.takesValue ?? true
    }

    /// How the call reads in Objective-C, for the detail view's advice.
    public var objectiveC: String {
        switch (sdk, ledger) {
        case (.jpush, _): call == "resetBadge" ? "[JPUSHService resetBadge]" : "[JPUSHService setBadge:\(value)]"
        case (.getui, .server): call == "resetBadge" ? "[GeTuiSdk resetBadge]" : "[GeTuiSdk setBadge:\(value)]"
        case (.getui, .icon): "[GeTuiSdk setLocalBadge:\(value)]"
        case (.ios, _): "UIApplication.shared.applicationIconBadgeNumber = \(value)"
        }
    }
}

extension Inbox {
    /// The app's badge policy (`app` unless set).
    public func badgePolicy(of app: String) -> BadgePolicy { settings.badgePolicies[app] ?? .app }

    /// Sets the app's badge policy; the reply carries the ledgers and the policy.
    mutating func setBadgePolicy(app: String, _ policy: BadgePolicy, into outcome: inout Outcome) {
        if policy != badgePolicy(of: app) {
            settings.badgePolicies[app] = policy == .app ? nil : policy
            outcome.write(.settings(settings))
        }
        outcome.reply = .policy(ledgers(of: app), policy)
    }

    /// An SDK badge call: the one ledger it moves, nothing else (no sync either way).
    mutating func applySDKCall(app: String, _ call: SDKBadgeCall, into outcome: inout Outcome) {
        noteCounts(of: app, in: &outcome)
        var after = badge(of: app)
        switch call.ledger {
        case .server: after.server = call.value
        case .icon: after.icon = call.value
        }
        badges[app] = after
        outcome.reply = .policy(ledgers(of: app), badgePolicy(of: app))
    }

    /// The SDK calls that would bring the server badge back to the icon when they drift (the
    /// detail view shows them), or nil when they agree.
    public func driftFix(of app: String) -> String? {
        let badge = self.badge(of: app)
        guard badge.drifted else { return nil }
        let calls = [SDKBadgeCall.SDK.jpush, .getui].compactMap { try? SDKBadgeCall(sdk: $0, call: "setBadge", value: badge.icon) }
        return "icon \(badge.icon), server \(badge.server): " + calls.map(\.objectiveC).joined(separator: " or ")
    }
}

extension Inbox {
    /// The detail view's badge line: the policy, the ledgers, and the fix for a drift.
    public func badgeNote(for app: String) -> String {
        let badge = self.badge(of: app)
        let policy = "policy \(badgePolicy(of: app).rawValue)"
        guard let fix = driftFix(of: app) else { return "\(policy), icon \(badge.icon) = server \(badge.server)" }
        return "\(policy), drift: \(fix)"
    }
}
