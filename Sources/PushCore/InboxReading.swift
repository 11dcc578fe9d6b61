/// The lookups that handling a request needs of a store: the engine reads these before it
/// hands events to the reducer (the reducer itself reads nothing). The SQLite store and the
/// in-memory store both answer them, and one conformance suite holds them to the same answers.
public protocol InboxReading {
    /// The newest listed (not held) message of `app` with this collapse id: the one a push with
    /// the same id replaces.
    func message(app: String, collapseId: String) throws -> Message?
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
