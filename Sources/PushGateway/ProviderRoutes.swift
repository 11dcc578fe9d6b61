import PushCore

/// The gateway's routes: one port, the providers' APIs told apart by the path — each vendor's
/// paths in `vendors` (`/v3/` JPush, `/v2/` Getui, `/token`, `/v1/projects/` and `/iid/` FCM,
/// `/pushdeck/` pushdeck's own control API), everything else APNs. A request, and
/// a refusal of the transport, goes to the vendor whose path it names and is answered in that
/// vendor's shape. A path nobody serves is APNs' `404 {"reason":"BadPath"}`: the gateway stands
/// where api.push.apple.com stands for the clients pointed at it (the gateway's first vendor, and
/// the host its APNs clients name), and Apple answers BadPath for any path it does not serve.
/// Garbage with no path at all is answered the same way, by APNs.
public struct ProviderRoutes: GatewayRoutes {
    public var apns: APNsRoutes
    public var jpush: JPushRoutes
    public var getui: GetuiRoutes
    public var fcm: FCMRoutes
    /// pushdeck's own control API (`/pushdeck/v1/`), beside the vendors'.
    public var control: ControlRoutes

    public init(
        apns: APNsRoutes, jpush: JPushRoutes, getui: GetuiRoutes, fcm: FCMRoutes = FCMRoutes(),
        control: ControlRoutes = ControlRoutes()
    ) {
        self.apns = apns
        self.jpush = jpush
        self.getui = getui
        self.fcm = fcm
        self.control = control
    }

    /// Every provider with the same device policy; Getui's tokens live `getuiTokenSeconds`.
    /// The control API takes `controlToken` when set (else loopback peers only).
    public init(
        devices: DevicePolicy, getuiTokenSeconds: TimeInterval = GetuiRoutes.defaultTokenSeconds, controlToken: String? = nil
    ) {
        self.init(
            apns: APNsRoutes(devices: devices), jpush: JPushRoutes(devices: devices),
            getui: GetuiRoutes(devices: devices, tokenSeconds: getuiTokenSeconds), fcm: FCMRoutes(devices: devices),
            control: ControlRoutes(token: controlToken))
    }

    /// The vendors and the paths each claims, tried in order; a new vendor is one more row here
    /// (its routes answer its requests and the transport's refusals of them).
    public var vendors: [(claims: @Sendable (String) -> Bool, routes: any GatewayRoutes)] {
        [({ $0.hasPrefix(JPushRoutes.pathPrefix) }, jpush), ({ $0.hasPrefix(GetuiRoutes.pathPrefix) }, getui),
         (FCMRoutes.serves, fcm), (ControlRoutes.serves, control)]
    }

    /// The routes for `path`: the vendor that claims it, else APNs.
    public func routes(for path: String) -> any GatewayRoutes {
        vendors.first { $0.claims(path) }?.routes ?? apns
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        routes(for: request.path).decide(request, context: context)
    }

    public func isProviderRequest(_ path: String) -> Bool { !ControlRoutes.serves(path) }

    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse {
        routes(for: refusal.request.path).refuse(refusal)
    }
}
