import Glibc

/// Where the gateway listens: `HOST:PORT` (`[::1]:PORT` for IPv6), parsed and checked.
public struct GatewayAddress: Sendable, Equatable, CustomStringConvertible {
    /// APNs' own port, the default with `--gateway` and no value.
    public static let defaultValue = "127.0.0.1:2197"

    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; the message says what is accepted.
    public init(parsing text: String) throws(GatewayError) {
        let accepted = "a HOST:PORT such as 127.0.0.1:2197, localhost:2197 or [::1]:2197"
        guard let colon = text.lastIndex(of: ":") else { throw GatewayError("'\(text)' is not \(accepted)") }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]) else {
            throw GatewayError("'\(text)' is not \(accepted)")
        }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// True for 127.0.0.0/8 and ::1: only there does the gateway also speak cleartext.
    public var isLoopback: Bool {
        if host == "::1" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
