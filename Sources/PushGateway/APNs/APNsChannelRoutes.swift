import Foundation
import PushCore
import PushJSON

/// APNs' broadcast API (iOS 18), on the gateway's port beside `/3/device/` (Apple serves channel
/// management on its own host and port; a client changes that host like the other):
///
/// - channel management, Apple's "Sending channel management requests to APNs":
///   `POST /1/apps/{bundleId}/channels` with `{"message-storage-policy":0|1,"push-type":"LiveActivity"}`
///   → 201 and the new channel's `apns-channel-id`; `GET` (the channel's configuration) and
///   `DELETE` (204) of `/1/apps/{bundleId}/channels` name it by `apns-channel-id`;
///   `GET /1/apps/{bundleId}/all-channels` → `{"channels":[…]}`;
/// - `POST /4/broadcasts/apps/{bundleId}`, Apple's "Sending broadcast push notification requests
///   to APNs": after the provider token, the channel (`MissingChannelId`, `BadChannelId`,
///   `ChannelNotRegistered`), then `apns-push-type: liveactivity`, `apns-priority` and
///   `apns-expiration` (each required), then the payload (at most 5120 bytes).
///
/// Every answer carries `apns-request-id`: the request's, or a new UUID ("Handling error
/// responses from APNs"). What is refused changes nothing; the rest is the engine's.
extension APNsRoutes {
    /// The channel management paths' prefix, and the broadcast path's.
    public static let channelsPrefix = "/1/apps/"
    public static let broadcastPrefix = "/4/broadcasts/apps/"
    /// A broadcast payload's most bytes ("Sending broadcast push notification requests to APNs").
    public static let broadcastPayloadLimit = 5120

    /// Whether `path` is one of the broadcast API's.
    static func isBroadcastPath(_ path: String) -> Bool {
        path.hasASCIIPrefix(channelsPrefix) || path.hasASCIIPrefix(broadcastPrefix)
    }

    /// The request's `apns-request-id` when it can be answered back, else a new UUID.
    static func requestId(_ request: HTTPRequest) -> String {
        request.value("apns-request-id").flatMap { isEchoable($0) ? $0 : nil } ?? RandomUUID.text()
    }

    /// A refusal in the broadcast API's shape: `{"reason":…}` and `apns-request-id`.
    static func channelRefusal(_ reason: APNsReason, requestId: String) -> HTTPResponse {
        channelRefusal(APNsRefusal(reason), requestId: requestId)
    }

    static func channelRefusal(_ refusal: APNsRefusal, requestId: String) -> HTTPResponse {
        var response = refusal.response(apnsId: requestId)
        response.headers = response.headers.map { $0.name == "apns-id" ? HTTPHeader("apns-request-id", $0.value, unique: true) : $0 }
        return response
    }

    /// What a request to the broadcast API comes to.
    func decideBroadcast(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        broadcastOutcome(request, context: context, requestId: Self.requestId(request))
    }

    private func broadcastOutcome(_ request: HTTPRequest, context: GatewayContext, requestId: String) -> GatewayDecision {
        func refuse(_ reason: APNsReason) -> GatewayDecision { .respond(Self.channelRefusal(reason, requestId: requestId)) }
        let path = request.pathOnly
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "", "1", "apps", bundle, "channels" | "all-channels"; or "", "4", "broadcasts", "apps", bundle.
        let management = parts.count == 5 && parts[1] == "1" && (parts[4] == "channels" || parts[4] == "all-channels")
        let broadcast = parts.count == 5 && parts[1] == "4" && parts[2] == "broadcasts" && parts[3] == "apps"
        guard management || broadcast else { return refuse(.badPath) }
        let app = broadcast ? parts[4] : parts[3]
        guard !app.isEmpty, Self.isTopic(app) else { return refuse(.badPath) }
        let allowed: [String] = broadcast ? ["POST"] : parts[4] == "all-channels" ? ["GET"] : ["POST", "GET", "DELETE"]
        guard allowed.contains(request.method) else { return refuse(.methodNotAllowed) }

        if Self.repeatsHeader(in: request, where: { Self.singleHeaders.contains($0) || $0 == "apns-channel-id" || $0 == "apns-request-id" }) {
            return refuse(.duplicateHeaders)
        }
        guard let authorization = request.value("authorization"), !Self.namesNoToken(authorization) else {
            return refuse(.missingProviderToken)
        }
        guard let token = tokens.token(authorization) else { return refuse(.invalidProviderToken) }
        if let problem = tokens.problem(
            token, authorization: authorization, keys: context.inbox.apnsKeys, now: context.now,
            environment: APNsEnvironment.of(host: request.value("host"))
        ) {
            return refuse(problem)
        }

        if management && parts[4] == "all-channels" {
            return .request(.channel(.list(app: app))) { reply in
                guard case .channels(let channels) = reply else { return Self.channelRefusal(.internalServerError, requestId: requestId) }
                return Self.json(200, ["channels": .array(channels.map { .string($0.id) })], requestId: requestId)
            }
        }
        if management && request.method == "POST" { return create(request, app: app, context: context, requestId: requestId) }

        // The channel: named, well formed, one of the app's.
        guard let channelId = request.value("apns-channel-id"), !channelId.isEmpty else { return refuse(.missingChannelId) }
        guard BroadcastChannel.isWellFormed(channelId) else { return refuse(.badChannelId) }
        guard let channel = context.inbox.channels.channel(channelId, app: app) else { return refuse(.channelNotRegistered) }

        if management {
            if request.method == "DELETE" {
                return .request(.channel(.delete(app: app, id: channelId))) { reply in
                    reply.isOK ? HTTPResponse(status: 204, headers: [HTTPHeader("apns-request-id", requestId, unique: true)])
                        : Self.channelRefusal(.channelNotRegistered, requestId: requestId)
                }
            }
            return .request(.channel(.read(app: app, id: channelId))) { reply in
                guard case .channels(let found) = reply, let channel = found.first else {
                    return Self.channelRefusal(.channelNotRegistered, requestId: requestId)
                }
                return Self.json(200, Self.configuration(channel), requestId: requestId, channelId: channel.id)
            }
        }
        return broadcastPush(request, app: app, channel: channel, requestId: requestId)
    }

    /// `POST /1/apps/{bundleId}/channels`: the body names the push type (`LiveActivity`, the one
    /// Apple takes) and the storage policy; an app past `BroadcastChannel.maxPerApp` channels is
    /// `CannotCreateChannelConfig`.
    private func create(_ request: HTTPRequest, app: String, context: GatewayContext, requestId: String) -> GatewayDecision {
        func refuse(_ refusal: APNsRefusal) -> GatewayDecision { .respond(Self.channelRefusal(refusal, requestId: requestId)) }
        guard !request.body.isEmpty else { return refuse(APNsRefusal(.payloadEmpty)) }
        guard let body = (try? JSON.parse(request.body))?.objectValue else {
            return refuse(APNsRefusal(reason: Self.unreadablePayloadReason, status: 400))
        }
        guard let pushType = body["push-type"] else { return refuse(APNsRefusal(.missingPushType)) }
        guard pushType.stringValue == "LiveActivity" else { return refuse(APNsRefusal(.invalidPushType)) }
        // Apple documents no reason for a policy other than 0 or 1: pushdeck's BadPayload, as
        // for any body it cannot read.
        guard let policy = body["message-storage-policy"]?.intValue, policy == 0 || policy == 1 else {
            return refuse(APNsRefusal(reason: Self.unreadablePayloadReason, status: 400))
        }
        guard context.inbox.channels.countByApp[app, default: 0] < BroadcastChannel.maxPerApp else {
            return refuse(APNsRefusal(.cannotCreateChannelConfig))
        }
        return .request(.channel(.create(app: app, storagePolicy: policy))) { reply in
            guard case .channels(let made) = reply, let channel = made.first else {
                let reason: APNsReason = reply.errorMessage?.hasPrefix(Inbox.cannotCreateChannel) == true ? .cannotCreateChannelConfig : .internalServerError
                return Self.channelRefusal(reason, requestId: requestId)
            }
            return HTTPResponse(status: 201, headers: [
                HTTPHeader("apns-request-id", requestId, unique: true), HTTPHeader("apns-channel-id", channel.id),
            ])
        }
    }

    /// `POST /4/broadcasts/apps/{bundleId}` to a channel that exists: its headers and payload,
    /// then the engine sends it to every activity subscribed.
    private func broadcastPush(_ request: HTTPRequest, app: String, channel: BroadcastChannel, requestId: String) -> GatewayDecision {
        func refuse(_ refusal: APNsRefusal) -> GatewayDecision { .respond(Self.channelRefusal(refusal, requestId: requestId)) }
        func header(_ name: String) -> String? { request.values(name).first }
        guard let pushType = header("apns-push-type") else { return refuse(APNsRefusal(.missingPushType)) }
        guard pushType == APNsPushType.liveactivity.rawValue else { return refuse(APNsRefusal(.invalidPushType)) }
        guard let priority = header("apns-priority"), ["10", "5", "1"].contains(priority) else {
            return refuse(APNsRefusal(.badPriority))
        }
        guard let expiration = header("apns-expiration"), !expiration.isEmpty,
              expiration.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(expiration)
        else { return refuse(APNsRefusal(.badExpirationDate)) }
        // The channel management page: a channel with no message storage takes only 0.
        guard channel.storesLatest || seconds == 0 else { return refuse(APNsRefusal(.badExpirationDate)) }
        guard !request.body.isEmpty else { return refuse(APNsRefusal(.payloadEmpty)) }
        guard request.body.count <= Self.broadcastPayloadLimit else { return refuse(APNsRefusal(.payloadTooLarge)) }
        guard let tape = try? JSONTape.parse(request.body), tape.root.kind == .object else {
            return refuse(APNsRefusal(reason: Self.unreadablePayloadReason, status: 400))
        }
        var kept: [String: String] = [:]
        for header in request.headers where header.name.hasASCIIPrefix("apns-") { kept[header.name] = header.value }
        var push = PushRequest(
            payloadText: tape.text, app: app, channel: .apns, parsed: tape.root,
            pushType: pushType, priority: Int(priority), via: .apns, headers: kept)
        push.broadcastChannel = channel.id
        return .request(.push(push)) { reply in
            guard reply.isOK else {
                let reason: APNsReason = reply.errorMessage?.hasPrefix(Inbox.channelNotRegistered) == true ? .channelNotRegistered : .internalServerError
                return Self.channelRefusal(reason, requestId: requestId)
            }
            // As for a device push in the development environment, `apns-unique-id` names it.
            return HTTPResponse(status: 200, headers: [
                HTTPHeader("apns-request-id", requestId, unique: true), HTTPHeader(Self.uniqueIdHeader, RandomUUID.text(), unique: true),
            ])
        }
    }

    /// A channel's configuration as the read answers it.
    static func configuration(_ channel: BroadcastChannel) -> JSONObject {
        ["message-storage-policy": .number(JSONNumber(channel.storagePolicy)), "push-type": .string("LiveActivity")]
    }

    static func json(_ status: Int, _ body: JSONObject, requestId: String, channelId: String? = nil) -> HTTPResponse {
        var headers = [HTTPHeader("apns-request-id", requestId, unique: true), HTTPHeader("content-type", "application/json")]
        if let channelId { headers.append(HTTPHeader("apns-channel-id", channelId)) }
        return HTTPResponse(status: status, headers: headers, body: Array(JSON.object(body).compactText.utf8))
    }
}
