/// The lookups that handling a request needs of a store: the engine reads these before it
/// hands events to the reducer (the reducer itself reads nothing). The SQLite store and the
/// in-memory store both answer them, and one conformance suite holds them to the same answers.
public protocol InboxReading {
    /// The newest listed (not held) message of `app` with this collapse id: the one a push with
    /// the same id replaces, as much of it as replacing reads.
    func replaceable(app: String, collapseId: String) throws -> ReplacedMessage?
    /// The messages with these ids, in the order asked, each once; ids not stored are left
    /// out, and so are held ones (not delivered yet) unless `includeHeld`.
    func messages(ids: [Int64], includeHeld: Bool) throws -> [Message]
    /// A page of listed messages, newest first.
    func page(_ query: ListQuery) throws -> [Message]
}

/// A store the engine's effects can be written to, beside its lookups.
public protocol InboxStore: InboxReading {
    /// Carries out one change of persisted state.
    func apply(_ change: StoreChange) throws
}

/// The stored message a push with its collapse id replaces: what the replacing rule reads of
/// it (which message, on which channel, whether it was read). Not the whole message: a
/// backend that sends every push with one collapse id replaces a message a push, and reading
/// each one back whole (its payload, headers, FCM options) was a fifth of such a push's cost.
public struct ReplacedMessage: Sendable, Equatable {
    public var id: Int64
    public var app: String
    public var channel: Channel
    public var collapseId: String?
    public var held: Bool
    public var read: Bool

    public init(id: Int64, app: String, channel: Channel, collapseId: String?, held: Bool = false, read: Bool) {
        self.id = id
        self.app = app
        self.channel = channel
        self.collapseId = collapseId
        self.held = held
        self.read = read
    }

    public init(_ message: Message) {
        self.init(id: message.id, app: message.app, channel: message.channel, collapseId: message.collapseId, held: message.held, read: message.read)
    }
}
