import Foundation
import PushClient
import PushCore
import PushGateway
import PushJSON

/// A push step `via` a vendor, played live: the HTTP request instant play hands the gateway's
/// routes (`InstantPlayer.gatewayRequest`), sent over HTTP/1.1 to the running pushdeck's own
/// gateway, on loopback where it also speaks cleartext. With a vendor key registered there, the
/// request carries that key's credentials (the running pushdeck hands them out: the `gateway`
/// op with `credentials`); with none, the made-up ones instant play sends, which a gateway with
/// no key of the vendor takes.
struct LiveGateway {
    let queries: SocketClient

    /// The gateway's HTTP answer to the step.
    func send(_ push: ScenarioPush, app: String?, now: Date) throws(ClientError) -> HTTPResponse {
        let address = try gatewayAddress()
        if push.via == .getui { return try sendGetui(push, app: app ?? Inbox.defaultApp, address: address, now: now) }
        var request = InstantPlayer.gatewayRequest(push, app: app ?? Inbox.defaultApp, now: now)
        // A header the step gives is sent exactly as given.
        if !push.headers.contains(where: { $0.name == "authorization" }) {
            try authorize(&request, via: push.via, address: address, now: now)
        }
        return try exchange(request, address: address, what: "a push via \(push.via.rawValue)")
    }

    private func exchange(_ request: HTTPRequest, address: GatewayAddress, what: String) throws(ClientError) -> HTTPResponse {
        do {
            return try HTTP1Client.exchange(request, with: address)
        } catch {
            throw .connection("\(what): \(error)")
        }
    }

    /// Getui: a token from `/v2/{appId}/auth` first — signed with the registered key's appKey and
    /// master secret (its appId then names the path), else with instant play's made-up ones —
    /// then the push with it. A refused `/auth` is the step's answer.
    private func sendGetui(_ push: ScenarioPush, app: String, address: GatewayAddress, now: Date) throws(ClientError) -> HTTPResponse {
        var token: String?
        var appId = app
        if !push.headers.contains(where: { $0.name == "token" }) {
            var appKey = InstantPlayer.madeUpSecret
            var secret = InstantPlayer.madeUpSecret
            let reply = try queries.reply(to: .credentials(CredentialsQuery(vendor: .getui)))
            if case .credentials(.getui(let id, let key, let master, registered: true), _) = reply {
                (appId, appKey, secret) = (id, key, master)
            }
            let auth = InstantPlayer.getuiAuthRequest(appId: appId, appKey: appKey, masterSecret: secret, now: now)
            let answer = try exchange(auth, address: address, what: "Getui's /auth")
            guard let issued = InstantPlayer.getuiToken(answer) else { return answer }
            token = issued
        }
        let request = InstantPlayer.gatewayRequest(push, app: appId, now: now, getuiToken: token)
        return try exchange(request, address: address, what: "a push via getui")
    }

    private func gatewayAddress() throws(ClientError) -> GatewayAddress {
        let reply = try queries.reply(to: .gateway)
        guard case .gateway(let text, _) = reply else {
            throw .connection("a push step via a gateway needs the running pushdeck's gateway (`pushdeck serve --gateway`): "
                + (reply.errorMessage ?? "it answered \(JSON.object(reply.wireObject).compactText)"))
        }
        do {
            return try GatewayAddress(parsing: text)
        } catch {
            throw .connection("the gateway's address '\(text)' cannot be read: \(error)")
        }
    }

    /// Puts a registered key's credentials in `authorization` (and, for FCM, the account's project
    /// in the path); leaves instant play's made-up ones when the vendor has no key.
    private func authorize(_ request: inout HTTPRequest, via: Via, address: GatewayAddress, now: Date) throws(ClientError) {
        guard let vendor = Vendor(rawValue: via.rawValue) else { return }
        let reply = try queries.reply(to: .credentials(CredentialsQuery(vendor: vendor)))
        guard case .credentials(let credentials, _) = reply else {
            throw .connection("the gateway's \(vendor.rawValue) credentials: \(reply.errorMessage ?? JSON.object(reply.wireObject).compactText)")
        }
        let authorization: String
        switch credentials {
        case .apns(_, _, let token, registered: true):
            authorization = "bearer " + token
        case .jpush(let appKey, let secret, registered: true):
            authorization = "Basic " + Data("\(appKey):\(secret)".utf8).base64EncodedString()
        case .fcm(let text, registered: true):
            let account: ServiceAccount
            do {
                account = try ServiceAccount(parsing: Array(text.utf8))
            } catch {
                throw .connection("the gateway's FCM service account cannot be read: \(error)")
            }
            authorization = "Bearer " + (try accessToken(account, address: address, now: now))
            // A registered account sends for its own project only.
            request.path = "/v1/projects/\(account.projectId)/messages:send"
        default:
            return
        }
        request.headers.removeAll { $0.name == "authorization" }
        request.headers.append(HTTPHeader("authorization", authorization))
    }

    /// An access token from the gateway's `/token`, for an assertion signed with the account's
    /// key as Google's server-to-server OAuth flow signs it (`FCMAssertion` reads the same claims).
    private func accessToken(_ account: ServiceAccount, address: GatewayAddress, now: Date) throws(ClientError) -> String {
        let issued = Int64(now.timeIntervalSince1970)
        let header = JSON.object(["alg": "RS256", "typ": "JWT", "kid": .string(account.privateKeyId)]).compactText
        let claims = JSON.object([
            "iss": .string(account.clientEmail), "scope": "https://www.googleapis.com/auth/firebase.messaging",
            "aud": .string(ServiceAccount.googleTokenURI), "iat": .number(JSONNumber(issued)), "exp": .number(JSONNumber(issued + 3600)),
        ]).compactText
        let signed = ProviderToken.base64URL(Array(header.utf8)) + "." + ProviderToken.base64URL(Array(claims.utf8))
        let signature: [UInt8]
        do {
            signature = try RS256.sign(Array(signed.utf8), key: RS256.privateKey(pem: account.privateKeyPEM))
        } catch {
            throw .connection("signing an assertion with the FCM service account's key: \(error)")
        }
        // An assertion is base64url (no character a form must escape); the grant's URN is escaped.
        let grant = FCMRoutes.jwtBearerGrant.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? FCMRoutes.jwtBearerGrant
        let form = "grant_type=\(grant)&assertion=\(signed).\(ProviderToken.base64URL(signature))"
        let request = HTTPRequest(
            method: "POST", path: FCMRoutes.tokenPath, headers: [HTTPHeader("content-type", "application/x-www-form-urlencoded")],
            body: Array(form.utf8), version: .http1_1, isTLS: false)
        let response: HTTPResponse
        do {
            response = try HTTP1Client.exchange(request, with: address)
        } catch {
            throw .connection("an FCM access token from the gateway's \(FCMRoutes.tokenPath): \(error)")
        }
        // Google's token answer: `{"access_token":…,"expires_in":3599,"token_type":"Bearer"}`.
        guard response.status == 200, case .object(let answer)? = try? JSON.parse(response.body),
              case .string(let token)? = answer["access_token"]
        else {
            throw .connection("the gateway's \(FCMRoutes.tokenPath) refused the service account's assertion: HTTP \(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        }
        return token
    }
}
