import PushSystem

/// Why the gateway cannot start: a bad address, TLS material it cannot make or use, or a failed
/// system call (whose errno stays readable).
public struct GatewayError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// errno of the failed call, when a system call failed.
    public var code: Int32?
    public init(_ message: String) { self.message = message }
    init(_ failure: SystemError) {
        self.message = failure.description
        self.code = failure.errno
    }
    public var description: String { message }
}
