import PushCore

/// Limits and knobs of the server loop.
public struct ServerOptions: Sendable {
    /// An object larger than this gets an error reply and the connection is closed.
    public var maxObjectBytes = 64 * 1024
    /// The APNs payload limit (`--max-payload`).
    public var maxPayloadBytes = 4096
    /// How long a banner stays (`--banner-seconds`).
    public var bannerSeconds = 5.0
    /// A subscriber whose unread events pile up past this is dropped (it cannot slow anyone down).
    public var maxOutputBytes = 8 << 20
    /// A client whose unread replies pile up past this is not read until it catches up: flow
    /// control, so a client that never reads stalls only itself.
    public var replyHighWater = 1 << 20
    /// At most this much is read from one client per loop turn, so one busy client cannot starve
    /// the others; it is also what bounds a turn's transaction.
    public var readChunk = 256 * 1024
    /// At most this many requests of one client are handled per loop turn; the rest wait, read
    /// but not yet handled, for the next turn. 256 KiB of pings is 18 000 requests: one turn of
    /// them kept every other client and the screen waiting (seconds, in a debug build).
    public var maxRequestsPerTurn = 1024
    /// Where log lines go (stderr for `serve`; the UI keeps them off the screen).
    public var log: @Sendable (String) -> Void = { _ in }

    /// What the gateway does with a device token it does not know (`--devices open|strict`).
    public var devicePolicy: DevicePolicy = .open
    /// The server's clock moves only when a `clock` request moves it (`--clock manual`), so a
    /// live scenario's banner stays and expiries hold without waiting for them.
    public var manualClock = false
    public init() {}
}
