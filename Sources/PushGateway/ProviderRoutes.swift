import PushCore

/// The gateway's routes: one port, the four providers' APIs told apart by the path —
/// `/v3/` JPush, `/v2/` Getui, `/token` and `/v1/projects/` FCM, everything else APNs (whose
/// `BadPath` answers what nobody serves).
public struct ProviderRoutes: GatewayRoutes {
    public var apns: APNsRoutes
    public var jpush: JPushRoutes
    public var getui: GetuiRoutes
    public var fcm: FCMRoutes

    public init(apns: APNsRoutes, jpush: JPushRoutes, getui: GetuiRoutes, fcm: FCMRoutes = FCMRoutes()) {
        self.apns = apns
        self.jpush = jpush
        self.getui = getui
        self.fcm = fcm
    }

    /// Every provider with the same device policy; Getui's tokens live `getuiTokenSeconds`.
    public init(devices: DevicePolicy, getuiTokenSeconds: TimeInterval = GetuiRoutes.defaultTokenSeconds) {
        self.init(
            apns: APNsRoutes(devices: devices), jpush: JPushRoutes(devices: devices),
            getui: GetuiRoutes(devices: devices, tokenSeconds: getuiTokenSeconds), fcm: FCMRoutes(devices: devices))
    }

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        if request.path.hasPrefix(JPushRoutes.pathPrefix) { return jpush.decide(request, context: context) }
        if request.path.hasPrefix(GetuiRoutes.pathPrefix) { return getui.decide(request, context: context) }
        if FCMRoutes.serves(request.path) { return fcm.decide(request, context: context) }
        return apns.decide(request, context: context)
    }
}
