import Foundation

// MARK: - The gateway's devices and keys

extension Inbox {
    /// The device a vendor push names, registered on its first push: a gateway route has
    /// already refused unknown tokens under `--devices strict`, so one reaching here is welcome.
    /// The registration is written in the push's own transaction.
    ///
    /// Returns the device of the push's token, registered now or before (nil: none), so that
    /// the push's delivery need not hash its 64 bytes or more once more to find it.
    @discardableResult
    mutating func registerDevice(of push: Push, into outcome: inout Outcome) -> Device? {
        guard let token = push.token else { return nil }
        if let device = devices[token] { return device }
        let vendor: Vendor
        switch push.via {
        case .apns: vendor = .apns
        case .jpush: vendor = .jpush
        case .getui: vendor = .getui
        // An FCM token's device (and its platform) is the FCM route's to register.
        case .socket, .mqtt, .fcm: return nil
        }
        let device = Device(token: token, app: push.app, vendor: vendor)
        devices[token] = device
        outcome.write(.device(device))
        return device
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
            // An FCM app instance keeps its topic subscriptions (they are FCM's, not the command's).
            device.topics = devices[device.token]?.topics ?? []
            devices[device.token] = device
            outcome.write(.device(device))
            outcome.reply = .device(device)
        case .list:
            outcome.reply = .devices(devices.values.sorted { $0.token < $1.token }, defaultOffline: settings.deviceOffline)
        case .topics(let tokens, let topic, let subscribe):
            changeTopics(tokens: tokens, topic: topic, subscribe: subscribe, into: &outcome)
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

    /// Subscribes `tokens` to `topic` (or unsubscribes them), all or none: each must be an FCM
    /// device, and no device may pass `Device.maxTopics`. Unsubscribing from a topic a device
    /// does not have is no change (FCM's `allow_missing`).
    mutating func changeTopics(tokens: [String], topic: String, subscribe: Bool, into outcome: inout Outcome) {
        var changed: [Device] = []
        for token in tokens {
            guard var device = devices[token], device.vendor == .fcm else {
                outcome.reply = .error("no FCM device with token \(token.prefix(200)); nothing was changed")
                return
            }
            let had = device.topics.contains(topic)
            if subscribe && !had {
                guard device.topics.count < Device.maxTopics else {
                    outcome.reply = .error("device \(token.prefix(200)) has \(Device.maxTopics) topics, FCM's most; nothing was changed")
                    return
                }
                device.topics = (device.topics + [topic]).sorted()
                changed.append(device)
            } else if !subscribe && had {
                device.topics.removeAll { $0 == topic }
                changed.append(device)
            }
        }
        for device in changed {
            devices[device.token] = device
            outcome.write(.device(device))
        }
        outcome.reply = .ok
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
    public var apnsKeys: [ProviderKey] { ProviderKey.apnsKeys(of: providerKeys) }
}
