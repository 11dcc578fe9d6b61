/// A thread of the list: an app's messages with the same `aps.thread-id` (iOS groups by both).
public struct ThreadKey: Hashable, Sendable {
    public var app: String
    public var thread: String

    public init(app: String, thread: String) {
        self.app = app
        self.thread = thread
    }
}

extension Message {
    /// The thread the message is in, if it has a thread id.
    public var threadKey: ThreadKey? { threadId.map { ThreadKey(app: app, thread: $0) } }
}
