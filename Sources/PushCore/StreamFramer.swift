/// Why the framer could not produce a frame.
public enum FramingError: Error, Sendable, Equatable {
    /// An object grew past the limit; the stream can no longer be framed (close the connection).
    case tooLarge(limit: Int)
    /// Bytes that cannot start an object were skipped; the stream goes on at the next `{`.
    case unexpected(String)
}

/// Splits a byte stream into JSON objects sent back to back (DESIGN §3).
/// STUB — to be written (issue 2).
public struct StreamFramer: Sendable {
    public let limit: Int
    public init(limit: Int = 64 * 1024) { self.limit = limit }

    public mutating func append(_ bytes: some Collection<UInt8>) {}

    /// The next complete object's bytes, nil when more input is needed.
    public mutating func next() throws(FramingError) -> [UInt8]? { nil }
}
