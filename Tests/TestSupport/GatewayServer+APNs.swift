import Foundation

extension GatewayServer {
    /// The CA to trust the gateway's certificate with (`SSL_CERT_FILE`, `curl --cacert`).
    public var caPath: String { ca }

    /// Runs a client command against this server.
    public func run(_ arguments: [String]) throws -> CommandResult { try server.run(arguments) }

    /// The Python of the test virtualenv (aioapns, PyJWT pinned there), made first when missing.
    public static func venvPython() throws -> String { try TestVenv.python() }
}
