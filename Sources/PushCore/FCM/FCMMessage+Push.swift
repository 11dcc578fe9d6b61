import PushJSON

// MARK: - What a device gets: the message as the push the engine takes

/// What the engine needs to decode an FCM push again from its request: the device platform,
/// the project and the message name the send answered with. A `PushRequest` carrying it is an
/// FCM message (its `payloadText` the v1 `message` object), decoded by `FCMMessage`.
public struct FCMRoute: Sendable, Equatable {
    public var platform: DevicePlatform
    public var project: String
    /// `projects/{project}/messages/{id}`.
    public var messageName: String
    /// The message's target as `token:T`, `topic:T` or `condition:C` (what the request log
    /// tells one message from another by).
    public var target: String?
    public init(platform: DevicePlatform, project: String, messageName: String, target: String? = nil) {
        self.platform = platform
        self.project = project
        self.messageName = messageName
        self.target = target
    }
}

extension PushRequest {
    /// The push request for one FCM message to one device: `messageText` is the v1 `message`
    /// object's text (kept as the message's payload), `parsed` its parse when the caller has it.
    public static func fcm(
        messageText: String, parsed: JSONView? = nil, app: String, token: String, route: FCMRoute
    ) -> PushRequest {
        var request = PushRequest(payloadText: messageText, app: app, parsed: parsed, via: .fcm, token: token)
        request.fcm = route
        return request
    }
}

extension FCMMessage {
    /// The push this message is on a device of `platform`, for `app`, as the engine takes it
    /// (`via: .fcm`, with its `FCMFacts`):
    /// - Android, a notification message: channel `android`, shown by its `android.notification`
    ///   text before the common `notification`'s (AndroidNotification "title": "If present, it
    ///   will override google.firebase.fcm.v1.Notification.title"), a localized key with its
    ///   arguments when there is no text; `tag` is its collapse id (a later one with the tag
    ///   replaces it, AndroidNotification "tag"); `notification_count` sets the badge.
    /// - Android, a data message: channel `transparent`, its data's `title` and `body` (or
    ///   `message`) shown, else the data itself.
    /// - iOS: the `apns` block is the APNs push FCM makes of it — its `payload` with the
    ///   message's `data` as custom keys and `notification` as `aps.alert` when the payload has
    ///   no alert (Firebase, "Customize a message across platforms": the notification is
    ///   mapped to the APNs alert), its `headers` as the request's `apns-*` headers — decoded by
    ///   `decoder` under every APNs rule.
    /// `payload` is kept as the message's raw text.
    public func push(
        app: String, platform: DevicePlatform, token: String, project: String, messageName: String, payload: String,
        decoder: PushDecoder = PushDecoder()
    ) -> Result<Push, FCMInvalid> {
        var facts = FCMFacts(project: project, messageName: messageName, platform: platform)
        facts.collapseKey = android?.collapseKey
        facts.ttlSeconds = android?.ttlSeconds
        facts.priority = android?.priority
        switch platform {
        case .android:
            var push = androidPush(app: app, token: token, payload: payload)
            facts.tag = push.collapseId
            facts.notificationCount = android?.notification?.notificationCount
            push.fcm = facts
            return .success(push)
        case .ios:
            return iosPush(app: app, token: token, messageName: messageName, payload: payload, decoder: decoder).map { push in
                var push = push
                push.fcm = facts
                return push
            }
        }
    }

    private func androidPush(app: String, token: String, payload: String) -> Push {
        let data = androidData
        guard isNotificationMessage else {
            let body = data["body"] ?? data["message"] ?? (data.isEmpty ? nil : Self.dataText(data))
            return Push(app: app, channel: .transparent, title: data["title"], body: body, payload: payload, via: .fcm, token: token)
        }
        let shown = android?.notification
        let title = Self.text(shown?.title) ?? Self.text(notification?.title)
            ?? Self.localized(shown?.titleLocKey, shown?.titleLocArgs ?? [])
        let body = Self.text(shown?.body) ?? Self.text(notification?.body)
            ?? Self.localized(shown?.bodyLocKey, shown?.bodyLocArgs ?? [])
        var push = Push(
            app: app, channel: .android, title: title, body: body, url: shown?.clickAction ?? data["url"],
            badge: shown?.notificationCount.map(BadgeDirective.set), payload: payload, via: .fcm, token: token)
        push.collapseId = Self.text(shown?.tag)
        return push
    }

    private func iosPush(app: String, token: String, messageName: String, payload: String, decoder: PushDecoder) -> Result<Push, FCMInvalid> {
        let headers = apns?.headers ?? [:]
        let apnsPayload = apnsPayload(messageId: Self.messageId(of: messageName))
        let text = JSON.object(apnsPayload).compactText
        let request = PushRequest(
            payloadText: text, app: app, channel: .apns, collapseId: headers["apns-collapse-id"],
            pushType: headers["apns-push-type"], priority: headers["apns-priority"].flatMap { Int($0) },
            via: .fcm, token: token, headers: headers)
        // The APNs payload limit holds for what FCM hands APNs, as for a push through the APNs route.
        guard text.utf8.count <= decoder.maxPayloadBytes else {
            return .failure(FCMInvalid(message: Self.invalidArgumentMessage, violations: [FCMFieldViolation(
                field: "message.apns.payload",
                description: "the APNs payload is \(text.utf8.count) bytes; the APNs limit is \(decoder.maxPayloadBytes)")]))
        }
        do {
            var push = try decoder.decode(request)
            push.payload = payload
            push.also = []
            return .success(push)
        } catch {
            return .failure(FCMInvalid(message: Self.invalidArgumentMessage, violations: [
                FCMFieldViolation(field: "message.apns.payload", description: error.message),
            ]))
        }
    }

    /// The APNs payload FCM sends an iOS device: `apns.payload`, the message's data as custom
    /// keys beside `aps` (never over a key the payload has), `notification` as the alert when
    /// `aps` has none, and `gcm.message_id` (what the iOS SDK reads as the message id).
    func apnsPayload(messageId: String) -> JSONObject {
        var object = apns?.payload?.objectValue ?? JSONObject()
        var aps = object["aps"]?.objectValue ?? JSONObject()
        if aps["alert"] == nil, let notification, notification.title != nil || notification.body != nil {
            var alert = JSONObject()
            if let title = notification.title { alert.members.append((key: "title", value: .string(title))) }
            if let body = notification.body { alert.members.append((key: "body", value: .string(body))) }
            aps.members.append((key: "alert", value: .object(alert)))
        }
        if object["aps"] == nil {
            object.members.insert((key: "aps", value: .object(aps)), at: 0)
        } else if let index = object.members.lastIndex(where: { $0.key == "aps" }), object.members[index].value.objectValue != nil {
            object.members[index].value = .object(aps)
        }
        for (key, value) in data.sorted(by: { $0.key < $1.key }) where object[key] == nil {
            object.members.append((key: key, value: .string(value)))
        }
        if object["gcm.message_id"] == nil { object.members.append((key: "gcm.message_id", value: .string(messageId))) }
        return object
    }

    /// The id at the end of `projects/{p}/messages/{id}`.
    static func messageId(of name: String) -> String {
        name.split(separator: "/").last.map(String.init) ?? name
    }

    /// Data shown as a data message's text: its pairs, sorted by key.
    static func dataText(_ data: [String: String]) -> String {
        data.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    private static func text(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private static func localized(_ key: String?, _ args: [String]) -> String? {
        guard let key = text(key) else { return nil }
        return args.isEmpty ? key : "\(key)(\(args.joined(separator: ", ")))"
    }
}

extension PushDecoder {
    /// An FCM message's push: the v1 `message` decoded and mapped for the route's platform; a
    /// refusal is the first of FCM's violations (the gateway answered them already).
    func decodeFCM(_ request: PushRequest, route: FCMRoute) throws(WireError) -> Push {
        let root: JSONView
        if let parsed = request.parsed {
            root = parsed
        } else {
            let bytes = Array(request.payloadText.utf8)
            do {
                root = try JSONTape.parse(bytes).root
            } catch {
                throw WireError(error.wireMessage(subject: "FCM message", bytes: bytes))
            }
        }
        let mapped = FCMMessage.decode(root).flatMap { message in
            message.push(
                app: request.app ?? Self.defaultApp, platform: route.platform, token: request.token ?? "",
                project: route.project, messageName: route.messageName, payload: request.payloadText, decoder: self)
        }
        switch mapped {
        case .success(var push):
            push.token = request.token
            return push
        case .failure(let invalid): throw WireError(invalid.violations.first?.description ?? invalid.message)
        }
    }
}
