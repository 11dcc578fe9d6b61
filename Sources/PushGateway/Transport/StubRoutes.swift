import PushCore

/// A stand-in route until the APNs routes join (GATEWAY.md): `POST /3/device/<hex>` becomes a push
/// of the body under the `apns-topic` app, answered 200 with an `apns-id`; anything else is 404.
public struct StubRoutes: GatewayRoutes {
    public init() {}

    public func decide(_ request: HTTPRequest, context: GatewayContext) -> GatewayDecision {
        let prefix = "/3/device/"
        let token = request.path.hasPrefix(prefix) ? request.path.dropFirst(prefix.count) : ""
        guard request.method == "POST", !token.isEmpty, token.allSatisfy(\.isHexDigit) else {
            return .respond(HTTPResponse(status: 404, headers: [HTTPHeader("content-type", "application/json")],
                                         body: Array(#"{"reason":"BadPath"}"#.utf8)))
        }
        let push = PushRequest(payloadText: String(decoding: request.body, as: UTF8.self), app: request.values("apns-topic").first)
        let apnsID = request.values("apns-id").first ?? "00000000-0000-0000-0000-000000000000"
        return .request(.push(push)) { reply in
            if case .bool(true)? = reply["ok"] {
                return HTTPResponse(status: 200, headers: [HTTPHeader("apns-id", apnsID)])
            }
            return HTTPResponse(status: 500, headers: [HTTPHeader("content-type", "application/json")],
                                body: Array(#"{"reason":"InternalServerError"}"#.utf8))
        }
    }
}
