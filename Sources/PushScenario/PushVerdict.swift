import PushCore
import PushJSON

/// What a push step came to, as an expect reads it (`delivered`, `reason`): from the reducer's
/// typed reply in instant play, from a gateway's refusal, or from the reply line a running
/// pushdeck sent in live play.
struct PushVerdict: Sendable, Equatable {
    var delivered: Bool
    /// Why it was not delivered: the push's reason, `held`, a vendor's refusal or an error.
    var reason: String?

    init(delivered: Bool, reason: String?) {
        self.delivered = delivered
        self.reason = reason
    }

    /// From the inbox's reply (instant play).
    init(_ reply: Reply) {
        guard let fate = reply.pushReply?.fate else {
            self.init(delivered: false, reason: reply.errorMessage)
            return
        }
        self.init(delivered: fate.isDelivered, reason: fate.reason ?? (fate.isHeld ? "held" : nil))
    }

    /// From a reply line as the socket sent it (live play): the same reading of its fields.
    init(wire reply: JSONObject) {
        let reason = reply["reason"]?.stringValue ?? (reply["held"] == .bool(true) ? "held" : reply["error"]?.stringValue)
        self.init(delivered: reply["delivered"]?.boolValue ?? false, reason: reason)
    }
}
