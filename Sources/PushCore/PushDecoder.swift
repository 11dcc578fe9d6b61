/// Decodes and validates a push payload (DESIGN §4): channel and app inference, APNs, Getui
/// pass-through and Getui-over-APNs, JPush; refusals name the field path and what is accepted.
public struct PushDecoder: Sendable {
    /// The APNs payload limit (`--max-payload`).
    public var maxPayloadBytes: Int
    public init(maxPayloadBytes: Int = 4096) { self.maxPayloadBytes = maxPayloadBytes }

    /// STUB — to be written (issue 2).
    public func decode(_ request: PushRequest) throws(WireError) -> Push {
        throw WireError("not implemented")
    }
}
