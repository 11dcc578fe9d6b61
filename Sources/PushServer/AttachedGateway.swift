import Foundation
import PushCore

/// A provider gateway in the server's loop, attached by whoever assembles the server (the
/// executable): PushServer knows it only through this protocol, so the server's module does not
/// depend on the gateway's. It is a participant of the one `poll(2)` loop, and it answers the two
/// requests only a gateway can answer.
public protocol AttachedGateway: PollParticipant {
    /// Where it listens, as `HOST:PORT` (`[HOST]:PORT` for IPv6).
    var addressDescription: String { get }
    /// `{"op":"gateway"}`: where the gateway listens and the CA to trust.
    func gatewayReply() -> Reply
    /// `{"op":"gateway","credentials":V}`: what a backend of vendor V calls the gateway with,
    /// given the registered provider keys and the wall clock's now (a token's issue time).
    func credentialsReply(_ query: CredentialsQuery, keys: [ProviderKey], now: Date) -> Reply
    /// Closes its connections and its port (the server is shutting down).
    func close()
}

extension Server {
    /// Runs `gateway` in this server's loop; its requests come through `submit`.
    public func attach(gateway: any AttachedGateway, faultVocabulary: FaultVocabulary = FaultVocabulary()) {
        self.gateway = gateway
        // What `fault add` checks a fault against: the attached gateway's reasons and paths.
        inbox.faults.vocabulary = faultVocabulary
        add(gateway)
    }

    /// Where the attached gateway listens, or nil without one.
    public var gatewayAddress: String? { gateway?.addressDescription }

    /// The wall clock's now of this server's time source (what a gateway route reads).
    public var wallNow: Date { time.wallNow }

    /// The monotonic now of this server's time source (what its deadlines are counted in).
    public var now: Instant { time.now }

    /// Handles a gateway's request like a socket client's; `completion` gets its reply after the
    /// turn's commit (or the socket's error reply when the commit failed), on the loop thread.
    public func submit(_ request: Request, completion: @escaping (Reply) -> Void) {
        let reply = handle(request, from: nil)
        gatewayAnswers.append((reply, completion))
    }

    /// The request log's seq for a gateway request that has just arrived.
    public func arriveProviderRequest() -> Int { inbox.requestLog.arrive() }

    /// Logs a gateway request as answered, and publishes its `request` bus event.
    public func logProviderRequest(_ record: consuming ProviderRequestRecord) {
        carryOut(Engine.logProviderRequest(record, inbox: &inbox, announce: announces))
    }

    /// The armed fault that answers a gateway request, fired on the server's clock (or nil).
    public func fireFault(vendor: Via, path: String, streamIndex: Int, summary: () -> (tokens: [String], app: String?)) -> FiredFault? {
        guard !inbox.faults.isEmpty else { return nil }
        return inbox.faults.fire(vendor: vendor, path: path, streamIndex: streamIndex, now: time.wallNow, summary: summary)
    }

    /// `{"op":"gateway"}`: the attached gateway's answer, or an error without one.
    func gatewayReply() -> Reply {
        guard let gateway else {
            return .error("this pushdeck runs no gateway; start it with --gateway [HOST:PORT]")
        }
        return gateway.gatewayReply()
    }

    /// `{"op":"gateway","credentials":V}`: the attached gateway's answer over the registered keys.
    func credentialsReply(_ query: CredentialsQuery) -> Reply {
        guard let gateway else {
            return .error("this pushdeck runs no gateway; start it with --gateway [HOST:PORT]")
        }
        return gateway.credentialsReply(query, keys: Array(inbox.providerKeys.values), now: time.wallNow)
    }
}
