import PushCore
import PushJSON

/// What a push step came to, as an expect reads it (`delivered`, `reason`): from the reducer's
/// typed reply — in instant play the engine's, in live play the one a running pushdeck sent, read
/// by the wire layer — or from a gateway's refusal.
struct PushVerdict: Sendable, Equatable {
    var delivered: Bool
    /// Why it was not delivered: the push's reason, `held`, a vendor's refusal or an error.
    var reason: String?

    init(delivered: Bool, reason: String?) {
        self.delivered = delivered
        self.reason = reason
    }

    /// From the inbox's reply (instant play, and live play's reply line read by `Reply(wire:)`).
    init(_ reply: Reply) {
        guard let fate = reply.pushReply?.fate else {
            self.init(delivered: false, reason: reply.errorMessage)
            return
        }
        self.init(delivered: fate.isDelivered, reason: fate.reason ?? (fate.isHeld ? "held" : nil))
    }
}
