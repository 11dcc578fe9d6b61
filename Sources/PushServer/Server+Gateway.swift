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
}
