import Foundation

// MARK: - The gateway's devices and keys

extension Inbox {
    /// The device a vendor push names, registered on its first push: a gateway route has
    /// already refused unknown tokens under `--devices strict`, so one reaching here is welcome.
    /// The registration is written in the push's own transaction.
    mutating func registerDevice(of push: Push, into outcome: inout Outcome) {
        guard let token = push.token, devices[token] == nil else { return }
        let vendor: Vendor
        switch push.via {
        case .apns: vendor = .apns
        case .jpush: vendor = .jpush
        case .getui: vendor = .getui
        // An FCM token's device (and its platform) is the FCM route's to register.
        case .socket, .mqtt, .fcm: return
        }
        let device = Device(token: token, app: push.app, vendor: vendor)
        devices[token] = device
        outcome.write(.device(device))
    }

    /// A Getui push's `request_id` (its `headers`), recorded in the push's own writes so a
    /// repeat is refused for a day, across a restart too.
    mutating func recordGetuiRequestId(of push: Push, at date: Date, into outcome: inout Outcome) {
        guard push.via == .getui, let requestId = push.headers["request_id"] else { return }
        getuiRequestIds.record(app: push.app, requestId: requestId, at: date)
        outcome.write(.getuiRequestId(app: push.app, requestId: requestId, at: date))
    }

    mutating func changeDevices(_ command: DeviceCommand, at date: Date, now: Instant, into outcome: inout Outcome) {
        switch command {
        case .setOffline(let token, let offline):
            setDeviceOffline(token: token, offline, at: date, now: now, into: &outcome)
        case .add(let device):
            // Adding again moves the token to the new app and registers it anew (its state kept).
            var device = device
            device.offline = devices[device.token]?.offline ?? false
            devices[device.token] = device
            outcome.write(.device(device))
            outcome.reply = .device(device)
        case .list:
            outcome.reply = .devices(devices.values.sorted { $0.token < $1.token }, defaultOffline: settings.deviceOffline)
        case .remove(let token):
            guard devices.removeValue(forKey: token) != nil else {
                outcome.reply = .error("no device with token \(token); nothing was changed ('pushdeck device list' shows them)")
                return
            }
            outcome.write(.removeDevice(token: token))
            outcome.reply = .ok
        case .unregister(let token):
            guard var device = devices[token] else {
                outcome.reply = .error("no device with token \(token); nothing was changed ('pushdeck device list' shows them)")
                return
            }
            if device.unregisteredAt == nil {
                // Whole milliseconds, as the store keeps it and the 410's timestamp says it.
                device.unregisteredAt = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
                devices[token] = device
                outcome.write(.device(device))
            }
            outcome.reply = .device(device)
        }
    }

    mutating func changeKeys(_ command: KeyCommand, into outcome: inout Outcome) {
        switch command {
        case .add(let key):
            providerKeys[key.id] = key
            outcome.write(.providerKey(key))
            outcome.reply = .key(key)
        case .list:
            outcome.reply = .keys(providerKeys.values.sorted { $0.id < $1.id })
        case .remove(let id):
            guard providerKeys.removeValue(forKey: id) != nil else {
                outcome.reply = .error("no key with id \(id); nothing was changed ('pushdeck key list' shows them)")
                return
            }
            outcome.write(.removeProviderKey(id: id))
            outcome.reply = .ok
        }
    }

    /// The APNs signing keys (`key add apns`).
    public var apnsKeys: [ProviderKey] { providerKeys.values.filter { $0.vendor == .apns } }
}
