import Foundation
import PushJSON

// MARK: - Device offline

extension Inbox {
    /// The device a message or push with `token` goes to: a known gateway device by its token,
    /// else (a socket push, or a token no device has) the socket's default device, nil.
    func deviceKey(of token: String?) -> String? {
        guard let token, devices[token] != nil else { return nil }
        return token
    }

    /// Whether the device `token` names is offline (nil: the socket's default device).
    public func isDeviceOffline(_ token: String?) -> Bool {
        // One lookup of the token (a device token hashes all its 64 or more bytes each time).
        token.flatMap { devices[$0]?.offline } ?? settings.deviceOffline
    }

    /// Whether any device, the default one included, is offline (the header says so).
    public var offlineDeviceCount: Int {
        devices.values.filter(\.offline).count + (settings.deviceOffline ? 1 : 0)
    }

    /// The held messages waiting for an offline device.
    public var storedOfflineCount: Int {
        held.count { isDeviceOffline($0.token) }
    }

    /// Most pass-through messages JPush keeps for an offline device ("at most the latest 5").
    static let jpushOfflineLimit = 5

    /// How long APNs keeps a notification without `apns-expiration`: "30 days or less" (Apple,
    /// "Sending notification requests to APNs"); pushdeck keeps it the 30 days.
    static let apnsStorage: TimeInterval = 30 * 86_400

    /// When a stored message stops being worth delivering: `apns-expiration` (UNIX seconds) when
    /// the APNs request gave it, else its arrival plus the vendor's time to live (an APNs
    /// notification with none: 30 days; pass-through: one day, as `timeToLive`).
    static func expiry(of message: Message) -> Date {
        if let text = message.apnsHeaders["apns-expiration"], let seconds = Int64(text) {
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        if let expiry = fcmExpiry(of: message) { return expiry }
        let fallback = message.channel == .apns ? apnsStorage : 86_400
        return message.receivedAt.addingTimeInterval(message.timeToLive ?? fallback)
    }

    /// A push for an offline device: stored as the vendor stores it, not delivered. APNs keeps
    /// only the latest notification per app (earlier ones are discarded); JPush at most the
    /// latest 5 pass-through messages per device; a push already expired (`apns-expiration: 0`,
    /// time to live 0) is not stored at all.
    mutating func storeOffline(_ push: Push, at date: Date, into outcome: inout Outcome) {
        let badgeNow = badge(of: push.app).icon
        var message = Message(push, id: nextId, receivedAt: date)
        if push.silent { message.read = true }
        guard Self.expiry(of: message) > date else {
            outcome.publish(.messageDropped, ["app": .string(push.app), "reason": "expired"])
            outcome.reply = .push(PushReply(.dropped(.expiresOffline), badge: badgeNow))
            return
        }
        nextId += 1
        message.held = true
        let device = deviceKey(of: push.token)
        let sameDevice = held.filter { deviceKey(of: $0.token) == device && isDeviceOffline($0.token) }
        var discarded: [Message] = []
        if push.channel == .apns {
            discarded = sameDevice.filter { $0.channel == .apns && $0.app == push.app }
        } else if push.via == .jpush {
            let kept = sameDevice.filter { $0.channel == .transparent && $0.via == .jpush && $0.app == push.app }
            discarded = Array(kept.prefix(max(0, kept.count - (Self.jpushOfflineLimit - 1))))
        } else if Self.isFCMAndroid(message) {
            discarded = Self.fcmDiscarded(for: message, among: sameDevice)
        }
        if !discarded.isEmpty {
            let ids = discarded.map(\.id)
            removeHeld(Set(ids))
            outcome.write(.delete(ids))
            outcome.publish(.messageDropped, [
                "reason": "replaced offline", "ids": .array(ids.map { .number(JSONNumber($0)) }),
            ])
        }
        hold(message)
        outcome.write(.insert(message))
        outcome.reply = .push(PushReply(.storedOffline(id: message.id), badge: badgeNow))
    }

    /// `device online|offline [TOKEN]`: going online delivers what was stored for it (then the
    /// app state decides banner, list or hold, as for any push).
    mutating func setDeviceOffline(token: String?, _ offline: Bool, at date: Date, now: Instant, into outcome: inout Outcome) {
        if let token {
            guard var device = devices[token] else {
                outcome.reply = .error("no device with token \(token); nothing was changed ('pushdeck device list' shows them)")
                return
            }
            if device.offline != offline {
                device.offline = offline
                devices[token] = device
                outcome.write(.device(device))
            }
        } else if settings.deviceOffline != offline {
            settings.deviceOffline = offline
            outcome.write(.settings(settings))
        }
        if !offline { deleteExcessFCM(token: token, at: date, into: &outcome) }
        if !offline, let token { deliverPendingBroadcasts(to: token, at: date, into: &outcome) }
        releaseHeldIfDue(now: now, into: &outcome)
        outcome.reply = .deviceState(token: token, offline: offline)
    }
}
