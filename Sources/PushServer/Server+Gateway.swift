import Glibc
import PushCore
import PushGateway
import PushJSON

/// The provider gateway in the server's loop.
final class GatewayParticipant: PollParticipant {
    let gateway: Gateway
    init(_ gateway: Gateway) { self.gateway = gateway }

    func pollEntries(into entries: inout [pollfd]) { gateway.pollEntries(into: &entries) }
    func ready(_ entry: pollfd, server: Server) { gateway.ready(entry) }
    func deadline(after now: Instant) -> Instant? {
        gateway.timeout().map { Instant(nanoseconds: now.nanoseconds + $0 * 1_000_000) }
    }
    func turnEnded(server: Server) { gateway.turnEnded() }
}

extension Server: GatewaySink {
    /// Runs the gateway in this server's loop: its requests go through `handle` like a socket
    /// client's, and are answered after the turn's commit.
    public func attach(gateway: Gateway) {
        self.gateway = gateway
        gateway.attach(self)
        gateway.share(acceptPause)
        add(GatewayParticipant(gateway))
    }

    public func gatewayContext() -> GatewayContext {
        GatewayContext(inbox: inbox, now: time.wallNow)
    }

    public func submit(_ request: Request, completion: @escaping (Reply) -> Void) {
        let reply = handle(request, from: nil)
        gatewayAnswers.append((reply, completion))
    }

    /// `{"op":"gateway"}`: where the gateway listens and the CA to trust, or an error without one.
    func gatewayReply() -> Reply {
        guard let gateway else {
            return .error("this pushdeck runs no gateway; start it with --gateway [HOST:PORT]")
        }
        return .gateway(address: gateway.address.description, ca: gateway.configuration.caPath)
    }

    /// `{"op":"gateway","credentials":V}`: what a backend of vendor V calls this gateway with.
    ///
    /// With a key of V registered, its credentials (for APNs a provider token signed with it now,
    /// which the gateway takes for the next hour); with none, the made-up `OpenCredentials` (for
    /// APNs a well-formed token signed with a throwaway key), which a gateway with no key of V
    /// takes. The secrets go only to this socket's own user (the socket is 0600).
    func credentialsReply(_ query: CredentialsQuery) -> Reply {
        guard let gateway else {
            return .error("this pushdeck runs no gateway; start it with --gateway [HOST:PORT]")
        }
        let address = gateway.address.description
        let keys = inbox.providerKeys.values.filter { $0.vendor == query.vendor }.sorted { $0.id < $1.id }
        switch query.vendor {
        case .apns:
            return apnsCredentials(query, keys: keys, address: address)
        case .jpush:
            guard let key = keys.first else {
                return .credentials(.jpush(appKey: OpenCredentials.jpushAppKey, masterSecret: OpenCredentials.jpushMasterSecret, registered: false), address: address)
            }
            return .credentials(.jpush(appKey: key.id, masterSecret: key.secret, registered: true), address: address)
        case .getui:
            guard let key = keys.first else {
                return .credentials(.getui(appId: OpenCredentials.getuiAppId, appKey: OpenCredentials.getuiAppKey,
                                           masterSecret: OpenCredentials.getuiMasterSecret, registered: false), address: address)
            }
            return .credentials(.getui(appId: key.id, appKey: key.appKey ?? "", masterSecret: key.secret, registered: true), address: address)
        case .fcm:
            // The key file's `token_uri` is this gateway's `/token`; with no key registered the
            // file's `private_key` is left for the client to fill with a throwaway key (making an
            // RSA key takes a tenth of a second, too long for this loop).
            let tokenURI = "https://\(address)\(FCMRoutes.tokenPath)"
            guard let key = keys.first else {
                let account = ServiceAccount(
                    projectId: OpenCredentials.fcmProjectId, privateKeyId: "", privateKeyPEM: "",
                    clientEmail: OpenCredentials.fcmClientEmail, clientId: "", tokenURI: tokenURI)
                return .credentials(.fcm(serviceAccount: account.json.prettyText, registered: false), address: address)
            }
            let account = ServiceAccount(
                projectId: key.team ?? "", privateKeyId: "", privateKeyPEM: key.secret, clientEmail: key.id, clientId: "", tokenURI: tokenURI)
            return .credentials(.fcm(serviceAccount: account.json.prettyText, registered: true), address: address)
        }
    }

    /// The APNs token: signed with the one registered key `query` names (by key id and/or team;
    /// naming none is enough when one key is registered), or with no key registered signed with a
    /// throwaway key and naming `query`'s key id and team (else `OpenCredentials`').
    private func apnsCredentials(_ query: CredentialsQuery, keys: [ProviderKey], address: String) -> Reply {
        let issuedAt = Int64(time.wallNow.timeIntervalSince1970)
        guard !keys.isEmpty else {
            let keyId = query.keyId ?? OpenCredentials.apnsKeyId
            let team = query.team ?? OpenCredentials.apnsTeam
            do {
                let token = try ProviderToken.make(keyId: keyId, team: team, issuedAt: issuedAt, privateKeyPEM: nil)
                return .credentials(.apns(keyId: keyId, team: team, token: token, registered: false), address: address)
            } catch {
                return .error("cannot sign a provider token: \(error.description)")
            }
        }
        let fitting = keys.filter { key in (query.keyId.map { $0 == key.id } ?? true) && (query.team.map { $0 == key.team } ?? true) }
        let registered = keys.map { "\($0.id) (team \($0.team ?? "none"))" }.joined(separator: ", ")
        let named = [query.keyId.map { "key id \($0)" }, query.team.map { "team \($0)" }].compactMap { $0 }.joined(separator: " and ")
        guard let key = fitting.first, let team = key.team else {
            return .error("no registered APNs key has \(named); registered: \(registered) (the gateway refuses a token of any other key: 403 InvalidProviderToken)")
        }
        guard fitting.count == 1 else {
            return .error("\(fitting.count) registered APNs keys fit\(named.isEmpty ? "" : " " + named) (\(registered)); name one with --key-id")
        }
        do {
            let token = try ProviderToken.make(keyId: key.id, team: team, issuedAt: issuedAt, privateKeyPEM: key.secret)
            return .credentials(.apns(keyId: key.id, team: team, token: token, registered: true), address: address)
        } catch {
            return .error("cannot sign a provider token with APNs key \(key.id): \(error.description)")
        }
    }
}
