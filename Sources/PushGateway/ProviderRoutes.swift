import PushCore

/// The gateway's routes: one port, the providers' APIs told apart by the path — each vendor's
/// paths in `claimant(of:)` (`/v3/` JPush, `/v2/` Getui, `/token`, `/v1/projects/` and `/iid/` FCM,
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

    /// The vendor that claims `path`, tried in order (`/v3/` JPush, `/v2/` Getui, FCM's paths,
    /// the control API); nil is APNs. A new vendor is one more case here and in `routes(for:)`.
    public enum Claimant: Sendable { case jpush, getui, fcm, control }

    public static func claimant(of path: String) -> Claimant? {
        // An APNs device path (`/3/device/…`) starts as no other vendor's does: most requests end
        // here, and the checks below were 1 k instructions a call, four calls a request.
        if path.hasASCIIPrefix(APNsRoutes.pathPrefix) { return nil }
        if path.hasASCIIPrefix(JPushRoutes.pathPrefix) { return .jpush }
        if path.hasASCIIPrefix(GetuiRoutes.pathPrefix) { return .getui }
        if FCMRoutes.serves(path) { return .fcm }
        if ControlRoutes.serves(path) { return .control }
        return nil
    }

    /// The routes for `path`: the vendor that claims it, else APNs. Several calls a request (the
    /// decision, the fault check, the request log's two summaries): a table of the routes built
    /// per call (each vendor's routes copied into an existential) was a tenth of an FCM send.
    public func routes(for path: String) -> any GatewayRoutes {
        switch Self.claimant(of: path) {
        case .jpush?: jpush
        case .getui?: getui
        case .fcm?: fcm
        case .control?: control
        case nil: apns
        }
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        routes(for: request.path).decide(request, context: context)
    }

    public func isProviderRequest(_ path: String) -> Bool { !ControlRoutes.serves(path) }

    public func refuse(_ refusal: HTTPRefusal) -> HTTPResponse {
        routes(for: refusal.request.path).refuse(refusal)
    }
}
