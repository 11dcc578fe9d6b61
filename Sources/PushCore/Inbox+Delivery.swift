import Foundation
import PushJSON

// MARK: - Arrival: dropped, held or delivered

extension Inbox {
    /// A push arrives: dropped when push is off, held when the app is terminated and it is
    /// pass-through, else delivered.
    mutating func receive(_ push: Push, at date: Date, now: Instant, into outcome: inout Outcome) {
        let device = registerDevice(of: push, into: &outcome)
        recordGetuiRequestId(of: push, at: date, into: &outcome)
        guard settings.mode == .on else {
            settings.dropped += 1
            outcome.write(.settings(settings))
            outcome.publish(
                .messageDropped, ["app": .string(push.app), "dropped": .number(JSONNumber(settings.dropped))])
            outcome.reply = .push(PushReply(.dropped(.modeOff), badge: badge(of: push.app).icon))
            return
        }
        // As `isDeviceOffline(push.token)` says, from the device already found.
        if device?.offline ?? settings.deviceOffline {
            storeOffline(push, at: date, into: &outcome)
            return
        }
        // An Android FCM message reaches the tray or `onMessageReceived` by the app's state.
        let push = fcmArriving(push)
        if let old = push.replacing, Self.collapses(push, onto: old) {
            replace(old, with: push, at: date, now: now, into: &outcome)
            return
        }
        var message = Message(push, id: nextId, receivedAt: date)
        nextId += 1
        // A silent push has nothing for the user to read: listed, already read, never counted.
        if push.silent { message.read = true }
        if Self.isFCMAndroid(message) { message.callback = fcmCallback(channel: message.channel) }

        // FCM data messages are not held: an app swiped away still gets `onMessageReceived`.
        if settings.appState == .terminated && push.channel == .transparent && push.via != .fcm {
            // Getui's offline queue: stored now, delivered when the app is next in the foreground.
            message.held = true
            hold(message)
            outcome.write(.insert(message))
            outcome.reply = .push(PushReply(.held(id: message.id), badge: badge(of: push.app).icon))
            return
        }

        let launches = settings.appState == .terminated && push.channel == .apns
        message.launch = launches
        outcome.write(.insert(message))
        if launches {
            // The newest APNs push while terminated is the one the app would launch with.
            outcome.write(.setLaunch(message.id))
            launchId = message.id
        }
        let badge = deliver(message, directive: push.badge, into: &outcome)
        if showsBanner(push, at: date) { showBanner(message, at: now) }
        outcome.reply = .push(PushReply(.delivered(id: message.id), badge: badge.icon))
    }

    /// Whether `push` replaces `old`: an APNs push (or an Android notification, its
    /// `android.notification.tag`) of the same app with the same collapse id, the old one
    /// delivered (not held).
    static func collapses(_ push: Push, onto old: ReplacedMessage) -> Bool {
        guard let id = push.collapseId else { return false }
        return push.channel.collapses && old.channel == push.channel && old.app == push.app && old.collapseId == id && !old.held
    }

    /// A push with the collapse id of an earlier message takes its place (apns-collapse-id): same
    /// id and list row, the new content, unread again; counted once — an unread message it
    /// replaces is not counted a second time, unless the push sets the badge itself. A banner
    /// showing the old one shows the new content without counting an arrival.
    private mutating func replace(_ old: ReplacedMessage, with push: Push, at date: Date, now: Instant, into outcome: inout Outcome) {
        var message = Message(push, id: old.id, receivedAt: date)
        message.read = push.silent
        if Self.isFCMAndroid(message) { message.callback = fcmCallback(channel: message.channel) }
        outcome.write(.replace(message))
        let counted: Badge
        if !old.read {
            // Already counted: only a directive of the new push moves the badge. Replaced by a
            // silent one, there is nothing left to read: it is taken off as a read would.
            if push.silent { uncount(app: push.app, into: &outcome) }
            counted = push.badge == nil ? badge(of: push.app) : countDelivery(app: push.app, directive: push.badge, into: &outcome)
        } else if push.silent {
            counted = push.badge == nil ? badge(of: push.app) : countDelivery(app: push.app, directive: push.badge, into: &outcome)
        } else {
            countUnread(app: push.app, into: &outcome)
            counted = countDelivery(app: push.app, directive: push.badge, channel: push.channel, into: &outcome)
        }
        outcome.publish(.remoteReceived, message: message)
        let stay = bannerStay
        if banner?.message.id == old.id, let phase = banner?.phase(at: now, stay: stay), phase != .gone {
            banner?.replace(with: message, at: now, arrivals: 0, stay: stay)
        } else if showsBanner(push, at: date) {
            showBanner(message, at: now)
        }
        outcome.reply = .push(PushReply(.replaced(id: message.id), badge: counted.icon))
    }

    /// Whether a delivered push shows the banner: only in the foreground, never for a silent
    /// push (whatever its priority) or a `passive` one; while its app is muted or in quiet hours
    /// only a `time-sensitive` or `critical` one (at wall time `date`, the push's arrival).
    /// An Android notification is the other way round: the system shows it (heads-up, into the
    /// tray) while the app is not in the foreground; in the foreground it is the app's.
    func showsBanner(_ push: Push, at date: Date) -> Bool {
        let shownNow = push.channel == .android ? settings.appState != .foreground : settings.appState == .foreground
        guard shownNow, !push.silent, push.interruption != .passive else { return false }
        if isMuted(push.app, at: date) || isQuiet(at: date) { return push.interruption?.breaksThrough ?? false }
        return true
    }

    /// The further messages of one request (a JPush body with `notification` and `message`),
    /// each received as if pushed on its own, right after the first. The reply is the first
    /// message's, with `also` listing what became of each further one (`id`, `channel`,
    /// `delivered`, `held`, `stored`, `reason`) and `badge` the icon after all of them.
    mutating func receiveAlso(_ pushes: [Push], at date: Date, now: Instant, into outcome: inout Outcome) {
        guard var reply = outcome.reply?.pushReply else { return }
        for push in pushes {
            receive(push, at: date, now: now, into: &outcome)
            guard let part = outcome.reply?.pushReply else { continue }
            reply.also.append(FurtherPush(channel: push.channel, fate: part.fate))
            reply.badge = part.badge
        }
        outcome.reply = .push(reply)
    }

    /// Counts a delivered message and tells the bus: unread +1, the badge arithmetic, the
    /// callback's topic, and for pass-through the 90001 receipt feedback a Getui app sends
    /// (`sendFeedbackMessage:90001`). Returns the app's ledgers after it.
    @discardableResult
    private mutating func deliver(_ message: Message, directive: BadgeDirective?, into outcome: inout Outcome) -> Badge {
        // A silent push (delivered read) moves the badge only when it sets it, under either policy.
        if message.silent && message.read {
            let badge = directive == nil ? badge(of: message.app) : countDelivery(app: message.app, directive: directive, into: &outcome)
            // An FCM data message (pass-through, never unread) is still the app's message.
            outcome.publish(message.channel == .transparent ? .messageReceived : .remoteReceived, message: message)
            return badge
        }
        countUnread(app: message.app, into: &outcome)
        let badge = countDelivery(app: message.app, directive: directive, channel: message.channel, into: &outcome)
        switch message.channel {
        case .apns, .android:
            outcome.publish(.remoteReceived, message: message)
        case .transparent:
            outcome.publish(.messageReceived, message: message)
            // The receipt is the Getui SDK's; an FCM data message has none.
            if message.via != .fcm { outcome.publish(.feedback, Self.feedback(90001, for: message)) }
        }
        return badge
    }

    /// Delivers the held queue, oldest first and marked offline, with push on: pass-through
    /// once the app is in the foreground, APNs notifications stored for an offline device once
    /// it is online (in any app state; terminated, the newest launches the app). Nothing for a
    /// device still offline. One banner at most, in the foreground — the newest, counting the
    /// rest as `+N` — instead of a storm of them.
    mutating func releaseHeldIfDue(now: Instant, into outcome: inout Outcome) {
        guard settings.mode == .on, !held.isEmpty else { return }
        let due = held.filter { message in
            !isDeviceOffline(message.token)
                && (message.channel == .apns || message.via == .fcm || settings.appState == .foreground)
        }
        guard !due.isEmpty else { return }
        removeHeld(Set(due.map(\.id)))
        let released = due.map { message in
            var message = message
            message.held = false
            message.offline = true
            // Stored for an offline Android device: the app's state now decides where it goes.
            if Self.isFCMAndroid(message) { message = fcmDelivered(message) }
            return message
        }
        outcome.write(.release(released.map(\.id)))
        for message in released where Self.isFCMAndroid(message) { outcome.write(.replace(message)) }
        for message in released {
            deliver(message, directive: message.silent ? nil : message.badgeDirective, into: &outcome)
        }
        if settings.appState == .terminated, let newest = released.last(where: { $0.channel == .apns && !$0.silent }) {
            outcome.write(.setLaunch(newest.id))
            launchId = newest.id
        }
        let shown = released.filter { !$0.silent && ($0.channel == .android) != (settings.appState == .foreground) }
        if let newest = shown.last { showBanner(newest, at: now, arrivals: shown.count) }
    }

    /// The `feedback` bus event (Getui `sendFeedbackMessage`): 90001 received, 90002 opened.
    static func feedback(_ action: Int, for message: Message) -> JSONObject {
        [
            "action": .number(JSONNumber(action)), "id": .number(JSONNumber(message.id)),
            "app": .string(message.app), "taskId": .string(orNull: message.taskId),
            "msgId": .string(orNull: message.msgId),
        ]
    }
}

// MARK: - Reading and deleting

extension Inbox {
    /// Opens messages: each delivered unread one becomes read, counts −1 on the badge,
    /// and gets its 90002 feedback. Read or held ones change nothing, so reading twice counts once.
    mutating func open(_ messages: [Message], into outcome: inout Outcome) {
        var seen = Set<Int64>()
        let opened = messages.filter { message in
            seen.insert(message.id).inserted && !message.read && !isHeld(message)
        }
        guard !opened.isEmpty else { return }
        for message in opened { uncount(app: message.app, into: &outcome) }
        if let id = banner?.message.id, seen.contains(id) { banner?.message.read = true }
        let ids = opened.map(\.id)
        outcome.write(.markRead(ids))
        outcome.publish(.messageRead, ["ids": .array(ids.map { .number(JSONNumber($0)) })])
        for message in opened { outcome.publish(.feedback, Self.feedback(90002, for: message)) }
    }

    /// Every unread message (of one app, or of all) becomes read; the icon loses that many.
    ///
    /// No 90002 feedback: the inbox keeps counts, not the messages, and "mark all read" is not
    /// opening each one. Nothing is written or published when nothing was unread.
    mutating func readAll(app: String?, into outcome: inout Outcome) {
        let apps = app.map { [$0] } ?? unread.keys.sorted()
        var readSome = false
        for target in apps {
            let count = unread[target, default: 0]
            guard count > 0 else { continue }
            uncount(app: target, messages: count, into: &outcome)
            readSome = true
        }
        if readSome {
            if let bannerApp = banner?.message.app, app == nil || app == bannerApp { banner?.message.read = true }
            outcome.write(.markAllRead(app: app))
            outcome.publish(.messageRead, ["all": true, "app": .string(orNull: app)])
        }
        outcome.reply = .badge(app.map { badge(of: $0).icon } ?? totalBadge)
    }

    /// Deletes messages. An unread one counts down like a read (without feedback); a held one
    /// leaves the queue; the banner showing one of them goes away.
    mutating func delete(_ messages: [Message], into outcome: inout Outcome) {
        var seen = Set<Int64>()
        let deleted = messages.filter { seen.insert($0.id).inserted }
        if !deleted.isEmpty {
            var heldGone = Set<Int64>()
            for message in deleted {
                if isHeld(message) {
                    heldGone.insert(message.id)
                } else if !message.read {
                    uncount(app: message.app, into: &outcome)
                }
            }
            removeHeld(heldGone)
            if let id = banner?.message.id, seen.contains(id) { banner = nil }
            if let id = launchId, seen.contains(id) { launchId = nil }
            let ids = deleted.map(\.id)
            outcome.write(.delete(ids))
            outcome.publish(.messageDeleted, ["ids": .array(ids.map { .number(JSONNumber($0)) })])
        }
        outcome.reply = .badge(totalBadge)
    }

    private func isHeld(_ message: Message) -> Bool {
        message.held || isHeld(id: message.id)
    }
}
